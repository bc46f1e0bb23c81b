/**
 * Outside audit: `alice\u200b` (a zero-width space) and full-width `ａｌｉｃｅ` were accepted as new users
 * beside `alice`, names a person cannot tell apart. A new name may hold no invisible format character
 * (Unicode Cf), and a name equal to an existing one under NFKC and case folding is taken. Stored names
 * are never rewritten: existing accounts keep logging in with the names they have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

describe('look-alike user names', () => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
  });
  afterAll(() => t.close());

  const create = (name: string) => t.json<{ code?: string }>('POST', '/api/credentials/user', { token: admin, body: { name, password: 'password123', group: 'user' } });

  it('refuses names with invisible format characters (U+200B–U+200F, U+2060, U+FEFF inside, soft hyphen)', async () => {
    for (const name of ['alice\u200b', 'al\u200cice', 'ali\u200dce', '\u200ealice', 'alice\u200f', 'ali\u2060ce', 'al\ufeffice', 'ali\u00adce', 'alice\u202e']) {
      const res = await create(name);
      expect(res.status, JSON.stringify(name)).toBe(422);
      expect(res.body.code, JSON.stringify(name)).toBe('USERNAME_INVALID');
    }
  });

  it('a name equal to a taken one under NFKC and case folding is taken (the duplicate-name answer)', async () => {
    expect((await create('alice')).status).toBe(200);
    for (const name of ['ａｌｉｃｅ', 'ALICE', 'Alice', 'ＡＬＩＣＥ']) {
      const res = await create(name);
      expect(res.status, name).toBe(422);
      expect(res.body.code, name).toBe('NAME_TAKEN');
    }
    expect((await create('straße')).status).toBe(200);
    expect((await create('STRASSE')).body.code).toBe('NAME_TAKEN');
    expect((await t.json<{ users: { name: string }[] }>('GET', '/api/credentials/users', { token: admin })).body.users.map((u) => u.name).sort()).toEqual(['admin', 'alice', 'straße']);
  });

  it('ordinary ASCII and CJK names are created and log in as before', async () => {
    for (const name of ['bobby', 'user_01', '田中太郎さん', 'キコエルさん', '小明同学你好', 'josé1', 'éclair']) {
      expect((await create(name)).status, name).toBe(200);
      await t.login(name, 'password123');
    }
    // a decomposed spelling of a taken name is the same name
    expect((await create('jose\u03011')).body.code).toBe('NAME_TAKEN');
  });

  it('stored names are not rewritten: existing look-alikes (made before the rule) keep logging in', async () => {
    await t.addUser('Carol1', 'password123', 'user');
    await t.addUser('carol1', 'password123', 'user');
    await t.addUser('dave\u200b1', 'password123', 'user');
    for (const name of ['Carol1', 'carol1', 'dave\u200b1']) await t.login(name, 'password123');
  });
});
