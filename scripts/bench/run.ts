/**
 * Browse benchmark (issue 4): builds a synthetic 100,000-work library through the project's own
 * database code, starts the real server on loopback in its own process, and runs autocannon
 * (10 connections, 10 s per row) against the list, search, label, detail, tracks and stream calls.
 * Rows that read a query or page rotate through ≥ 50 of them, so no single cached answer carries a
 * row. Prints req/s, p50, p99, non-2xx and the server's peak RSS per row, and exits 1 when a target
 * of the issue is missed.
 *
 *   node --import tsx scripts/bench/run.ts [--works 100000] [--duration 10] [--connections 10]
 *        [--data-dir DIR] [--reuse] [--only name,name] [--gzip] [--tsx] [--no-compile] [--memory] [--no-baseline]
 *        [--workers 2]
 *
 * `--reuse` keeps a data dir built by an earlier run with the same generator (saves the build);
 * `--gzip` sends `Accept-Encoding: gzip` like browsers (default: none, autocannon's default; JSON
 * pages are then compressed per request by the server's compression middleware);
 * `--tsx` runs the server from source through tsx instead of compiling it like the package does;
 * `--no-compile` reuses the server compiled by an earlier run.
 * `--workers N` runs autocannon on N worker threads (default 2; 1 = its main thread only).
 * `--memory` has the server print its memory breakdown after each row; `--no-baseline` skips the three
 * calibration rows (a bare node:http server on the same machine, showing its ceiling at that moment).
 * KIKOPLAY_* variables reach the server's config (e.g. KIKOPLAY_AUTH=false).
 */
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type RawRequest, type Result } from 'autocannon';
import { DEFAULT_SYNTH, VOCABULARY } from './synth-library.js';
import { buildBenchData, STREAM_FILE_BYTES, type BenchData } from './build-db.js';
import { arg, ensureBenchUser, flag, intArg, login, MB, prepareServer, ROOT, RssProbe, startProcess, startServer } from './harness.js';

type Kind = 'page' | 'search' | 'labels' | 'stream';

interface Row {
  name: string;
  kind: Kind;
  /** Requests the row cycles through. */
  requests: RawRequest[];
}

interface Target {
  minRps: number;
  maxP99: number | null;
}

const TARGETS: Record<Kind, Target> = {
  page: { minRps: 1000, maxP99: 50 },
  search: { minRps: 200, maxP99: 100 },
  labels: { minRps: 500, maxP99: null },
  stream: { minRps: 500, maxP99: null },
};
/**
 * The server's peak RSS over all rows: a leak guard, not a budget of its own (under hostile load the bound is
 * 400 MB, scripts/bench/attacks.ts). What it holds when every row has run: the V8 heap (about 130 MB: the per-version
 * caches of the web lists and the Subsonic views), SQLite's page caches once the rows have read enough of the
 * library to fill them (8 MB for each of the two readers and the costly-search connection, 16 MB for the
 * writer) and the sort buffers of the whole-library orders. The Subsonic rows read orders no web row reads,
 * which took the peak from about 236 MB to about 280 MB.
 */
const MAX_RSS_MB = 300;

function rows(data: BenchData, apiKey: string): Row[] {
  const get = (p: string, headers: Record<string, string> = {}): RawRequest => ({ method: 'GET', path: p, headers });
  const q = (s: string) => encodeURIComponent(s);
  const take = <T>(list: T[], n: number) => list.slice(0, n);
  const common = VOCABULARY.slice(0, 50);
  const adv = take(data.tagVaPairs, 60).map(([tag, va]) =>
    q(
      JSON.stringify([
        { t: 3, d: tag },
        { t: 2, d: va },
      ]),
    ),
  );
  // the orders the mobile apps send (issue 19), each in both directions
  const appOrders = ['create_date', 'updated_at', 'nsfw'].flatMap((o) => [`order=${o}&sort=desc`, `order=${o}&sort=asc`]);
  const rotate = <T>(list: T[], n: number, fn: (item: T, order: string, i: number) => string) =>
    Array.from({ length: n }, (_, i) => get(fn(list[i % list.length], appOrders[i % appOrders.length], i)));
  return [
    { name: 'works page 1 by release', kind: 'page', requests: [get('/api/works?page=1&order=release&sort=desc')] },
    { name: 'works page 5000+ by dl_count', kind: 'page', requests: Array.from({ length: 50 }, (_, i) => get(`/api/works?page=${4975 + i}&order=dl_count&sort=desc`)) },
    { name: 'tag works page 1', kind: 'page', requests: take(data.tagIds, 50).map((id) => get(`/api/tags/${id}/works?page=1`)) },
    { name: 'works pages 1-9 by app orders', kind: 'page', requests: rotate(appOrders, 54, (order, _o, i) => `/api/works?page=${1 + Math.floor(i / 6)}&${order}`) },
    { name: 'works page 5000+ by app orders', kind: 'page', requests: rotate(appOrders, 54, (order, _o, i) => `/api/works?page=${4975 + i}&${order}`) },
    {
      name: 'label works page 1 by app orders',
      kind: 'page',
      requests: [
        ...rotate(take(data.tagIds, 18), 18, (id, order) => `/api/tags/${id}/works?page=1&${order}`),
        ...rotate(take(data.vaIds, 18), 18, (id, order) => `/api/vas/${id}/works?page=1&${order}`),
        ...rotate(take(data.circleIds, 18), 18, (id, order) => `/api/circles/${id}/works?page=1&${order}`),
      ],
    },
    { name: 'search common word', kind: 'search', requests: common.map((w) => get(`/api/search?keyword=${q(w)}`)) },
    { name: 'search common word by app orders', kind: 'search', requests: rotate(common, 54, (w, order) => `/api/search?keyword=${q(w)}&${order}`) },
    { name: 'search rare 3-char CJK', kind: 'search', requests: take(data.rareStrings, 60).map((s) => get(`/api/search?keyword=${q(s)}`)) },
    { name: 'advanced tag + va', kind: 'search', requests: adv.map((k) => get(`/api/search?isAdvance=1&keyword=${k}`)) },
    { name: 'tags list', kind: 'labels', requests: [get('/api/tags')] },
    { name: 'vas list', kind: 'labels', requests: [get('/api/vas')] },
    { name: 'work detail', kind: 'page', requests: take(data.workIds, 60).map((id) => get(`/api/work/${id}`)) },
    { name: 'tracks', kind: 'page', requests: take(data.workIds, 60).map((id) => get(`/api/tracks/${id}`)) },
    // the Subsonic API (issue 25): native apps page through album lists and search like the web app
    {
      name: 'subsonic album lists (newest, by name)',
      kind: 'page',
      requests: Array.from({ length: 60 }, (_, i) => get(`/rest/getAlbumList2?apiKey=${apiKey}&f=json&type=${i % 2 ? 'alphabeticalByName' : 'newest'}&size=50&offset=${Math.floor(i / 2) * 50}`)),
    },
    { name: 'subsonic search3 common word', kind: 'search', requests: common.map((w) => get(`/rest/search3?apiKey=${apiKey}&f=json&query=${q(w)}&songCount=20`)) },
    {
      name: 'stream 1 MB range',
      kind: 'stream',
      requests: data.streamHashes.flatMap((h) => Array.from({ length: STREAM_FILE_BYTES / MB }, (_, k) => get(`/api/media/stream/${h}`, { Range: `bytes=${k * MB}-${(k + 1) * MB - 1}` }))),
    },
  ];
}

// ---- run ------------------------------------------------------------------------------------------

/** A Subsonic API key for the bench user (made through the account route; a new name each run). */
async function subsonicKey(port: number, token: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/me/subsonic/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: `bench-${Date.now()}` }),
  });
  if (res.status !== 201) throw new Error(`could not make a Subsonic API key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

interface RowResult {
  row: Row;
  result: Result;
  rssMb: number;
  /** Server CPU (all threads) per answered request, ms: less sensitive to other load than req/s. */
  cpuPerRequest: number;
  failures: string[];
}

async function runRow(row: Row, port: number, token: string, opts: { duration: number; connections: number; gzip: boolean; workers: number }, rss: RssProbe): Promise<RowResult> {
  const base: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (opts.gzip) base['Accept-Encoding'] = 'gzip';
  rss.start();
  const cpuBefore = rss.cpuMs();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: opts.connections,
    duration: opts.duration,
    timeout: 10,
    // each connection cycles through the row's requests (plain data, so worker threads can take them)
    requests: row.requests.map((r) => ({ method: r.method, path: r.path, headers: { ...base, ...(r.headers ?? {}) } })),
    ...(opts.workers > 1 ? { workers: opts.workers } : {}),
  });
  const rssMb = rss.stop() / MB;
  const cpuPerRequest = (rss.cpuMs() - cpuBefore) / Math.max(result.requests.total, 1);
  const target = TARGETS[row.kind];
  const failures: string[] = [];
  if (result.requests.average < target.minRps) failures.push(`${result.requests.average.toFixed(0)} req/s < ${target.minRps}`);
  if (target.maxP99 !== null && result.latency.p99 > target.maxP99) failures.push(`p99 ${result.latency.p99} ms > ${target.maxP99}`);
  if (result.non2xx > 0) failures.push(`${result.non2xx} non-2xx`);
  if (result.errors > 0 || result.timeouts > 0) failures.push(`${result.errors} errors, ${result.timeouts} timeouts`);
  if (rssMb > MAX_RSS_MB) failures.push(`RSS ${rssMb.toFixed(0)} MB > ${MAX_RSS_MB}`);
  return { row, result, rssMb, cpuPerRequest, failures };
}

function table(results: RowResult[]): string {
  const head = ['row', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'peak RSS MB', 'CPU ms/req', 'target', 'result'];
  const lines = results.map(({ row, result, rssMb, cpuPerRequest, failures }) => {
    const t = TARGETS[row.kind];
    return [
      row.name,
      result.requests.average.toFixed(0),
      String(result.latency.p50),
      String(result.latency.p99),
      String(result.non2xx + result.errors + result.timeouts),
      rssMb.toFixed(0),
      cpuPerRequest.toFixed(2),
      `≥${t.minRps}/s${t.maxP99 !== null ? `, p99≤${t.maxP99}` : ''}`,
      failures.length ? `MISS: ${failures.join('; ')}` : 'ok',
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 || i >= 7 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [fmt(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

async function main(): Promise<number> {
  const works = intArg('works', DEFAULT_SYNTH.works);
  const duration = intArg('duration', 10);
  const connections = intArg('connections', 10);
  const dataDir = path.resolve(arg('data-dir') || path.join(os.tmpdir(), `kikoplay-bench-browse-${works}`));
  const only = arg('only')
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const gzip = flag('gzip');
  // autocannon appends every response body to a string on its one thread: for large bodies (the
  // voice-actor list, 1 MB ranges) that, not the server, is the limit, so it runs on worker threads
  // (which take CPU from the server in the other rows: the conservative side)
  const workers = intArg('workers', 2);

  process.stdout.write(`building ${works.toLocaleString('en')} works in ${dataDir}${flag('reuse') ? ' (reusing when possible)' : ''} …\n`);
  const data = await buildBenchData(dataDir, { ...DEFAULT_SYNTH, works }, flag('reuse'));
  process.stdout.write(data.reused ? 'reused the existing data dir\n' : `built in ${data.buildSeconds.toFixed(1)} s\n`);
  const user = await ensureBenchUser(dataDir);

  const compiled = prepareServer(dataDir);
  const { child, port } = await startServer(dataDir, compiled);
  const rss = new RssProbe(child.pid!);
  const results: RowResult[] = [];
  const baseline: { name: string; result: Result }[] = [];
  const token = await login(port, user.name, user.password);
  const apiKey = await subsonicKey(port, token);
  if (!flag('no-baseline')) {
    // the machine's ceiling right now: a bare node:http server, same load generator; one row sends
    // the very body of the voice-actor list (large JSON text, which the load generator must decode)
    const vasBody = path.join(dataDir, 'vas-body.json');
    const vasRes = await fetch(`http://127.0.0.1:${port}/api/vas`, { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'identity' } });
    writeFileSync(vasBody, Buffer.from(await vasRes.arrayBuffer()));
    const bare = await startProcess(['--import', 'tsx', path.join(ROOT, 'scripts/bench/baseline-server.ts'), data.streamFiles[0], vasBody]);
    try {
      for (const [name, p, headers] of [
        ['bare node:http, small JSON', '/json', {}],
        ['bare node:http, 1 MB buffer', '/1mb', { Range: 'bytes=0-1048575' }],
        ['bare node:http, 1 MB range read from a file', '/file', { Range: 'bytes=0-1048575' }],
        ['bare node:http, the vas list body', '/body', {}],
      ] as const) {
        process.stdout.write(`• baseline: ${name} …\n`);
        const rotate = p === '/file' ? Array.from({ length: 16 }, (_, k) => ({ method: 'GET' as const, path: `/file?k=${k}`, headers })) : undefined;
        baseline.push({ name, result: await autocannon({ url: `http://127.0.0.1:${bare.port}${p}`, connections, duration, headers, requests: rotate, ...(workers > 1 ? { workers } : {}) }) });
      }
    } finally {
      bare.child.kill('SIGTERM');
    }
  }
  try {
    const selected = rows(data, apiKey).filter((r) => !only || only.some((o) => r.name.toLowerCase().includes(o)));
    for (const row of selected) {
      process.stdout.write(`• ${row.name} (${row.requests.length} distinct request${row.requests.length > 1 ? 's' : ''}) …\n`);
      results.push(await runRow(row, port, token, { duration, connections, gzip, workers }, rss));
      if (flag('memory')) {
        child.kill('SIGUSR2');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    child.kill('SIGTERM');
  }

  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  process.stdout.write(
    `\n${works.toLocaleString('en')} works, ${connections} connections, ${duration} s per row, autocannon on ${workers > 1 ? `${workers} worker threads` : 'its main thread'}, ${os.cpus().length} CPUs, node ${process.version}, ` +
      `Accept-Encoding: ${gzip ? 'gzip' : 'identity'}, auth ${process.env.KIKOPLAY_AUTH === 'false' ? 'off' : 'on'}, ` +
      `server ${compiled ? 'compiled (tsc)' : 'tsx'}, load average at the end ${load} (other processes share the CPUs)\n\n`,
  );
  process.stdout.write(table(results) + '\n');
  if (baseline.length) {
    process.stdout.write('\nceiling of this machine at the same time (not kikoplay; no target):\n');
    for (const b of baseline) process.stdout.write(`  ${b.name}: ${b.result.requests.average.toFixed(0)} req/s, p50 ${b.result.latency.p50} ms, p99 ${b.result.latency.p99} ms\n`);
  }
  const missed = results.filter((r) => r.failures.length);
  process.stdout.write(missed.length ? `\n${missed.length} row(s) missed their target\n` : '\nall targets met\n');
  if (existsSync(dataDir) && !flag('reuse')) process.stdout.write(`(data dir kept at ${dataDir}; pass --reuse to skip the build next time)\n`);
  return missed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  },
);
