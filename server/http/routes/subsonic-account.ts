import type { Context } from 'koa';
import type { RouteModule } from './types.js';
import { requireActor } from '../middleware/auth.js';
import { route } from '../route-policy.js';
import { conflict } from '../../domain/errors.js';
import { MSG } from '../../services/users-service.js';
import { subsonicKeyBody, subsonicKeyParams, subsonicPasswordBody } from '../../contract/requests/subsonic.js';
import { validate } from '../validate.js';

const KB = 1024;

/** Credentials belong to accounts: with auth off there are none (and /rest lets everyone in as the admin). */
function accountActor(ctx: Context) {
  const actor = requireActor(ctx);
  if (!ctx.state.authEnabled) throw conflict(MSG.authDisabled, { code: 'AUTH_DISABLED' });
  return actor;
}

/**
 * The caller's own Subsonic credentials (the account page; docs/API.md#subsonic-api): API keys (the key is in
 * the answer of its creation only) and the Subsonic password. Guests may look but not make (403).
 */
export const subsonicAccountRoutes: RouteModule = (router, { subsonicAuth }) => {
  router.get('/auth/me/subsonic', route({ summary: '自己的 Subsonic 凭据：API 密钥列表、是否设置了 Subsonic 密码' }), async (ctx) => {
    const actor = accountActor(ctx);
    const [keys, hasPassword] = await Promise.all([subsonicAuth.listKeys(actor), subsonicAuth.hasPassword(actor)]);
    ctx.body = { keys, hasPassword };
  });

  router.post('/auth/me/subsonic/keys', route({ summary: '创建 Subsonic API 密钥（name），密钥只在此次回答中出现', bodyLimit: 4 * KB, body: subsonicKeyBody }), async (ctx) => {
    const actor = accountActor(ctx);
    const { name } = validate(subsonicKeyBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = await subsonicAuth.createKey(actor, name);
  });

  router.delete('/auth/me/subsonic/keys/:name', route({ summary: '吊销自己的一个 Subsonic API 密钥', params: subsonicKeyParams }), async (ctx) => {
    const actor = accountActor(ctx);
    const { name } = validate(subsonicKeyParams, ctx.params, 'params');
    await subsonicAuth.revokeKey(actor, name);
    ctx.body = { message: '已吊销.' };
  });

  router.put('/auth/me/subsonic/password', route({ summary: '设置自己的 Subsonic 密码（password，8–256 个字符，与登录密码不同）', bodyLimit: 4 * KB, body: subsonicPasswordBody }), async (ctx) => {
    const actor = accountActor(ctx);
    const { password } = validate(subsonicPasswordBody, ctx.request.body, 'body');
    await subsonicAuth.setPassword(actor, password);
    ctx.body = { message: '已设置 Subsonic 密码.' };
  });

  router.delete('/auth/me/subsonic/password', route({ summary: '删除自己的 Subsonic 密码（之后只能使用 API 密钥）' }), async (ctx) => {
    const actor = accountActor(ctx);
    await subsonicAuth.clearPassword(actor);
    ctx.body = { message: '已删除 Subsonic 密码.' };
  });
};
