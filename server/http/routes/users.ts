import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { validate } from '../validate.js';
import { deleteUsersBody } from '../../contract/requests/users.js';
import { route } from '../route-policy.js';

export const userRoutes: RouteModule = (router, { users }) => {
  router.get('/credentials/users', route({ summary: '用户列表', admin: '只有 admin 账号能浏览用户.' }), async (ctx) => {
    ctx.body = { users: await users.list(requireActor(ctx)) };
  });

  router.post('/credentials/user', route({ summary: '创建用户（name、password、group）', admin: '只有 admin 账号能创建新用户.' }), async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const created = await users.create(requireActor(ctx), body);
    ctx.body = { message: `用户 ${created.name} 创建成功.` };
  });

  router.put('/credentials/user', route({ summary: '修改密码（自己的，或管理员修改他人的）' }), async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    await users.changePassword(requireActor(ctx), body, ctx.ip);
    ctx.body = { message: '密码修改成功.' };
  });

  router.put('/credentials/user/role', route({ summary: '修改用户角色（name、role）', admin: '只有 admin 账号能修改用户角色.' }), async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const user = await users.setRole(requireActor(ctx), body.name, body.role);
    ctx.body = { message: '角色修改成功.', user };
  });

  router.delete('/credentials/user', route({ summary: '删除用户', admin: '只有 admin 账号能删除用户.', body: deleteUsersBody }), async (ctx) => {
    const body = validate(deleteUsersBody, ctx.request.body, 'body');
    await users.delete(
      requireActor(ctx),
      body.users.map((u) => u.name),
    );
    ctx.body = { message: '删除成功.' };
  });
};
