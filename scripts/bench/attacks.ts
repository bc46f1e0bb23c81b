/**
 * Hostile-load bench (issue 18): the real server on loopback over the 100,000-work bench library
 * (run.ts's), and one attack after another, each for a bounded time, while an ordinary logged-in
 * client browses at a steady rate on a thread of its own. Prints per attack what the attack got
 * (requests sent, answers by status), the ordinary requests' p50/p99, the server's peak RSS (and its
 * RSS a few seconds after the attack stopped), and exits 1 when a target is missed: the server stays
 * up, RSS < 400 MB, ordinary p99 ≤ 50 ms (≤ 100 ms during the login flood), no ordinary request fails.
 *
 *   node --import tsx scripts/bench/attacks.ts [--duration 12] [--data-dir DIR] [--reuse] [--only name,name]
 *        [--sockets 3000] [--rate 40] [--tsx] [--no-compile]
 *
 * Attacks (every loop stops by itself at the deadline or a count; all traffic goes to 127.0.0.1):
 *   slow-bodies   `--sockets` connections each sending `POST /api/auth/me` with `Content-Length: 1048000`
 *                 and 1,000,000 bytes of it, then stalling;
 *   lyric-bomb    an AI task finished with `'[0:0]' * 60000 + 'a' * 650000` (and one 1.1 MB), an 8 MB and
 *                 a 950 KB bomb `.lrc` in work folders, then check-lrc / fetch-lrc on them, 4 at a time;
 *   costly-search 12 guests, 2 requests each at a time, keywords of short terms (4 one-character terms,
 *                 2-character ones, 31 one-character terms plus one that never matches);
 *   login-flood   300 parallel wrong logins, continuously (a known name and unknown ones);
 *   health-flood  calibration for it, no latency target: the same 300 loops on `GET /api/health`;
 *   storage-fill  one user writing history states of ~1 MB and of 200 KB over many works;
 *   conn-flood    `--sockets` connections that send nothing.
 * A first row without an attack shows what this machine gives right now. The attacker, the ordinary
 * client and the server share the machine's CPUs and the address 127.0.0.1 (limits per address apply
 * to both); read the rows against the calibration rows and the load average printed at the end.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { Database } from '../../server/db/connection.js';
import { DEFAULT_SYNTH } from './synth-library.js';
import { buildBenchData, type BenchData } from './build-db.js';
import { arg, BENCH_USER, ensureBenchUsers, flag, intArg, login, MB, prepareServer, RssProbe, startServer, stopProcess, type BenchUser } from './harness.js';
import type { OrdinaryOptions, Sample } from './ordinary-traffic.js';

const MAX_RSS_MB = 400;
const MAX_P99_MS = 50;
const MAX_P99_LOGIN_FLOOD_MS = 100;
const GUESTS: BenchUser[] = Array.from({ length: 12 }, (_, i) => ({ name: `benchguest${i + 1}`, password: 'guest-password', role: 'guest' }));
const FILLER: BenchUser = { name: 'benchfiller', password: 'filler-password', role: 'user' };
const FLOOD_VICTIM: BenchUser = { name: 'benchvictim', password: 'victim-password-not-guessed', role: 'user' };

/** What an attack got: requests (or connections) sent, answers by status or network outcome. */
class Tally {
  sent = 0;
  readonly outcomes = new Map<string, number>();
  notes: string[] = [];
  count(outcome: string | number): void {
    this.outcomes.set(String(outcome), (this.outcomes.get(String(outcome)) ?? 0) + 1);
  }
  text(): string {
    const parts = [...this.outcomes].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}×${v}`);
    return `${this.sent} sent: ${parts.join(' ') || 'no answer'}${this.notes.length ? ` (${this.notes.join('; ')})` : ''}`;
  }
}

interface Ctx {
  port: number;
  data: BenchData;
  token: string;
  guestTokens: string[];
  fillerToken: string;
  lyric: LyricTargets;
  deadline: number;
  sockets: number;
}

/** maxP99 null: a calibration row, reported without a latency target. */
type Attack = { name: string; maxP99: number | null; run: (ctx: Ctx) => Promise<Tally> };

const base = (ctx: Ctx) => `http://127.0.0.1:${ctx.port}`;
const left = (ctx: Ctx) => ctx.deadline - Date.now();
const errCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).name ?? 'error';

/** `workers` loops calling `once` until the deadline or `maxRequests` in all. */
async function loops(ctx: Ctx, workers: number, maxRequests: number, once: (i: number, t: Tally) => Promise<void>): Promise<Tally> {
  const t = new Tally();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (left(ctx) > 0 && t.sent < maxRequests) {
        t.sent++;
        try {
          await once(w, t);
        } catch (e) {
          t.count(errCode(e));
        }
      }
    }),
  );
  return t;
}

async function call(dispatcher: Agent | undefined, url: string, init: { method?: 'GET' | 'POST' | 'PUT'; token?: string; json?: unknown } = {}): Promise<{ status: number; body: string }> {
  const res = await request(url, {
    method: init.method ?? 'GET',
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
    ...(dispatcher ? { dispatcher } : {}),
  });
  return { status: res.statusCode, body: await res.body.text() };
}

// ---- 1. slow bodies / 6. connection flood ---------------------------------------------------------

/** Opens up to ctx.sockets connections (about 300 a second); `onConnect` decides what each sends. */
async function socketFlood(ctx: Ctx, onConnect: (s: net.Socket) => void): Promise<Tally> {
  const t = new Tally();
  const open = new Set<net.Socket>();
  let closedByServer = 0;
  let peakOpen = 0;
  while (left(ctx) > 0 && t.sent < ctx.sockets) {
    for (let k = 0; k < 30 && t.sent < ctx.sockets; k++) {
      t.sent++;
      const s = net.connect({ host: '127.0.0.1', port: ctx.port });
      let status: string | null = null;
      open.add(s);
      peakOpen = Math.max(peakOpen, open.size);
      s.on('connect', () => onConnect(s));
      s.on('data', (chunk: Buffer) => {
        if (status === null) {
          status = /^HTTP\/1\.[01] (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'garbage';
          t.count(status);
        }
      });
      s.on('error', (e) => {
        if (status === null) {
          status = errCode(e);
          t.count(status);
        }
      });
      s.on('close', () => {
        if (open.delete(s) && left(ctx) > 0) closedByServer++;
      });
    }
    await sleep(100);
  }
  await sleep(Math.max(0, left(ctx)));
  const stalled = [...open].length;
  for (const s of open) s.destroy();
  open.clear();
  t.notes.push(`peak ${peakOpen} open, ${stalled} still open unanswered or stalled at the end, ${closedByServer} closed by the server`);
  return t;
}

const SLOW_BODY = Buffer.alloc(64 * 1024, 0x61);

async function slowBodies(ctx: Ctx): Promise<Tally> {
  return socketFlood(ctx, (s) => {
    s.write(`POST /api/auth/me HTTP/1.1\r\nHost: 127.0.0.1:${ctx.port}\r\nContent-Type: application/json\r\nContent-Length: 1048000\r\n\r\n`);
    let sent = 0;
    const pump = () => {
      // 1,000,000 of the announced 1,048,000 bytes, as fast as the server takes them, then nothing
      while (sent < 1_000_000 && !s.destroyed) {
        const n = Math.min(SLOW_BODY.length, 1_000_000 - sent);
        sent += n;
        if (!s.write(SLOW_BODY.subarray(0, n))) {
          s.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

async function connFlood(ctx: Ctx): Promise<Tally> {
  return socketFlood(ctx, () => undefined);
}

// ---- 2. lyric bomb --------------------------------------------------------------------------------

interface LyricTargets {
  /** Work with an 8 MB bomb .lrc next to an audio file. */
  big: { workId: number; lrcN: number; audioN: number };
  /** Work with a 950 KB bomb .lrc (under the size cap: parsed, within the line and tag caps). */
  bomb: { workId: number; lrcN: number; audioN: number };
}

const BOMB = '[0:0]'.repeat(60_000) + 'a'.repeat(650_000);

/** Writes the bomb lyric files into two work folders the database lists a `.lrc` for. */
async function placeLyricBombs(data: BenchData): Promise<LyricTargets> {
  const db = await Database.open(path.join(data.dataDir, 'kikoplay.db'), { readers: 1, migrate: false });
  try {
    const rows = await db.all<{ id: number; dir: string; lrcN: number; lrcPath: string; audioN: number }>(
      `SELECT w.id, w.dir, l.n AS lrcN, l.path AS lrcPath, a.n AS audioN
         FROM files l JOIN works w ON w.id = l.work_id
         JOIN files a ON a.work_id = l.work_id AND a.path = substr(l.path, 1, length(l.path) - 4) || '.mp3'
        WHERE l.is_lyric = 1 AND l.path LIKE '%.lrc' AND w.missing = 0 AND w.root_folder = 'bench'
        ORDER BY w.id LIMIT 2`,
    );
    if (rows.length < 2) throw new Error('the bench library has no work with a .lrc beside an .mp3');
    const write = (row: (typeof rows)[number], text: string) => {
      const file = path.join(data.libraryDir, row.dir, row.lrcPath);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
    };
    // 8 MB: the bomb pattern repeated
    write(rows[0], ('[0:0]'.repeat(600_000) + 'a'.repeat(650_000) + '\n').repeat(2) + 'a'.repeat(8 * MB - 2 * (3_000_000 + 650_001)));
    write(rows[1], BOMB);
    const pick = (r: (typeof rows)[number]) => ({ workId: r.id, lrcN: r.lrcN, audioN: r.audioN });
    return { big: pick(rows[0]), bomb: pick(rows[1]) };
  } finally {
    await db.close();
  }
}

/** Creates (or re-queues) an AI task on a track with its audio on disk, acquires it and finishes it with `lrc`. */
async function finishAiTask(ctx: Ctx, hash: string, lrc: string, t: Tally): Promise<number | null> {
  const u = base(ctx);
  let created = await call(undefined, `${u}/api/lyric/translate/${hash}`, { method: 'PUT', token: ctx.token });
  let id: number | null = null;
  if (created.status === 200) id = (JSON.parse(created.body) as { id: number }).id;
  else {
    // a reused data dir holds the task of an earlier run: queue it again
    const m = /id=(\d+)/.exec(created.body);
    if (!m) throw new Error(`creating an AI task on ${hash}: ${created.status} ${created.body}`);
    id = Number(m[1]);
    created = await call(undefined, `${u}/api/lyric/translate/redo/${id}`, { method: 'POST', token: ctx.token, json: {} });
    if (created.status !== 200) throw new Error(`re-queueing AI task ${id}: ${created.status} ${created.body}`);
  }
  // acquire until this task comes up (older pending tasks, if any, are finished as errors)
  for (let k = 0; k < 200; k++) {
    const acq = await call(undefined, `${u}/api/lyric/translate/acquire`, { method: 'POST', token: ctx.token, json: { worker_name: 'bench-attacker' } });
    if (acq.status !== 200) throw new Error(`acquire: ${acq.status} ${acq.body}`);
    const task = JSON.parse(acq.body) as { id: number; secret: string };
    const mine = task.id === id;
    t.sent++;
    const fin = await call(undefined, `${u}/api/lyric/translate/finish`, { method: 'POST', token: ctx.token, json: { id: task.id, secret: task.secret, success: mine, lrc_content: mine ? lrc : '' } });
    if (mine) {
      t.count(`finish ${(lrc.length / 1e6).toFixed(2)} MB ${fin.status}`);
      return fin.status === 200 ? id : null;
    }
  }
  throw new Error(`AI task ${id} never came up`);
}

async function lyricBomb(ctx: Ctx): Promise<Tally> {
  const setup = new Tally();
  const [h0, h1] = ctx.data.streamHashes;
  const stored = await finishAiTask(ctx, h0, BOMB, setup);
  await finishAiTask(ctx, h1, '[0:0]'.repeat(60_000) + 'a'.repeat(800_000), setup);
  const { big, bomb } = ctx.lyric;
  const u = base(ctx);
  const targets = [
    `/api/media/check-lrc/${big.workId}/${big.audioN}`,
    `/api/media/fetch-lrc/${big.workId}/${big.lrcN}/0`,
    `/api/media/check-lrc/${bomb.workId}/${bomb.audioN}`,
    `/api/media/fetch-lrc/${bomb.workId}/${bomb.lrcN}/0`,
    ...(stored !== null ? [`/api/media/fetch-lrc/${h0.split('/')[0]}/${stored}/1`] : []),
  ];
  const names = ['check 8MB', 'fetch 8MB', 'check bomb', 'fetch bomb', 'fetch AI bomb'];
  let i = 0;
  const t = await loops(ctx, 4, 100_000, async (_w, tally) => {
    const k = i++ % targets.length;
    const r = await call(undefined, u + targets[k], { token: ctx.token });
    tally.count(`${names[k]} ${r.status}`);
  });
  t.sent += setup.sent;
  for (const [k, v] of setup.outcomes) t.outcomes.set(k, v);
  return t;
}

// ---- 3. costly searches ---------------------------------------------------------------------------

const SHORT = 'あいうえおかきくけこさしすせそ葵茜藍杏彩綾亜衣泉郁乙香楓佳桂華霞薫鏡京琴紗咲桜沙紫詩静雫朱珠純遥晴光瞳雛';

function shortKeyword(i: number): string {
  const ch = (k: number) => SHORT[(i * 7 + k * 13) % SHORT.length];
  switch (i % 4) {
    case 0: // 4 one-character terms
      return [0, 1, 2, 3].map(ch).join(' ');
    case 1: // 4 two-character terms
      return [0, 1, 2, 3].map((k) => ch(k) + ch(k + 5)).join(' ');
    case 2: // 31 one-character terms and one that never matches (the issue's keyword)
      return [...Array.from({ length: 31 }, (_, k) => ch(k)), 'ゞ'].join(' ');
    default: // 4 one-character terms, the last never matching
      return [ch(0), ch(1), ch(2), 'ゞ'].join(' ');
  }
}

async function costlySearch(ctx: Ctx): Promise<Tally> {
  const agent = new Agent({ connections: ctx.guestTokens.length * 2 });
  let i = 0;
  try {
    return await loops(ctx, ctx.guestTokens.length * 2, 1_000_000, async (w, t) => {
      const r = await call(agent, `${base(ctx)}/api/search?keyword=${encodeURIComponent(shortKeyword(i++))}`, { token: ctx.guestTokens[w % ctx.guestTokens.length] });
      t.count(r.status);
    });
  } finally {
    await agent.close();
  }
}

// ---- 4. login flood -------------------------------------------------------------------------------

async function loginFlood(ctx: Ctx): Promise<Tally> {
  const agent = new Agent({ connections: 300 });
  try {
    return await loops(ctx, 300, 1_000_000, async (w, t) => {
      const name = w % 2 === 0 ? FLOOD_VICTIM.name : `nobody${w}`;
      const r = await call(agent, `${base(ctx)}/api/auth/me`, { method: 'POST', json: { name, password: `wrong-${w}-${t.sent}` } });
      t.count(r.status);
    });
  } finally {
    await agent.close();
  }
}

/** Calibration for the login flood: the same 300 parallel loops on the cheapest route there is. */
async function healthFlood(ctx: Ctx): Promise<Tally> {
  const agent = new Agent({ connections: 300 });
  try {
    return await loops(ctx, 300, 1_000_000, async (_w, t) => {
      const r = await call(agent, `${base(ctx)}/api/health`);
      t.count(r.status);
    });
  } finally {
    await agent.close();
  }
}

// ---- 5. storage fill ------------------------------------------------------------------------------

async function storageFill(ctx: Ctx): Promise<Tally> {
  const works = ctx.data.workIds;
  const big = 'x'.repeat(1_000_000);
  const medium = 'x'.repeat(200_000);
  let i = 0;
  return loops(ctx, 4, 5_000, async (_w, t) => {
    const k = i++;
    const state = { queue: [k % 2 === 0 ? big : medium], index: 0, seconds: k };
    const r = await call(undefined, `${base(ctx)}/api/histroy`, { method: 'PUT', token: ctx.fillerToken, json: { work_id: works[k % works.length], state } });
    t.count(`${k % 2 === 0 ? '1MB' : '200KB'} ${r.status}`);
  });
}

/** No attack: the ordinary client alone, the calibration row (what this machine gives right now). */
async function idle(ctx: Ctx): Promise<Tally> {
  await sleep(Math.max(0, left(ctx)));
  return new Tally();
}

const ATTACKS: Attack[] = [
  { name: 'none (baseline)', maxP99: MAX_P99_MS, run: idle },
  { name: 'slow-bodies', maxP99: MAX_P99_MS, run: slowBodies },
  { name: 'lyric-bomb', maxP99: MAX_P99_MS, run: lyricBomb },
  { name: 'costly-search', maxP99: MAX_P99_MS, run: costlySearch },
  { name: 'login-flood', maxP99: MAX_P99_LOGIN_FLOOD_MS, run: loginFlood },
  { name: 'health-flood (calibration)', maxP99: null, run: healthFlood },
  { name: 'storage-fill', maxP99: MAX_P99_MS, run: storageFill },
  { name: 'conn-flood', maxP99: MAX_P99_MS, run: connFlood },
];

// ---- run ------------------------------------------------------------------------------------------

class Ordinary {
  private readonly worker: Worker;
  constructor(opts: OrdinaryOptions) {
    // a worker thread does not inherit the TypeScript loader: it registers it, then loads the client
    const url = JSON.stringify(new URL('./ordinary-traffic.ts', import.meta.url).href);
    this.worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${url}); })`, { eval: true, workerData: opts });
  }
  mark(): void {
    this.worker.postMessage({ type: 'mark' });
  }
  collect(): Promise<Sample[]> {
    return new Promise((resolve) => {
      this.worker.once('message', (m: { samples: Sample[] }) => resolve(m.samples));
      this.worker.postMessage({ type: 'collect' });
    });
  }
  async stop(): Promise<void> {
    this.worker.postMessage({ type: 'stop' });
    await new Promise((resolve) => this.worker.once('exit', resolve));
  }
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

interface RowResult {
  attack: Attack;
  tally: Tally;
  n: number;
  p50: number;
  p99: number;
  failed: number;
  rssMb: number;
  rssAfterMb: number;
  up: boolean;
  failures: string[];
}

function rssNow(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function healthy(port: number): Promise<boolean> {
  try {
    const r = await request(`http://127.0.0.1:${port}/api/health`, { headersTimeout: 5000, bodyTimeout: 5000 });
    await r.body.dump();
    return r.statusCode === 200;
  } catch {
    return false;
  }
}

function table(rows: RowResult[]): string {
  const head = ['attack', 'attack got', 'ordinary n', 'p50 ms', 'p99 ms', 'failed', 'peak RSS MB', 'RSS after MB', 'result'];
  const lines = rows.map((r) => [
    r.attack.name,
    r.tally.text(),
    String(r.n),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    String(r.failed),
    r.rssMb.toFixed(0),
    r.rssAfterMb.toFixed(0),
    r.failures.length ? `MISS: ${r.failures.join('; ')}` : r.attack.maxP99 === null ? 'ok (no latency target)' : `ok (p99≤${r.attack.maxP99})`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => (i <= 1 || i === 8 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [fmt(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

async function main(): Promise<number> {
  const duration = intArg('duration', 12);
  const rate = intArg('rate', 40);
  const fdLimit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim()) || 1024;
  const sockets = Math.min(intArg('sockets', 3000), fdLimit - 400);
  const dataDir = path.resolve(arg('data-dir') || path.join(os.tmpdir(), `kikoplay-bench-browse-${DEFAULT_SYNTH.works}`));
  const only = arg('only')
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

  process.stdout.write(`building ${DEFAULT_SYNTH.works.toLocaleString('en')} works in ${dataDir}${flag('reuse') ? ' (reusing when possible)' : ''} …\n`);
  const data = await buildBenchData(dataDir, DEFAULT_SYNTH, flag('reuse'));
  process.stdout.write(data.reused ? 'reused the existing data dir\n' : `built in ${data.buildSeconds.toFixed(1)} s\n`);
  await ensureBenchUsers(dataDir, [BENCH_USER, FILLER, FLOOD_VICTIM, ...GUESTS]);
  const lyric = await placeLyricBombs(data);

  const compiled = prepareServer(dataDir);
  const { child, port } = await startServer(dataDir, compiled, { stderr: 'pipe' });
  // the server's log (warn and above): counted per attack, the first lines of each kept
  const log = { lines: 0, first: [] as string[] };
  let partial = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    log.lines += lines.length;
    for (const l of lines) if (log.first.length < 2) log.first.push(l.length > 300 ? `${l.slice(0, 300)}…` : l);
  });
  let exited: string | null = null;
  (child as ChildProcess).once('exit', (code, signal) => (exited = `exited (${signal ?? code})`));
  const rss = new RssProbe(child.pid!);
  const results: RowResult[] = [];
  let shutdown: 'exited' | 'killed' = 'exited';
  /** Set when the server ended during the attacks (not by the final SIGTERM). */
  let crashed: string | null = null;
  // every login before the attacks (the login flood may lock this address's logins for a while)
  const token = await login(port, BENCH_USER.name, BENCH_USER.password);
  const fillerToken = await login(port, FILLER.name, FILLER.password);
  const guestTokens: string[] = [];
  for (const g of GUESTS) guestTokens.push(await login(port, g.name, g.password));
  const paths = data.workIds.slice(0, 60).flatMap((id, i) => [`/api/works?page=${1 + (i % 50)}&order=release&sort=desc`, `/api/work/${id}`, '/api/health']);
  const ordinary = new Ordinary({ port, token, paths, rate, connections: 4 });
  await sleep(2000); // warm-up, not measured
  try {
    for (const attack of ATTACKS.filter((a) => !only || only.some((o) => a.name.includes(o)))) {
      if (exited) break;
      process.stdout.write(`• ${attack.name} for ${duration} s …\n`);
      rss.start();
      ordinary.mark();
      log.lines = 0;
      log.first = [];
      const ctx: Ctx = { port, data, token, guestTokens, fillerToken, lyric, deadline: Date.now() + duration * 1000, sockets };
      let tally: Tally;
      try {
        tally = await attack.run(ctx);
      } catch (e) {
        tally = new Tally();
        tally.notes.push(`attack stopped: ${(e as Error).message}`);
      }
      const samples = await ordinary.collect();
      const rssMb = rss.stop() / MB;
      await sleep(3000); // memory comes back after the sockets close
      const rssAfterMb = rssNow(child.pid!);
      const up = !exited && (await healthy(port));
      const ok = samples
        .filter((s) => s.status === 200)
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      const all = samples.map((s) => s.ms).sort((a, b) => a - b);
      const failed = samples.length - ok.length;
      const p99 = pct(all, 99);
      const failures: string[] = [];
      if (!up) failures.push(`server down${exited ? `: ${exited}` : ''}`);
      if (rssMb >= MAX_RSS_MB) failures.push(`RSS ${rssMb.toFixed(0)} MB ≥ ${MAX_RSS_MB}`);
      if (attack.maxP99 !== null && !(p99 <= attack.maxP99)) failures.push(`p99 ${p99.toFixed(0)} ms > ${attack.maxP99}`);
      if (failed) failures.push(`${failed} ordinary request(s) failed`);
      // when the slow ordinary requests started: spread over the attack, or in one stretch of it
      const slow = samples.filter((x) => x.ms > (attack.maxP99 ?? MAX_P99_LOGIN_FLOOD_MS));
      if (slow.length) {
        const from = Math.min(...slow.map((x) => x.at)) / 1000;
        const to = Math.max(...slow.map((x) => x.at)) / 1000;
        tally.notes.push(`${slow.length} ordinary over ${attack.maxP99 ?? MAX_P99_LOGIN_FLOOD_MS} ms, started ${from.toFixed(1)}–${to.toFixed(1)} s into it`);
      }
      if (log.lines) tally.notes.push(`server logged ${log.lines} line(s) at warn or above`);
      results.push({ attack, tally, n: samples.length, p50: pct(all, 50), p99, failed, rssMb, rssAfterMb, up, failures });
      for (const l of log.first) process.stdout.write(`  server log: ${l}\n`);
      process.stdout.write(
        `  ${tally.text()}\n  ordinary p50 ${pct(all, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, peak RSS ${rssMb.toFixed(0)} MB${failures.length ? ` — MISS: ${failures.join('; ')}` : ''}\n`,
      );
    }
  } finally {
    await ordinary.stop();
    crashed = exited;
    shutdown = await stopProcess(child);
  }
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  process.stdout.write(
    `\n${DEFAULT_SYNTH.works.toLocaleString('en')} works, ${duration} s per attack, ordinary client ${rate} req/s on 4 keep-alive connections (works pages, work detail, health) on its own thread, ` +
      `up to ${sockets} sockets (ulimit -n ${fdLimit}), ${os.cpus().length} CPUs, node ${process.version}, server ${compiled ? 'compiled (tsc)' : 'tsx'}, load average at the end ${load}\n\n`,
  );
  process.stdout.write(table(results) + '\n');
  if (shutdown === 'killed') process.stdout.write('\nthe server did not exit within 10 s of SIGTERM (killed)\n');
  const missed = results.filter((r) => r.failures.length);
  process.stdout.write(missed.length || crashed ? `\n${missed.length} attack(s) missed a target${crashed ? `; the server ${crashed}` : ''}\n` : '\nall targets met\n');
  return missed.length || crashed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`attack bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  },
);
