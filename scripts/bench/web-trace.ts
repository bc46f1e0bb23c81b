/**
 * Chrome trace of the first /works load (fresh profile) or of a waterfall scroll, against the bench
 * library, for finding where the time goes. Writes the raw trace JSON and prints a summary of the
 * main thread: top-level tasks over 8 ms with their biggest event kinds, and (with a CPU profile) the
 * functions with the most self time.
 *
 *   node --import tsx scripts/bench/web-trace.ts [--scroll] [--out FILE] [--data-dir DIR] [--profile]
 *
 * Needs the bench library built (npm run bench:web once) and the app built.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiLogin, launchChromium, TOKEN_KEY } from '../../test/helpers/browser.js';
import { startCliServer } from '../../test/helpers/cli-server.js';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

async function main() {
  const dataDir = path.resolve(arg('data-dir') || path.join(os.tmpdir(), 'kikoplay-bench-browse-100000'));
  const out = arg('out') || path.join(os.tmpdir(), `kikoplay-trace-${flag('scroll') ? 'scroll' : 'load'}.json`);
  const server = await startCliServer({ dataDir, startTimeoutMs: 60_000 });
  const browser = await launchChromium();
  try {
    const token = await apiLogin(server.url, 'benchuser', 'bench-password');
    const open = async () => {
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
      await context.addInitScript(([key, value]) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
      return { context, page: await context.newPage() };
    };
    // warm the server
    {
      const { context, page } = await open();
      await page.goto('/works');
      await page.getByTestId('work-card').first().waitFor();
      await context.close();
    }
    const { context, page } = await open();
    const categories = ['devtools.timeline', 'v8.execute', 'blink', 'loading', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame'];
    if (flag('profile')) categories.push('disabled-by-default-v8.cpu_profiler');
    if (flag('scroll')) {
      await page.goto('/works');
      await page.getByTestId('work-card').first().waitFor();
      await page.waitForTimeout(1000);
      await browser.startTracing(page, { categories });
      await page.mouse.move(640, 400);
      const list = page.getByTestId('works-list');
      const target = Number(arg('works') ?? 200);
      const started = Date.now();
      while (Number(await list.getAttribute('data-loaded')) < target && Date.now() - started < 60_000) {
        await page.mouse.wheel(0, 600);
        await page.waitForTimeout(50);
      }
    } else if (flag('reload')) {
      await page.goto('/works');
      await page.getByTestId('work-card').first().waitFor();
      await page.waitForTimeout(1000);
      await browser.startTracing(page, { categories });
      await page.reload();
      await page.getByTestId('work-card').first().waitFor();
      await page.waitForTimeout(500);
    } else {
      await browser.startTracing(page, { categories });
      await page.goto('/works');
      await page.getByTestId('work-card').first().waitFor();
      await page.waitForTimeout(500);
    }
    const buf = await browser.stopTracing();
    writeFileSync(out, buf);
    await context.close();
    summarise(JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] } | TraceEvent[]);
    process.stdout.write(`trace: ${out}\n`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

function summarise(raw: { traceEvents: TraceEvent[] } | TraceEvent[]) {
  const events = Array.isArray(raw) ? raw : raw.traceEvents;
  // the renderer's main thread: the one with the most RunTask time among threads named CrRendererMain
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, String((e.args as { name?: string })?.name));
  const mains = [...names.entries()].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k);
  const busy = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name === 'RunTask' && e.ph === 'X' && mains.includes(key)) busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
  }
  const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!main) return;
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const nav = events.find((e) => e.name === 'navigationStart' || e.name === 'fetchStart')?.ts ?? mine[0].ts;
  const tasks = mine.filter((e) => e.name === 'RunTask');
  const kinds = [
    'EvaluateScript',
    'v8.compile',
    'v8.compileModule',
    'v8.evaluateModule',
    'FunctionCall',
    'TimerFire',
    'FireAnimationFrame',
    'Layout',
    'UpdateLayoutTree',
    'RecalculateStyles',
    'Paint',
    'PrePaint',
    'Layerize',
    'ParseHTML',
    'ParseAuthorStyleSheet',
    'MajorGC',
    'MinorGC',
    'V8.GC_SCAVENGER',
    'BlinkGC.AtomicPhase',
    'HitTest',
    'EventDispatch',
    'Decode Image',
    'ImageDecodeTask',
    'v8.run',
    'RunMicrotasks',
    'v8.callFunction',
    'ScrollLayer',
    'Commit',
  ];
  let total = 0;
  const totals = new Map<string, number>();
  process.stdout.write(`main thread tasks over 8 ms (ms since first event ${((mine[0].ts - nav) / 1000).toFixed(0)}):\n`);
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    total += task.dur ?? 0;
    const inside = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
    const byKind = new Map<string, number>();
    // count only the outermost event of each kind
    for (const kind of kinds) {
      let sum = 0;
      let coveredUntil = -1;
      for (const e of inside) {
        if (e.name !== kind) continue;
        if (e.ts < coveredUntil) continue;
        sum += e.dur ?? 0;
        coveredUntil = e.ts + (e.dur ?? 0);
      }
      if (sum) {
        byKind.set(kind, sum);
        totals.set(kind, (totals.get(kind) ?? 0) + sum);
      }
    }
    if ((task.dur ?? 0) < 8000) continue;
    const parts = [...byKind.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`);
    process.stdout.write(`  @${((task.ts - nav) / 1000).toFixed(0).padStart(6)} ${((task.dur ?? 0) / 1000).toFixed(1).padStart(6)} ms  ${parts.join(', ')}\n`);
  }
  process.stdout.write(
    `main thread busy ${(total / 1000).toFixed(0)} ms; by kind: ${[...totals.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
      .join(', ')}\n`,
  );
  // other threads' busy time (raster, decode, compositor)
  const other = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask')) continue;
    const key = `${e.pid}:${e.tid}`;
    if (key === main) continue;
    const n = names.get(key) ?? key;
    other.set(n, (other.get(n) ?? 0) + (e.dur ?? 0));
  }
  process.stdout.write(
    `other threads busy: ${[...other.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
      .join(', ')}\n`,
  );
  const kind = arg('in-kind');
  const spans = kind ? mine.filter((e) => e.name === kind && (e.dur ?? 0) >= Number(arg('min-ms') ?? 0) * 1000).map((e) => [e.ts, e.ts + (e.dur ?? 0)] as [number, number]) : undefined;
  if (spans) process.stdout.write(`${spans.length} ${kind} events, ${(spans.reduce((a, [s0, e0]) => a + e0 - s0, 0) / 1000).toFixed(0)} ms\n`);
  profileSummary(events, main, nav, spans);
}

/** Self and total time per function from the sampled CPU profile (ProfileChunk events), optionally in a window (ms). */
function profileSummary(events: TraceEvent[], main: string, origin: number, spans?: [number, number][]) {
  const pid = Number(main.split(':')[0]);
  const nodes = new Map<number, { name: string; url: string; line: number; parent?: number }>();
  const self = new Map<number, number>();
  const win = arg('window')?.split(',').map(Number);
  let chunks = 0;
  let t = events.find((e) => e.name === 'Profile' && e.pid === pid)?.ts ?? 0;
  const startTime = (events.find((e) => e.name === 'Profile' && e.pid === pid)?.args as { data?: { startTime?: number } })?.data?.startTime;
  if (startTime) t = startTime;
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== pid) continue;
    chunks++;
    const data = (
      e.args as {
        data?: { cpuProfile?: { nodes?: { id: number; parent?: number; callFrame: { functionName: string; url?: string; lineNumber?: number } }[]; samples?: number[] }; timeDeltas?: number[] };
      }
    )?.data;
    for (const n of data?.cpuProfile?.nodes ?? []) nodes.set(n.id, { name: n.callFrame.functionName || '(anon)', url: n.callFrame.url ?? '', line: n.callFrame.lineNumber ?? 0, parent: n.parent });
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      t += deltas[i] ?? 0;
      const at = (t - origin) / 1000;
      if (win && (at < win[0] || at > win[1])) continue;
      if (spans && !spans.some(([a, b]) => t >= a && t <= b)) continue;
      self.set(samples[i], (self.get(samples[i]) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
    }
  }
  if (!chunks) return;
  const key = (n: { name: string; url: string; line: number }) => `${n.name} ${n.url.split('/').pop()}:${n.line}`;
  const byFn = new Map<string, number>();
  const totalFn = new Map<string, number>();
  for (const [id, us] of self) {
    const n = nodes.get(id);
    if (!n) continue;
    byFn.set(key(n), (byFn.get(key(n)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: typeof n | undefined = n; cur; cur = cur.parent === undefined ? undefined : nodes.get(cur.parent)) {
      const k = key(cur);
      if (seen.has(k)) continue;
      seen.add(k);
      totalFn.set(k, (totalFn.get(k) ?? 0) + us);
    }
  }
  const top = Number(arg('top') ?? 40);
  process.stdout.write(`self time by function (ms)${win ? ` in ${win.join('–')} ms` : ''}:\n`);
  for (const [k, v] of [...byFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${(v / 1000).toFixed(1).padStart(7)}  ${k}\n`);
  process.stdout.write('total time by function (ms):\n');
  for (const [k, v] of [...totalFn.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${(v / 1000).toFixed(1).padStart(7)}  ${k}\n`);
}

const from = arg('from');
if (from) {
  summarise(JSON.parse(readFileSync(from, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[]);
} else {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
