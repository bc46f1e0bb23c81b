/**
 * The attack bench's ordinary client, on a worker thread of its own (so the attacks' work on the main
 * thread does not delay its clock): a logged-in user browsing at a steady, modest rate over a few
 * keep-alive connections — works pages, a work's detail, the health check — timing every request.
 *
 * Messages from the parent: `{ type: 'mark' }` starts a new window; `{ type: 'collect' }` answers
 * `{ type: 'window', samples }` with the window's requests; `{ type: 'stop' }` ends the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

export interface OrdinaryOptions {
  port: number;
  token: string;
  paths: string[];
  /** Requests per second, all connections together. */
  rate: number;
  connections: number;
}

/** One ordinary request: its latency (ms), status (0 = no answer: a network error or a timeout) and start (ms after the mark). */
export interface Sample {
  ms: number;
  status: number;
  at: number;
}

const opts = workerData as OrdinaryOptions;
const pool = new Pool(`http://127.0.0.1:${opts.port}`, { connections: opts.connections, pipelining: 1, keepAliveTimeout: 60_000 });
let window: Sample[] = [];
let markedAt = performance.now();
let running = true;
let next = 0;

async function loop(): Promise<void> {
  const interval = (1000 * opts.connections) / opts.rate;
  while (running) {
    const p = opts.paths[next++ % opts.paths.length];
    const t0 = performance.now();
    let status = 0;
    try {
      const res = await pool.request({
        method: 'GET',
        path: p,
        headers: { authorization: `Bearer ${opts.token}` },
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      await res.body.dump();
      status = res.statusCode;
    } catch {
      status = 0;
    }
    const ms = performance.now() - t0;
    window.push({ ms, status, at: t0 - markedAt });
    await sleep(Math.max(0, interval - ms));
  }
}

const loops = Array.from({ length: opts.connections }, () => loop());

parentPort!.on('message', (msg: { type: string }) => {
  if (msg.type === 'mark') {
    window = [];
    markedAt = performance.now();
  } else if (msg.type === 'collect') parentPort!.postMessage({ type: 'window', samples: window });
  else if (msg.type === 'stop') {
    running = false;
    void Promise.all(loops)
      .then(() => pool.close())
      .then(() => process.exit(0));
  }
});
