import type { RouteModule } from './types.js';
import { validate } from '../validate.js';
import { sendJson, sendJsonText } from '../presenters/json-body.js';
import { CachedJsonBodies } from '../presenters/cached-json.js';
import { listParams } from './works.js';
import { LABEL_KINDS } from '../../contract/labels.js';
import { labelIdParams } from '../../contract/requests/labels.js';

/** Circles, tags and voice actors: lists, one label, and its works (docs/API.md#labels). */
export const labelRoutes: RouteModule = (router, { works }) => {
  const bodies = new CachedJsonBodies();
  for (const kind of LABEL_KINDS) {
    router.get([`/${kind}`, `/${kind}/`], async (ctx) => {
      const { version, items } = await works.labelList(kind);
      bodies.send(ctx, kind, version, () => items);
    });

    router.get(`/${kind}/:id`, async (ctx) => {
      const id = validate(labelIdParams[kind], ctx.params, 'params');
      sendJson(ctx, await works.label(kind, id));
    });

    router.get(`/${kind}/:id/works`, async (ctx) => {
      const id = validate(labelIdParams[kind], ctx.params, 'params');
      sendJsonText(ctx, await works.listJson(ctx.state.actor ?? null, listParams(ctx), { kind: 'label', label: kind, id }));
    });
  }
};
