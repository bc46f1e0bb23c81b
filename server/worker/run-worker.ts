import { Backoff, sleep } from './backoff.js';
import { isAbort, TransientError } from './errors.js';
import { stderrLog, type WorkerLog } from './log.js';
import type { WorkerOptions } from './options.js';
import { processTask, type TaskOutcome, type WorkerContext } from './process-task.js';
import { retrying } from './retry.js';
import { KikoplayClient } from './server-client.js';
import { WorkerState } from './state.js';
import { OpenAiEngine } from './engines/openai.js';
import type { TranscriptionEngine } from './engines/types.js';

export interface WorkerRun {
  success: number;
  failed: number;
  lost: number;
  /** Ctrl-C / SIGTERM ended the run (a task in progress was left to resume or to be re-leased). */
  stopped: boolean;
}

export function engineFor(opts: WorkerOptions): TranscriptionEngine {
  return new OpenAiEngine({ apiBase: opts.apiBase, apiKey: opts.apiKey, model: opts.model, language: opts.language });
}

/**
 * The worker loop: log in, resume the saved task, then acquire → process → repeat, polling every
 * `pollSeconds` while the queue is empty and backing off while the server is unreachable.
 * With `once` it handles at most one task (none if the queue is empty) and returns.
 */
export async function runWorker(opts: WorkerOptions, deps: { signal: AbortSignal; log?: WorkerLog; engine?: TranscriptionEngine }): Promise<WorkerRun> {
  const log = deps.log ?? stderrLog;
  const signal = deps.signal;
  const state = new WorkerState(opts.stateDir);
  const client = new KikoplayClient(opts.server, { token: opts.token, user: opts.user, password: opts.password }, state, signal, log);
  const retry = retrying(log, signal, opts.backoffMs);
  const ctx: WorkerContext = { opts, client, state, engine: deps.engine ?? engineFor(opts), log, retry, signal };
  const run: WorkerRun = { success: 0, failed: 0, lost: 0, stopped: false };
  const count = (o: TaskOutcome) => void run[o]++;

  try {
    await retry('connect', () => client.connect());
    log.info(`worker "${opts.name}" connected to ${opts.server}`);

    const saved = state.loadTask();
    if (saved && saved.server !== opts.server) {
      log.warn(`forgetting task ${saved.id} of another server (${saved.server})`);
      state.clearTask();
    } else if (saved) {
      log.info(`resuming task ${saved.id}`);
      count(await processTask(ctx, saved));
      if (opts.once) return run;
    }

    const backoff = new Backoff(opts.backoffMs, 60_000);
    let idleLogged = false;
    for (;;) {
      let task;
      try {
        task = await client.acquire(opts.name);
        backoff.reset();
      } catch (err) {
        if (!(err instanceof TransientError)) throw err;
        const delay = backoff.nextDelay();
        log.warn(`acquire: ${err.message}; retrying in ${(delay / 1000).toFixed(1)} s`);
        await sleep(delay, signal);
        continue;
      }
      if (!task) {
        if (opts.once) return run;
        if (!idleLogged) log.info(`queue empty; polling every ${opts.pollSeconds} s`);
        idleLogged = true;
        await sleep(opts.pollSeconds * 1000, signal);
        continue;
      }
      idleLogged = false;
      log.info(`acquired task ${task.id}`);
      count(await processTask(ctx, { server: opts.server, id: task.id, secret: task.secret, audio_ext: task.audio_ext }));
      if (opts.once) return run;
    }
  } catch (err) {
    if (isAbort(err) || signal.aborted) {
      run.stopped = true;
      return run;
    }
    throw err;
  }
}
