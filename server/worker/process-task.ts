import { existsSync, statSync } from 'node:fs';
import { FatalWorkerError, isAbort, StoppedError, TaskLostError } from './errors.js';
import type { WorkerLog } from './log.js';
import type { WorkerText } from './messages.js';
import { oneLine, toAiLrc, type TimedText } from './lrc.js';
import type { WorkerOptions } from './options.js';
import type { Retry } from './retry.js';
import type { KikoplayClient } from './server-client.js';
import type { SavedTask, WorkerState } from './state.js';
import { TaskSession } from './task-session.js';
import { planKey, prepareAudio } from './audio/prepare.js';
import type { TranscriptionEngine } from './engines/types.js';
import { translateLines } from './translate/chat-translate.js';
import { ensureDir } from '../config/ensure-dir.js';

export interface WorkerContext {
  opts: WorkerOptions;
  client: KikoplayClient;
  state: WorkerState;
  engine: TranscriptionEngine;
  log: WorkerLog;
  /** What the worker says, in the terminal's language. */
  text: WorkerText;
  retry: Retry;
  signal: AbortSignal;
}

export type TaskOutcome = 'success' | 'failed' | 'lost';

/** The end of the previous chunk's text, to keep wording consistent across chunks (OpenAI's advice for split audio). */
function promptFor(userPrompt: string | undefined, previous: TimedText[] | null | undefined): string | undefined {
  const tail = (previous ?? [])
    .map((l) => oneLine(l.text))
    .join(' ')
    .slice(-200);
  return [userPrompt, tail].filter(Boolean).join(' ') || undefined;
}

async function transcribeAll(ctx: WorkerContext, task: SavedTask, session: TaskSession): Promise<TimedText[]> {
  const { opts, state, engine } = ctx;
  const audio = state.audioFile(task);
  if (!task.downloadedBytes || !existsSync(audio) || statSync(audio).size !== task.downloadedBytes) {
    await session.report('downloading audio');
    task.downloadedBytes = await ctx.retry('download', () => ctx.client.download(task.id, task.secret, audio));
    state.saveTask(task);
  }

  await session.report('preparing audio');
  const limits = { maxUploadBytes: opts.maxUploadBytes, maxChunkSeconds: opts.maxChunkSeconds, alwaysWav: opts.alwaysWav };
  const chunks = await prepareAudio(audio, state.workDir(), limits, session.signal, (text) => session.report(text));
  const key = planKey(chunks);
  if (task.plan !== key || !task.chunks || task.chunks.length !== chunks.length) {
    task.plan = key;
    task.chunks = chunks.map(() => null);
    state.saveTask(task);
  }
  const results = task.chunks;
  for (const [i, chunk] of chunks.entries()) {
    if (results[i]) continue;
    await session.report(chunks.length > 1 ? `transcribing ${i + 1}/${chunks.length} chunks` : 'transcribing');
    const prompt = promptFor(opts.prompt, i > 0 ? results[i - 1] : null);
    const lines = await ctx.retry('transcribe', () => engine.transcribe(chunk.file, { prompt }, session.signal), opts.engineAttempts);
    const limit = chunk.duration === null ? Infinity : chunk.duration + 1;
    results[i] = lines.filter((l) => l.start <= limit).map((l) => ({ start: l.start + chunk.offset, end: l.end + chunk.offset, text: l.text }));
    state.saveTask(task);
  }
  return results.flatMap((r) => r ?? []);
}

async function translateAll(ctx: WorkerContext, lines: TimedText[], session: TaskSession): Promise<string[] | undefined> {
  const tr = ctx.opts.translate;
  if (!tr || !lines.length) return undefined;
  try {
    return await translateLines(
      lines.map((l) => oneLine(l.text)),
      tr,
      session.signal,
      (what, fn) => ctx.retry(what, fn, ctx.opts.engineAttempts),
      (done, total) => session.report(total > 1 ? `translating ${done + 1}/${total}` : 'translating'),
    );
  } catch (err) {
    if (isAbort(err) || err instanceof TaskLostError || session.lost) throw err;
    // The transcription is worth keeping: deliver it without translations and say so.
    ctx.log.error(ctx.text.translationFailed(session.id, (err as Error).message));
    await session.report(`translation failed (${(err as Error).message}); original text only`);
    return undefined;
  }
}

/**
 * Do one task end to end: check it is still ours, download, split, transcribe (progress through
 * `/status`), translate, finish with the LRC. On Ctrl-C nothing is finished and `task.json` stays for
 * the resume; a task the server took away is dropped; a task that cannot be done is finished as an error.
 */
export async function processTask(ctx: WorkerContext, task: SavedTask): Promise<TaskOutcome> {
  const { client, state, log, text } = ctx;
  state.saveTask(task);
  ensureDir(state.workDir());
  const session = new TaskSession(task.id, task.secret, client, ctx.retry, log, ctx.signal, text);
  try {
    if (!(await ctx.retry('check task', () => client.held(task.id, task.secret)))) throw new TaskLostError(`task ${task.id} is no longer held by this worker`);
    session.startHeartbeat(ctx.opts.heartbeatSeconds);
    const lines = await transcribeAll(ctx, task, session);
    const translations = await translateAll(ctx, lines, session);
    const lrc = toAiLrc(lines, translations);
    await session.report(`uploading lyrics (${lrc ? lrc.split('\n').length - 1 : 0} lines)`);
    session.stopHeartbeat();
    const done = await ctx.retry('finish', () => client.finish(task.id, task.secret, true, lrc));
    state.clearTask();
    if (done === 'gone') {
      log.warn(text.notTaken(task.id));
      return 'lost';
    }
    log.info(text.done(task.id));
    return 'success';
  } catch (err) {
    session.stopHeartbeat();
    if (ctx.signal.aborted) throw new StoppedError();
    if (session.lost || err instanceof TaskLostError || isAbort(err)) {
      log.warn(text.dropped(task.id));
      state.clearTask();
      return 'lost';
    }
    if (err instanceof FatalWorkerError) throw err;
    const message = (err as Error).message ?? String(err);
    log.error(text.failed(task.id, message));
    try {
      await client.status(task.id, task.secret, `error: ${message}`.slice(0, 1000)).catch(() => false);
      await ctx.retry('finish', () => client.finish(task.id, task.secret, false, ''));
    } catch (finishErr) {
      if (ctx.signal.aborted) throw new StoppedError();
      if (finishErr instanceof FatalWorkerError) throw finishErr;
      log.warn(text.failureNotReported(task.id, (finishErr as Error).message));
    }
    state.clearTask();
    return 'failed';
  }
}
