import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { deleteUsersBody } from '../../contract/requests/users.js';

export const userRoutes: RouteModule = (router, { users }) => {
  router.get('/credentials/users', async (ctx) => {
    ctx.body = { users: await users.list(requireActor(ctx)) };
  });

  router.post('/credentials/user', async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const created = await users.create(requireActor(ctx), body);
    ctx.body = { message: `用户 ${created.name} 创建成功.` };
  });

  router.put('/credentials/user', async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    await users.changePassword(requireActor(ctx), body, ctx.ip);
    ctx.body = { message: '密码修改成功.' };
  });

  router.put('/credentials/user/role', async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const user = await users.setRole(requireActor(ctx), body.name, body.role);
    ctx.body = { message: '角色修改成功.', user };
  });

  router.delete('/credentials/user', async (ctx) => {
    const body = validate(deleteUsersBody, ctx.request.body, 'body');
    await users.delete(requireActor(ctx), body.users.map((u) => u.name));
    ctx.body = { message: '删除成功.' };
  });
};
