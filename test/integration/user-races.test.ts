/**
 * User management under parallel requests (outside audit): two admins creating the same name at once,
 * the last two admins demoting or deleting each other at once. Every check and its write are one step,
 * so exactly one request wins and the other gets the answer it would get after it: never a 500, never a
 * library without an admin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { CLI_ACTOR } from '../../cli/context.js';

/** Rounds of each race: one round almost always interleaves, several make a lucky pass unlikely. */
const ROUNDS = 4;

describe('user management races', () => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
  });
  afterAll(() => t.close());

  const admins = async () => (await t.app.db.all<{ name: string }>("SELECT name FROM users WHERE role = 'admin' ORDER BY name")).map((u) => u.name);

  /** Make `a` and `b` the only two admins, logged in. */
  async function twoAdmins(a: string, b: string): Promise<[string, string]> {
    await t.addUser(a, 'adminpass', 'admin');
    await t.addUser(b, 'adminpass', 'admin');
    await t.app.db.run("UPDATE users SET role = 'user' WHERE role = 'admin' AND name NOT IN (?, ?)", [a, b]);
    return [await t.login(a, 'adminpass'), await t.login(b, 'adminpass')];
  }

  it('two parallel creations of one name: one 200, the other the 422 NAME_TAKEN a second creation gets', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const body = { name: `double${i}`, password: 'password123', group: 'user' };
      const answers = await Promise.all([0, 1].map(() => t.json<{ code?: string }>('POST', '/api/credentials/user', { token: admin, body })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, JSON.stringify(answers)).toEqual([200, 422]);
      expect(answers.find((a) => a.status === 422)!.body.code).toBe('NAME_TAKEN');
      const sequential = await t.json<{ code?: string }>('POST', '/api/credentials/user', { token: admin, body });
      expect(sequential.status).toBe(422);
      expect(sequential.body.code).toBe('NAME_TAKEN');
    }
  });

  it('the last two admins demoting each other at once: one 200, one refusal, an admin is left', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = [`rolea${i}`, `roleb${i}`];
      const [ta, tb] = await twoAdmins(a, b);
      const answers = await Promise.all([
        t.json<{ code?: string }>('PUT', '/api/credentials/user/role', { token: ta, body: { name: b, role: 'user' } }),
        t.json<{ code?: string }>('PUT', '/api/credentials/user/role', { token: tb, body: { name: a, role: 'user' } }),
      ]);
      expect((await admins()).length, JSON.stringify(answers)).toBe(1);
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      const refused = answers.find((r) => r.status !== 200)!;
      // the loser's token may already be revoked by the winner's change (401) if it arrived that late
      expect([403, 401], JSON.stringify(refused)).toContain(refused.status);
      if (refused.status === 403) expect(refused.body.code).toBe('LAST_ADMIN_ROLE');
    }
  });

  it('the last two admins deleting each other at once: one 200, one refusal, an admin is left', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = [`dela${i}`, `delb${i}`];
      const [ta, tb] = await twoAdmins(a, b);
      const answers = await Promise.all([
        t.json<{ code?: string }>('DELETE', '/api/credentials/user', { token: ta, body: { users: [{ name: b }] } }),
        t.json<{ code?: string }>('DELETE', '/api/credentials/user', { token: tb, body: { users: [{ name: a }] } }),
      ]);
      expect((await admins()).length, JSON.stringify(answers)).toBe(1);
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      const refused = answers.find((r) => r.status !== 200)!;
      expect([403, 401], JSON.stringify(refused)).toContain(refused.status);
      if (refused.status === 403) expect(refused.body.code).toBe('LAST_ADMIN_DELETE');
    }
  });

  it('the service refuses the last admin for the terminal too (kikoplay user role/delete call it)', async () => {
    const [a, b] = ['clia0', 'clib0'];
    await twoAdmins(a, b);
    const results = await Promise.allSettled([t.app.services.users.setRole(CLI_ACTOR, a, 'user'), t.app.services.users.setRole(CLI_ACTOR, b, 'user')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'LAST_ADMIN_ROLE' });
    const [left] = await admins();
    await t.addUser('clic0', 'adminpass', 'admin');
    const deletes = await Promise.allSettled([t.app.services.users.delete(CLI_ACTOR, [left]), t.app.services.users.delete(CLI_ACTOR, ['clic0'])]);
    expect(deletes.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((deletes.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'LAST_ADMIN_DELETE' });
    expect(await admins()).toHaveLength(1);
  });
});
