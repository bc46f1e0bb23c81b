import { Backoff, sleep } from './backoff.js';
import { FatalWorkerError, isAbort, TaskFailedError, TransientError } from './errors.js';
import { stderrLog, type WorkerLog } from './log.js';
import { WORKER_TEXT, type WorkerText } from './messages.js';
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

/**
 * With `once` (a cron job, a script), how many times the server is tried before the worker gives up
 * (about 7 s of backoff at the default 1 s base); without it the worker keeps trying.
 */
export const ONCE_SERVER_ATTEMPTS = 4;

export function engineFor(opts: WorkerOptions, text: WorkerText = WORKER_TEXT): TranscriptionEngine {
  return new OpenAiEngine({ apiBase: opts.apiBase, apiKey: opts.apiKey, model: opts.model, language: opts.language, text });
}

/**
 * The worker loop: log in, resume the saved task, then acquire → process → repeat, polling every
 * `pollSeconds` while the queue is empty and backing off while the server is unreachable.
 * With `once` it handles at most one task (none if the queue is empty) and returns, and gives up after
 * ONCE_SERVER_ATTEMPTS tries while the server is unreachable (a FatalWorkerError). Its log lines and
 * errors are said in `deps.text` (the terminal's language; English by default).
 */
export async function runWorker(opts: WorkerOptions, deps: { signal: AbortSignal; log?: WorkerLog; engine?: TranscriptionEngine; text?: WorkerText }): Promise<WorkerRun> {
  const log = deps.log ?? stderrLog;
  const text = deps.text ?? WORKER_TEXT;
  const signal = deps.signal;
  const state = new WorkerState(opts.stateDir);
  const client = new KikoplayClient(opts.server, { token: opts.token, user: opts.user, password: opts.password }, state, signal, log, text);
  const retry = retrying(log, signal, opts.backoffMs, text);
  const ctx: WorkerContext = { opts, client, state, engine: deps.engine ?? engineFor(opts, text), log, text, retry, signal };
  const run: WorkerRun = { success: 0, failed: 0, lost: 0, stopped: false };
  const count = (o: TaskOutcome) => void run[o]++;

  // --once must end: the server down is said and ends the run instead of being waited out
  const serverAttempts = opts.once ? ONCE_SERVER_ATTEMPTS : Infinity;
  try {
    try {
      await retry('connect', () => client.connect(), serverAttempts);
    } catch (err) {
      if (err instanceof TaskFailedError) throw new FatalWorkerError(err.message);
      throw err;
    }
    log.info(text.connected(opts.name, opts.server));

    const saved = state.loadTask();
    if (saved && saved.server !== opts.server) {
      log.warn(text.forgetTask(saved.id, saved.server));
      state.clearTask();
    } else if (saved) {
      log.info(text.resuming(saved.id));
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
        if (backoff.attempts + 1 >= serverAttempts) throw new FatalWorkerError(text.gaveUp(err.message, serverAttempts));
        const delay = backoff.nextDelay();
        log.warn(text.retrying('acquire', err.message, (delay / 1000).toFixed(1)));
        await sleep(delay, signal);
        continue;
      }
      if (!task) {
        if (opts.once) return run;
        if (!idleLogged) log.info(text.queueEmpty(opts.pollSeconds));
        idleLogged = true;
        await sleep(opts.pollSeconds * 1000, signal);
        continue;
      }
      idleLogged = false;
      log.info(text.acquired(task.id));
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
