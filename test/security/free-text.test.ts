/**
 * Outside audit: `POST /api/edit/work/:id {"title":"\u0000"}` was stored. User and folder names already
 * refused control characters; the one rule (server/domain/text-rules.ts) now holds for every free-text
 * field an admin edit takes — title, a new circle's, tag's or voice actor's name, a voice actor id, the
 * uncensor mapping — and for the names it held for before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';

const WORK = 990001;

describe('control characters in free text', () => {
  let t: TestServer;
  let admin: string;

  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    admin = await t.login('admin', 'adminpass');
    await t.app.db.run("INSERT INTO works (id, code, title, root_folder, dir) VALUES (?, ?, 'work', 'lib', ?)", [WORK, `RJ${WORK}`, `RJ${WORK}`]);
  });
  afterAll(() => t.close());

  const edit = (body: unknown) => t.json<{ code?: string; field?: string }>('POST', `/api/edit/work/${WORK}`, { token: admin, body });
  const stored = async () => ({
    work: await t.app.db.get('SELECT title, circle_id FROM works WHERE id = ?', [WORK]),
    labels: await t.app.db.all('SELECT name FROM circles UNION ALL SELECT name FROM tags UNION ALL SELECT name FROM vas'),
  });

  it('an edit holding a control character in any free-text field is a 400 naming the field, and nothing is stored', async () => {
    const before = await stored();
    for (const c of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f']) {
      const cases: [unknown, string][] = [
        [{ title: c }, 'title'],
        [{ title: `a${c}b` }, 'title'],
        [{ circle: { id: 0, name: `circle${c}` } }, 'circle.name'],
        [{ tags: [{ id: 0, name: `tag${c}` }] }, 'tags.0.name'],
        [{ vas: [{ id: 0, name: `va${c}` }] }, 'vas.0.name'],
        [{ vas: [{ id: `id${c}`, name: 'va' }] }, 'vas.0.id'],
      ];
      for (const [body, field] of cases) {
        const res = await edit(body);
        expect(res.status, `${JSON.stringify(body)}`).toBe(400);
        expect(res.body.field, JSON.stringify(body)).toBe(field);
      }
    }
    const mapping = await t.json('POST', '/api/uncensor/tags', { token: admin, body: { mapping: { 'ab\u0000': 'cd' } } });
    expect(mapping.status).toBe(400);
    expect(await stored()).toEqual(before);
  });

  it('ordinary text is kept, emoji joined with zero-width joiners included', async () => {
    const title = '作品 👨‍👩‍👧 Title';
    expect((await edit({ title })).status).toBe(200);
    expect(((await stored()).work as { title: string }).title).toBe(title);
  });

  it('user and folder names refuse the same characters (DEL and C1 controls too)', async () => {
    const user = await t.json<{ code?: string }>('POST', '/api/credentials/user', { token: admin, body: { name: 'bobby\u007f', password: 'password123', group: 'user' } });
    expect(user.status).toBe(422);
    expect(user.body.code).toBe('USERNAME_INVALID');
    const folder = await t.json<{ code?: string }>('POST', '/api/config/folders', { token: admin, body: { name: 'lib\u0085', path: t.dataDir } });
    expect(folder.status).toBe(400);
    expect(folder.body.code).toBe('FOLDER_NAME_INVALID');
  });
});
