import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { route } from '../route-policy.js';
import { FOLDER_MSG } from '../../services/folders-service.js';
import { browsePathOf } from '../../services/folder-browse.js';
import { browseQuery } from '../../contract/requests/folders.js';

type Body = Record<string, unknown>;
const bodyOf = (body: unknown): Body => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {});

/**
 * Library folders of the admin dashboard: list, add (alias + absolute path), delete, cover folder.
 * Admin only; every bad input is a 4xx `{ error }` and changes nothing.
 */
export const folderRoutes: RouteModule = (router, { folders }) => {
  router.get('/config/folders', route({ summary: '媒体库文件夹与封面文件夹', admin: FOLDER_MSG.forbidden }), async (ctx) => {
    ctx.body = await folders.view(requireActor(ctx));
  });

  /** The folder browser: the readable directories in `path` (absolute; default: the data dir's parent or home). */
  router.get('/config/browse', route({ summary: '浏览服务器上的文件夹（path：绝对路径），用于添加媒体库文件夹', admin: FOLDER_MSG.forbidden, query: browseQuery }), async (ctx) => {
    ctx.body = await folders.browse(requireActor(ctx), browsePathOf(ctx.query.path));
  });

  router.post('/config/folders', route({ summary: '添加媒体库文件夹（name、path）', admin: FOLDER_MSG.forbidden }), async (ctx) => {
    ctx.body = await folders.add(requireActor(ctx), bodyOf(ctx.request.body));
  });

  router.delete('/config/folders', route({ summary: '删除媒体库文件夹（name）', admin: FOLDER_MSG.forbidden }), async (ctx) => {
    const body = bodyOf(ctx.request.body);
    const name = body.name ?? ctx.query.name;
    ctx.body = await folders.remove(requireActor(ctx), { name });
  });

  router.put('/config/folders/cover', route({ summary: '设置封面文件夹', admin: FOLDER_MSG.forbidden }), async (ctx) => {
    ctx.body = await folders.setCover(requireActor(ctx), bodyOf(ctx.request.body));
  });
};
