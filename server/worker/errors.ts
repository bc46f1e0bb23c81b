/** Errors the worker tells apart: what to retry, what ends a task, what ends the worker. */

/** The network or the other side failed for now (connection refused, 5xx, 429, timeouts): retry with backoff. */
export class TransientError extends Error {
  override readonly name = 'TransientError';
}

/** The task cannot be done (undecodable audio, the service refused the request): finish it as an error. */
export class TaskFailedError extends Error {
  override readonly name = 'TaskFailedError';
}

/** The server no longer lets this worker hold the task (redo, delete, lease re-queued): drop it, finish nothing. */
export class TaskLostError extends Error {
  override readonly name = 'TaskLostError';
}

/** The worker cannot go on (credentials refused, bad options): stop with a message. */
export class FatalWorkerError extends Error {
  override readonly name = 'FatalWorkerError';
}

/** Ctrl-C / SIGTERM: stop where we are, finish nothing, keep the state for a resume. */
export class StoppedError extends Error {
  override readonly name = 'StoppedError';
  constructor() {
    super('stopped');
  }
}

export const isAbort = (err: unknown): boolean => err instanceof StoppedError || (err instanceof Error && err.name === 'AbortError');

/** A fetch() failure that never reached an HTTP answer. */
export function networkError(err: unknown, what: string): Error {
  if (isAbort(err)) return new StoppedError();
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
  return new TransientError(`${what}: ${detail}`);
}
