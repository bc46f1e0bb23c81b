import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { route } from '../route-policy.js';
import { validate } from '../validate.js';
import { kikoeruImportBody } from '../../contract/requests/import.js';
import { IMPORT_MSG } from '../../services/kikoeru-import/import-service.js';

/**
 * The admin dashboard's import from another server: a kikoeru installation at paths on the server.
 * Admin only; a refused source is a 4xx `{ error, code }` with nothing changed.
 */
export const importRoutes: RouteModule = (router, { kikoeruImport }) => {
  router.post(
    '/admin/import/kikoeru',
    route({ summary: '从服务器上的 kikoeru 0.6.7 安装导入（db、config、lyrics、covers 路径，dryRun）', admin: IMPORT_MSG.forbidden, body: kikoeruImportBody }),
    async (ctx) => {
      const actor = requireActor(ctx);
      const body = validate(kikoeruImportBody, ctx.request.body ?? {}, 'body');
      ctx.body = await kikoeruImport.runAs(actor, body);
    },
  );
};
