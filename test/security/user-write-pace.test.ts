/**
 * Issue 18 item 6 (storage a user can fill), the rate side: what one user has the server store (play
 * states, reviews) is paced per user — a burst, then a steady rate; a write over it waits its turn, and
 * one that would wait too long is refused with 429 after waiting, nothing stored. Other users are not
 * held up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/app.js';
import { WRITE_PACE_MESSAGE } from '../../server/http/write-pace.js';

const KB = 1024;
const WORKS = [810001, 810002, 810003, 810004];

/** A play state whose JSON is about `bytes` long. */
const stateOf = (bytes: number) => ({ queue: [{ title: 'x'.repeat(bytes) }], index: 0, seconds: 0 });

async function serverWith(maxWaitMs: number, bytesPerSecond = 64 * KB): Promise<{ t: TestServer; alice: string; bobby: string }> {
  // 64 KB a second (unless told) after a 256 KB burst
  const t = await startTestServer({ limits: { userWriteBytesPerSecond: bytesPerSecond, userWriteBurstBytes: 256 * KB, userWriteMaxWaitMs: maxWaitMs } });
  for (const id of WORKS) await t.app.db.run("INSERT INTO works (id, code, title, root_folder, dir) VALUES (?, ?, ?, 'lib', ?)", [id, `RJ${id}`, `作品 ${id}`, `RJ${id}`]);
  await t.addUser('alice', 'alicepass', 'user');
  await t.addUser('bobby', 'bobbypass', 'user');
  return { t, alice: await t.login('alice', 'alicepass'), bobby: await t.login('bobby', 'bobbypass') };
}

describe('per-user write pace', () => {
  let s: Awaited<ReturnType<typeof serverWith>>;
  let paced: Awaited<ReturnType<typeof serverWith>>;
  let slow: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    s = await serverWith(1000);
    paced = await serverWith(3000);
    slow = await serverWith(5000, 16 * KB);
  });
  afterAll(async () => {
    await s?.t.close();
    await paced?.t.close();
    await slow?.t.close();
  });

  const put = (t: TestServer, token: string, workId: number, bytes: number) =>
    t
      .request('PUT', '/api/histroy', { token, body: { work_id: workId, state: stateOf(bytes) } })
      .then(async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { error?: string }, at: performance.now() }));

  it('past the burst, a write that would wait longer than allowed is refused with 429 and not stored; another user is not held up', async () => {
    const { t, alice, bobby } = slow;
    // 3 × 120 KB at once: two fit the 256 KB burst, the third would wait ~6.5 s at 16 KB/s (more than the
    // 5 s allowed), so it is refused after 5 s: time enough for bob's answer even on a busy machine
    const alices = Promise.all(WORKS.slice(0, 3).map((id) => put(t, alice, id, 120 * KB)));
    const bob = await put(t, bobby, WORKS[3], 120 * KB);
    const results = await alices;
    expect(bob.status).toBe(200);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ error: WRITE_PACE_MESSAGE, code: 'WRITE_PACE' });
    expect(refused.retryAfter).toMatch(/^[1-9]\d*$/);
    // bob's write was answered before alice's refusal (which waited its 5 s first)
    expect(bob.at).toBeLessThan(refused.at);
    const stored = await t.app.db.all<{ work_id: number }>('SELECT work_id FROM play_history WHERE user_id = (SELECT id FROM users WHERE name = ?)', ['alice']);
    expect(stored).toHaveLength(2);
  });

  it('a write within the allowed wait waits its turn and is stored', async () => {
    const { t, alice } = paced;
    const began = performance.now();
    const results = await Promise.all(WORKS.slice(0, 3).map((id) => put(t, alice, id, 120 * KB)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    // the third went ahead only after its turn: (360 − 256) KB at 64 KB/s ≈ 1.6 s
    expect(Math.max(...results.map((r) => r.at)) - began).toBeGreaterThanOrEqual(1400);
    expect(await t.app.db.all('SELECT 1 FROM play_history')).toHaveLength(3);
  });

  it('reviews count against the same pace', async () => {
    const { t, bobby } = s;
    // 8 long reviews of ~56 KB at once: past the 256 KB burst, the last ones would wait more than 1 s
    const review = (id: number) => t.request('PUT', '/api/review?starOnly=false', { token: bobby, body: { work_id: id, rating: 4, review_text: '好'.repeat(19_000) } }).then((r) => r.status);
    const statuses = await Promise.all([...WORKS, ...WORKS].map(review));
    expect(statuses).toContain(429);
  });
});
