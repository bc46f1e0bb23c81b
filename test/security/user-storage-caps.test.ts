/**
 * Issue 18 item 6: what one user can make the server store is bounded. A play state per work and all
 * of a user's play states, a review text and all of a user's review texts: past the cap a 413 `{ error }`
 * and nothing written. Waiting AI tasks per (non-admin) user: past the cap a 429 and no task.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAiLibrary, type AiLibrary } from '../helpers/ai-library.js';
import type { TestServer } from '../helpers/app.js';
import { USER_DATA_LIMITS, USER_DATA_MSG } from '../../server/services/user-data-service.js';
import { MAX_PENDING_TASKS_PER_USER, MSG as AI_MSG } from '../../server/services/ai-tasks-service.js';

const FIRST_WORK = 700001;
const WORKS = 72;
const AI_WORK = 710001;

/** A play state whose JSON is exactly `bytes` long. */
function stateOf(bytes: number) {
  const empty = JSON.stringify({ queue: [{ title: '' }], index: 0, seconds: 0 }).length;
  return { queue: [{ title: 'x'.repeat(bytes - empty) }], index: 0, seconds: 0 };
}

describe('per-user storage caps', () => {
  let lib: AiLibrary;
  let t: TestServer;
  const tok: Record<string, string> = {};
  const userId = async (name: string) => (await t.app.db.get<{ id: number }>('SELECT id FROM users WHERE name = ?', [name]))!.id;

  beforeAll(async () => {
    // the caps, not the write pace (tested in write-pace.test.ts): this user may store as fast as it likes
    lib = await startAiLibrary({}, { userWriteBurstBytes: Infinity });
    t = lib.t;
    for (let i = 0; i < WORKS; i++) {
      const id = FIRST_WORK + i;
      await t.app.db.run("INSERT INTO works (id, code, title, root_folder, dir) VALUES (?, ?, ?, 'lib', ?)", [id, `RJ${id}`, `作品 ${id}`, `RJ${id}`]);
    }
    await lib.seedWork(
      AI_WORK,
      Array.from({ length: MAX_PENDING_TASKS_PER_USER + 2 }, (_, n) => ({ path: `track ${n}.mp3`, bytes: Buffer.from('x') })),
    );
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('bobby', 'bobpass', 'user');
    await t.addUser('admin', 'adminpass', 'admin');
    for (const [name, pass] of [
      ['alice', 'alicepass'],
      ['bobby', 'bobpass'],
      ['admin', 'adminpass'],
    ])
      tok[name] = await t.login(name, pass);
  });
  afterAll(() => lib?.close());

  const putHistory = (token: string, workId: number, state: unknown) => t.json<{ error?: string }>('PUT', '/api/histroy', { token, body: { work_id: workId, state } });
  const putReview = (token: string, workId: number, text: string) =>
    t.json<{ error?: string }>('PUT', '/api/review?starOnly=false', { token, body: { work_id: workId, rating: 4, review_text: text } });

  it(`a play state over ${USER_DATA_LIMITS.stateBytes / 1024} KB is a 413 and not stored`, async () => {
    const big = await putHistory(tok.alice, FIRST_WORK, stateOf(USER_DATA_LIMITS.stateBytes + 1));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: USER_DATA_MSG.stateTooLarge, code: 'STATE_TOO_LARGE', params: { kb: 256 } });
    expect(await t.app.db.get('SELECT 1 FROM play_history WHERE work_id = ?', [FIRST_WORK])).toBeUndefined();
    expect((await putHistory(tok.alice, FIRST_WORK, stateOf(USER_DATA_LIMITS.stateBytes))).status).toBe(200);
    await t.app.db.run('DELETE FROM play_history');
  });

  it(`a user's play states together stop at ${USER_DATA_LIMITS.historyBytesPerUser / 1024 / 1024} MB`, async () => {
    const size = 250_000;
    const fit = Math.floor(USER_DATA_LIMITS.historyBytesPerUser / size);
    for (let i = 0; i < fit; i++) expect((await putHistory(tok.alice, FIRST_WORK + i, stateOf(size))).status, `work ${i}`).toBe(200);
    const over = await putHistory(tok.alice, FIRST_WORK + fit, stateOf(size));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: USER_DATA_MSG.historyFull, code: 'HISTORY_FULL', params: { mb: 16 } });
    expect(await t.app.db.get('SELECT 1 FROM play_history WHERE work_id = ?', [FIRST_WORK + fit])).toBeUndefined();
    // replacing a stored state counts it once; another user has a budget of their own
    expect((await putHistory(tok.alice, FIRST_WORK, stateOf(size))).status).toBe(200);
    expect((await putHistory(tok.bobby, FIRST_WORK + fit, stateOf(size))).status).toBe(200);
    // room made by deleting one
    expect((await t.json('DELETE', '/api/histroy', { token: tok.alice, body: { work_id: FIRST_WORK + 1 } })).status).toBe(200);
    expect((await putHistory(tok.alice, FIRST_WORK + fit, stateOf(size))).status).toBe(200);
    const total = await t.app.db.get<{ b: number }>('SELECT SUM(octet_length(state)) AS b FROM play_history WHERE user_id = ?', [await userId('alice')]);
    expect(total!.b).toBeLessThanOrEqual(USER_DATA_LIMITS.historyBytesPerUser);
  });

  it(`a review text over ${USER_DATA_LIMITS.reviewTextChars} characters is a 413 and not stored`, async () => {
    const long = await putReview(tok.alice, FIRST_WORK, 'あ'.repeat(USER_DATA_LIMITS.reviewTextChars + 1));
    expect(long.status).toBe(413);
    expect(long.body).toEqual({ error: USER_DATA_MSG.reviewTooLong, code: 'REVIEW_TOO_LONG', params: { chars: 20000 } });
    expect(await t.app.db.get('SELECT 1 FROM reviews WHERE work_id = ?', [FIRST_WORK])).toBeUndefined();
  });

  it(`a user's review texts together stop at ${USER_DATA_LIMITS.reviewTextBytesPerUser / 1024 / 1024} MB`, async () => {
    const text = 'あ'.repeat(USER_DATA_LIMITS.reviewTextChars); // 60,000 bytes
    const fit = Math.floor(USER_DATA_LIMITS.reviewTextBytesPerUser / Buffer.byteLength(text));
    for (let i = 0; i < fit; i++) expect((await putReview(tok.alice, FIRST_WORK + i, text)).status, `work ${i}`).toBe(200);
    const over = await putReview(tok.alice, FIRST_WORK + fit, text);
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ error: USER_DATA_MSG.reviewsFull, code: 'REVIEWS_FULL', params: { mb: 4 } });
    expect(await t.app.db.get('SELECT 1 FROM reviews WHERE work_id = ?', [FIRST_WORK + fit])).toBeUndefined();
    // ratings without text, edits of a stored text and another user's texts still go in
    expect((await t.json('PUT', '/api/review', { token: tok.alice, body: { work_id: FIRST_WORK + fit, rating: 5 } })).status).toBe(200);
    expect((await putReview(tok.alice, FIRST_WORK, text.slice(1))).status).toBe(200);
    expect((await putReview(tok.bobby, FIRST_WORK, text)).status).toBe(200);
  });

  it(`a user may have ${MAX_PENDING_TASKS_PER_USER} AI tasks waiting; the next is a 429, an admin's is not`, async () => {
    const create = (token: string, n: number) => t.json<{ id?: number; error?: string }>('PUT', `/api/lyric/translate/${AI_WORK}/${n}`, { token });
    for (let n = 0; n < MAX_PENDING_TASKS_PER_USER; n++) expect((await create(tok.alice, n)).status, `track ${n}`).toBe(200);
    const over = await create(tok.alice, MAX_PENDING_TASKS_PER_USER);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: AI_MSG.tooManyPending, code: 'AI_TASK_LIMIT', params: { max: 100 } });
    const count = await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM ai_tasks');
    expect(count!.n).toBe(MAX_PENDING_TASKS_PER_USER);
    // a task that leaves the queue (here: finished) makes room again; admins are not capped
    await t.app.db.run('UPDATE ai_tasks SET status = 3 WHERE id = (SELECT MIN(id) FROM ai_tasks)');
    expect((await create(tok.alice, MAX_PENDING_TASKS_PER_USER)).status).toBe(200);
    expect((await create(tok.admin, MAX_PENDING_TASKS_PER_USER + 1)).status).toBe(200);
  });
});
