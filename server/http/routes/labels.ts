import type { RouteModule } from './types.js';
import { validate } from '../validate.js';
import { sendJson, sendJsonText } from '../responses/json-body.js';
import { CachedJsonBodies } from '../responses/cached-json.js';
import { listParams } from './works.js';
import { LABEL_KINDS, type LabelKind } from '../../contract/labels.js';
import { labelIdParams } from '../../contract/requests/labels.js';
import { listQuerySchema } from '../../contract/requests/works.js';
import { route } from '../route-policy.js';

const LABEL_NAMES: Record<LabelKind, string> = { circles: '社团', tags: '标签', vas: '声优' };

/** Circles, tags and voice actors: lists, one label, and its works (docs/API.md#labels). */
export const labelRoutes: RouteModule = (router, { works }) => {
  const bodies = new CachedJsonBodies();
  for (const kind of LABEL_KINDS) {
    router.get([`/${kind}`, `/${kind}/`], route({ summary: `${LABEL_NAMES[kind]}列表` }), async (ctx) => {
      const { version, items } = await works.labelList(kind);
      bodies.send(ctx, kind, version, () => items);
    });

    router.get(`/${kind}/:id`, route({ summary: `一个${LABEL_NAMES[kind]}`, params: labelIdParams[kind] }), async (ctx) => {
      const id = validate(labelIdParams[kind], ctx.params, 'params');
      sendJson(ctx, await works.label(kind, id));
    });

    router.get(`/${kind}/:id/works`, route({ summary: `一个${LABEL_NAMES[kind]}的作品列表`, params: labelIdParams[kind], query: listQuerySchema }), async (ctx) => {
      const id = validate(labelIdParams[kind], ctx.params, 'params');
      sendJsonText(ctx, await works.listJson(ctx.state.actor ?? null, listParams(ctx), { kind: 'label', label: kind, id }));
    });
  }
};
