import { z } from 'zod';
import type { RouteModule } from './types.js';
import { validate } from '../validate.js';
import { sendJson, sendJsonText } from '../responses/json-body.js';
import { CachedJsonBodies } from '../responses/cached-json.js';
import { listParams } from './works.js';
import { LABEL_KINDS, type LabelKind } from '../../contract/labels.js';
import { numericIdSchema, vaIdSchema } from '../../contract/works-query.js';

const idSchemas: Record<LabelKind, z.ZodType<number | string>> = {
  circles: z.object({ id: numericIdSchema }).transform((p) => p.id),
  tags: z.object({ id: numericIdSchema }).transform((p) => p.id),
  vas: z.object({ id: vaIdSchema }).transform((p) => p.id),
};

/** Circles, tags and voice actors: lists, one label, and its works (docs/API.md#labels). */
export const labelRoutes: RouteModule = (router, { works }) => {
  const bodies = new CachedJsonBodies();
  for (const kind of LABEL_KINDS) {
    router.get([`/${kind}`, `/${kind}/`], async (ctx) => {
      const { version, items } = await works.labelList(kind);
      bodies.send(ctx, kind, version, () => items);
    });

    router.get(`/${kind}/:id`, async (ctx) => {
      const id = validate(idSchemas[kind], ctx.params, 'params');
      sendJson(ctx, await works.label(kind, id));
    });

    router.get(`/${kind}/:id/works`, async (ctx) => {
      const id = validate(idSchemas[kind], ctx.params, 'params');
      sendJsonText(ctx, await works.listJson(ctx.state.actor ?? null, listParams(ctx), { kind: 'label', label: kind, id }));
    });
  }
};
