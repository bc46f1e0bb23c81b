/**
 * User management under parallel requests (outside audit): two admins creating the same name at once.
 * The check and its write are one step, so exactly one request wins and the other gets the answer it
 * would get after it: never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

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
});
