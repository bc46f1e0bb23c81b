/**
 * The benchmark's server process: the real kikoplay app (createAppContext + the Koa server) on a
 * loopback port, over a prepared data dir. Prints `LISTENING <port>` when ready; stops on SIGTERM.
 *
 *   node --import tsx scripts/bench/server.ts <data-dir>
 */
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import { startHttpServer } from '../../server/http/server.js';

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('usage: server.ts <data-dir>\n');
  process.exit(2);
}

// KIKOPLAY_* variables reach the config (e.g. KIKOPLAY_AUTH=false to measure without token checks)
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('KIKOPLAY_')));
const app = await createAppContext({ dataDir, env, logger: createLogger({ level: 'warn' }) });
const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${server.port}\n`);

const stop = async () => {
  await server.close();
  await app.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
// memory breakdown on demand (diagnostics: kill -USR2 <pid>)
process.on('SIGUSR2', () => {
  const before = process.memoryUsage().rss;
  // with BENCH_NODE_FLAGS=--expose-gc, also show the live heap after a full collection
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
  const m = process.memoryUsage();
  if (gc) process.stderr.write(`(rss before a full GC: ${(before / 1048576).toFixed(1)} MB)\n`);
  const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
  process.stderr.write(`memory: rss ${mb(m.rss)}, heap ${mb(m.heapUsed)}/${mb(m.heapTotal)}, external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)}\n`);
});
