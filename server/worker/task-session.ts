import { TaskLostError } from './errors.js';
import type { WorkerLog } from './log.js';
import { WORKER_TEXT, type WorkerText } from './messages.js';
import type { Retry } from './retry.js';
import type { KikoplayClient } from './server-client.js';

/**
 * One held task: progress reports through `/status`, a heartbeat that keeps the lease while a long
 * request runs, and an abort signal that fires on Ctrl-C or when the server takes the task away.
 */
export class TaskSession {
  private text = 'task acquired';
  private timer: NodeJS.Timeout | null = null;
  private readonly controller = new AbortController();
  lost = false;

  constructor(
    readonly id: number,
    private readonly secret: string,
    private readonly client: KikoplayClient,
    private readonly retry: Retry,
    private readonly log: WorkerLog,
    outer: AbortSignal,
    private readonly say: WorkerText = WORKER_TEXT,
  ) {
    if (outer.aborted) this.controller.abort();
    else outer.addEventListener('abort', () => this.controller.abort(), { once: true });
  }

  /** Aborts on Ctrl-C and when the task is lost. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private markLost(): never {
    this.lost = true;
    this.controller.abort();
    throw new TaskLostError(`task ${this.id} is no longer held by this worker (retried, deleted or re-queued)`);
  }

  /** Show `text` in the AI centre (and renew the lease). */
  async report(text: string): Promise<void> {
    this.text = text;
    this.log.info(this.say.progress(this.id, text));
    if (!(await this.retry('report progress', () => this.client.status(this.id, this.secret, text)))) this.markLost();
  }

  startHeartbeat(seconds: number): void {
    this.stopHeartbeat();
    let busy = false;
    this.timer = setInterval(() => {
      if (busy || this.signal.aborted) return;
      busy = true;
      this.client
        .status(this.id, this.secret, this.text)
        .then((ok) => {
          if (!ok) {
            this.log.warn(this.say.noLongerOurs(this.id));
            this.lost = true;
            this.controller.abort();
          }
        })
        .catch((err: unknown) => this.log.warn(this.say.heartbeatFailed(this.id, (err as Error).message)))
        .finally(() => {
          busy = false;
        });
    }, seconds * 1000);
    this.timer.unref();
  }

  stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
