import type { RouteModule } from './types.js';
import { groupOfRole } from '../../auth/roles.js';
import { bearerToken, requireActor } from '../middleware/auth.js';
import { conflict, unauthorized } from '../../domain/errors.js';
import { isWorkerToken } from '../../services/worker-tokens-service.js';
import { MSG } from '../../services/users-service.js';
import { route } from '../route-policy.js';
import { KB } from '../limits.js';
import { localeBody, ownPasswordBody } from '../../contract/requests/users.js';

export const sessionRoutes: RouteModule = (router, { users, workerTokens }) => {
  /**
   * Login. Works whether auth is on or off; 422 on short fields, 401 on wrong credentials, 429 when rate
   * limited. Public, and the Authorization header is never looked at: clients (the web client, the
   * transcription worker) send their stored token along, which may be revoked or expired by now.
   * JSON or form bodies (the worker logs in with a form).
   */
  router.post('/auth/me', route({ summary: '登录（name、password），返回登录令牌', access: 'public', form: true, bodyLimit: 8 * KB }), async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const { token, user } = await users.login(body.name, body.password, ctx.ip);
    ctx.body = { token, user: { name: user.name, group: user.group, role: user.role } };
  });

  /**
   * Who am I, and is auth on. Public: it checks the token itself, and only the Authorization header
   * counts here (docs/API.md#session). A worker token answers as its worker (the Python worker's login check).
   */
  router.get('/auth/me', route({ summary: '当前用户，以及是否开启了登录验证', access: 'public' }), async (ctx) => {
    if (!ctx.state.authEnabled) {
      const actor = await users.anonymousAdmin();
      ctx.body = { user: { name: actor.name, group: groupOfRole(actor.role), role: actor.role, locale: await users.localeOf(actor), mustChangePassword: false }, auth: false };
      return;
    }
    const token = bearerToken(ctx, false);
    if (!token) throw unauthorized('No authorization token was found', { code: 'TOKEN_MISSING' });
    if (isWorkerToken(token)) {
      const worker = await workerTokens.authenticate(token);
      ctx.body = { user: { name: worker.name, group: 'worker', role: 'worker' }, auth: true };
      return;
    }
    const actor = await users.authenticate(token);
    const account = await users.accountOf(actor);
    ctx.body = { user: { name: actor.name, group: groupOfRole(actor.role), role: actor.role, ...account }, auth: true };
  });

  /** Save the caller's interface language (`en`, `ja` or `zh-CN`) on their account; guests too. */
  router.put('/auth/me/locale', route({ summary: '保存自己的界面语言（locale：en、ja 或 zh-CN）', body: localeBody }), async (ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    ctx.body = { locale: await users.setLocale(requireActor(ctx), body.locale) };
  });

  /**
   * Change one's own password (users and admins; guests get 403): `{ current, password }`. A wrong
   * current password is a 403 and counts like a failed login (the same limiter: 429 when over). Every
   * token of the user stops working; the answer carries a new login token for this device.
   */
  router.put('/auth/me/password', route({ summary: '修改自己的密码（current、password），返回新的登录令牌', bodyLimit: 8 * KB, body: ownPasswordBody }), async (ctx) => {
    const actor = requireActor(ctx);
    if (!ctx.state.authEnabled) throw conflict(MSG.authDisabled, { code: 'AUTH_DISABLED' });
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const { token } = await users.changeOwnPassword(actor, body, ctx.ip);
    ctx.body = { message: '密码修改成功.', token };
  });

  /** Log out everywhere: every login and media token of the caller stops working, this one included. Not for guests. */
  router.post('/auth/me/logout-all', route({ summary: '退出所有设备的登录（吊销自己的全部令牌）' }), async (ctx) => {
    const actor = requireActor(ctx);
    if (!ctx.state.authEnabled) throw conflict(MSG.authDisabled, { code: 'AUTH_DISABLED' });
    await users.logoutEverywhere(actor);
    ctx.body = { message: '已退出所有设备的登录.' };
  });

  /** Log out: revokes the login token in the Authorization header (and its media tokens), no other. */
  router.post('/auth/logout', route({ summary: '退出登录（吊销当前登录令牌）' }), async (ctx) => {
    requireActor(ctx);
    const token = bearerToken(ctx, false);
    if (ctx.state.authEnabled && token) await users.logout(token);
    ctx.body = { message: '已退出登录.' };
  });

  /**
   * A short-lived token for media, cover and download URLs (`?token=`), made from the login token in
   * the Authorization header; refused by every other route. With auth off no token is needed: null.
   */
  router.get('/auth/media-token', route({ summary: '换取用于媒体地址的短期令牌' }), async (ctx) => {
    requireActor(ctx);
    if (!ctx.state.authEnabled) {
      ctx.body = { token: null, expiresAt: null };
      return;
    }
    const token = bearerToken(ctx, false);
    if (!token) throw unauthorized('No authorization token was found', { code: 'TOKEN_MISSING' });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await users.mediaToken(token);
  });

  /** Legacy PWA path. */
  router.get('/me', route({ summary: '旧路径，重定向到 /api/auth/me' }), (ctx) => {
    ctx.redirect('/api/auth/me');
  });
};
