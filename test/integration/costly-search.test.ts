/**
 * Searches whose cost a client controls are bounded: few short terms, costly ones one at a time on a
 * connection of their own, interrupted past a time limit, and a user cannot queue many.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database, QueryTimeoutError } from '../../server/db/connection.js';
import { CostlySearchGate, isCostlySearch } from '../../server/services/works/costly-search-gate.js';
import { filterFromKeyword, MAX_SHORT_TERMS } from '../../server/contract/works-query.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { isAppError } from '../../server/domain/errors.js';

/** A read that runs until interrupted (counts far past anything a test waits for). */
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1e12) SELECT count(*) AS n FROM c';

describe('costly reads', () => {
  let db: Database;
  beforeAll(async () => {
    db = await Database.open(path.join(tempDir('kikoplay-costly-'), 'k.db'));
  });
  afterAll(() => db.close());

  it('are interrupted past their time limit while ordinary reads keep being answered', { timeout: 60_000 }, async () => {
    const costly = db.costly(300, () => db.get(ENDLESS));
    // ordinary reads go to the other readers meanwhile
    const answered: number[] = [];
    for (let i = 0; i < 5; i++) answered.push((await db.get<{ one: number }>('SELECT 1 AS one'))!.one);
    expect(answered).toEqual([1, 1, 1, 1, 1]);
    await expect(costly).rejects.toBeInstanceOf(QueryTimeoutError);
    // the connection is usable again afterwards
    expect(await db.costly(5_000, () => db.get<{ n: number }>('SELECT 2 AS n'))).toEqual({ n: 2 });
  });

  it('run one at a time, each with its own time limit counted from its turn', { timeout: 60_000 }, async () => {
    const order: string[] = [];
    const a = db.costly(200, async () => {
      order.push('a start');
      await db.get(ENDLESS).catch(() => undefined);
      order.push('a end');
    });
    const b = db.costly(5_000, async () => {
      const row = await db.get<{ n: number }>('SELECT 3 AS n');
      order.push('b read');
      return row;
    });
    await expect(a).rejects.toBeInstanceOf(QueryTimeoutError);
    expect(await b).toEqual({ n: 3 });
    // b's read waited for a's turn to end; a's 200 ms were not spent on b's clock (b's limit is 5 s anyway)
    expect(order).toEqual(['a start', 'a end', 'b read']);
  });

  it('through the gate: a user may queue two, the third is a 429; a timed-out search is a 400 that says how to narrow it; cached answers pass', { timeout: 60_000 }, async () => {
    const gate = new CostlySearchGate(db, { timeoutMs: 300, perUser: 2, total: 12, waitMs: 60_000 });
    const first = gate.run('user:1', () => db.get(ENDLESS));
    const second = gate.run('user:1', () => db.get(ENDLESS));
    const third = gate.run('user:1', () => db.get('SELECT 1'));
    await expect(third).rejects.toMatchObject({ status: 429 });
    // another user is not refused for it
    const other = gate.run('user:2', () => db.get<{ n: number }>('SELECT 4 AS n'));
    for (const p of [first, second]) {
      const err = await p.catch((e: unknown) => e);
      expect(isAppError(err) && err.status).toBe(400);
      expect((err as Error).message).toMatch(/至少 3 个字符/);
    }
    expect(await other).toEqual({ n: 4 });
    // the counts are given back
    expect(await gate.run('user:1', () => db.get<{ n: number }>('SELECT 5 AS n'))).toEqual({ n: 5 });
    // a search answered without reading the database (from the caches) is neither queued nor counted
    const busy = [gate.run('user:3', () => db.get(ENDLESS)), gate.run('user:3', () => db.get(ENDLESS))];
    expect(await gate.run('user:3', async () => 'cached')).toBe('cached');
    await Promise.allSettled(busy);
  });

  it('a search whose turn does not come within the wait is a 429, and the line behind it moves on', { timeout: 60_000 }, async () => {
    const gate = new CostlySearchGate(db, { timeoutMs: 300, perUser: 10, total: 12, waitMs: 450 });
    const outcome = (p: Promise<unknown>) =>
      p.then(
        (v) => ({ value: v }),
        (e: unknown) => ({ status: isAppError(e) ? e.status : 0, message: (e as Error).message }),
      );
    // a runs 0–300 ms, b waits for it and runs 300–600 ms; c's turn would come at 600 ms: past its 450,
    // and d, in line behind c, waits for b, not for c's place: refused too
    const [a, b, c, d] = await Promise.all([
      outcome(gate.run('user:1', () => db.get(ENDLESS))),
      outcome(gate.run('user:2', () => db.get(ENDLESS))),
      outcome(gate.run('user:3', () => db.get('SELECT 6 AS n'))),
      outcome(gate.run('user:4', () => db.get('SELECT 7 AS n'))),
    ]);
    expect([a, b].map((o) => 'status' in o && o.status)).toEqual([400, 400]);
    expect(c).toEqual({ status: 429, message: '搜索请求过多，请稍后再试' });
    expect(d).toEqual({ status: 429, message: '搜索请求过多，请稍后再试' });
    // once the line cleared, a search runs at once
    expect(await gate.run('user:3', () => db.get<{ n: number }>('SELECT 8 AS n'))).toEqual({ n: 8 });
  });

  it('only searches of short terms with nothing narrowing them are costly', () => {
    const base = { nsfw: 0 as const, lyric: null };
    expect(isCostlySearch(filterFromKeyword('耳 か', base))).toBe(true);
    expect(isCostlySearch(filterFromKeyword('耳 かき音', base))).toBe(false);
    expect(isCostlySearch(filterFromKeyword('RJ123456', base))).toBe(false);
  });
});

describe('search terms over HTTP', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer();
    await t.addUser('guest1', 'password1', 'guest');
    token = await t.login('guest1', 'password1');
  });
  afterAll(() => t.close());

  it(`allows ${MAX_SHORT_TERMS} terms under 3 characters and refuses more with a 400 that says why`, async () => {
    const ok = await t.json('GET', `/api/search?keyword=${encodeURIComponent('あ い う え')}`, { token });
    expect(ok.status).toBe(200);
    const tooMany = 'あ い う え お か き く け こ さ し す せ そ た ち つ て と な に ぬ ね の は ひ ふ へ ほ ま zzzzqqqq';
    for (const url of [`/api/search?keyword=${encodeURIComponent(tooMany)}`, `/api/search/${encodeURIComponent(tooMany)}`]) {
      const res = await t.json<{ error: string }>('GET', url, { token });
      expect(res.status, `${url} ${JSON.stringify(res.body).slice(0, 300)}`).toBe(400);
      expect(res.body.error).toMatch(/少于 3 个字符的词最多 4 个/);
    }
    const advanced = JSON.stringify(['あ', 'い', 'う', 'え', 'お'].map((d) => ({ t: 1, d })));
    const adv = await t.json<{ error: string }>('GET', `/api/search?isAdvance=1&keyword=${encodeURIComponent(advanced)}`, { token });
    expect(adv.status).toBe(400);
  });
});
