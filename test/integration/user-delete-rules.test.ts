/**
 * Who may be deleted (outside audit of the CLI): the last-admin rule guards only deletions that remove an
 * admin, so a library whose accounts were all made by `kikoplay user add` before any admin exists can
 * still lose a user; "the account you are logged in with" is decided by id, so the terminal's actor never
 * matches an account that happens to be called "(terminal)"; an unknown name is not repeated back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { CLI_ACTOR } from '../../cli/context.js';
import { AppError } from '../../server/domain/errors.js';

describe('user deletion rules', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const names = async () => (await t.app.db.all<{ name: string; role: string }>('SELECT name, role FROM users ORDER BY name')).map((u) => `${u.name}:${u.role}`);
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'done',
      (err: unknown) => (err instanceof AppError ? `${err.status} ${err.code}: ${err.message}` : String(err)),
    );

  it('deletes a plain user from the terminal when there is no admin at all', async () => {
    await t.app.db.run('DELETE FROM users');
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('bobby', 'bobbypass', 'user');
    expect(await t.app.services.users.delete(CLI_ACTOR, ['alice'])).toBe(1);
    expect(await names()).toEqual(['bobby:user']);
  });

  it('deletes an account called "(terminal)" from the terminal', async () => {
    await t.addUser('(terminal)', 'terminalpass', 'user');
    expect(await t.app.services.users.delete(CLI_ACTOR, ['(terminal)'])).toBe(1);
    expect(await names()).toEqual(['bobby:user']);
  });

  it("still refuses to delete the last admin, and one's own account", async () => {
    await t.addUser('admin1', 'adminpass', 'admin');
    expect(await refusal(t.app.services.users.delete(CLI_ACTOR, ['admin1']))).toBe('403 LAST_ADMIN_DELETE: 不能删除最后一个管理员账号.');
    await t.addUser('admin2', 'adminpass', 'admin');
    const admin2 = await t.app.repos.users.byName('admin2');
    expect(await refusal(t.app.services.users.delete({ id: admin2!.id, name: 'admin2', role: 'admin' }, ['admin2']))).toBe('403 SELF_DELETE: 不能删除当前登录的账号.');
    expect(await names()).toEqual(['admin1:admin', 'admin2:admin', 'bobby:user']);
  });

  it('answers an unknown name without repeating it', async () => {
    const token = await t.login('admin1', 'adminpass');
    const res = await t.json('DELETE', '/api/credentials/user', { token, body: { users: [{ name: 'nobody-echo-mark' }] } });
    expect(res).toEqual({ status: 404, body: { error: '用户不存在.', code: 'USER_NOT_FOUND' } });
  });
});
