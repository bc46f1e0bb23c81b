import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { FatalWorkerError, networkError, TaskFailedError, TaskLostError, TransientError } from './errors.js';
import type { WorkerLog } from './log.js';
import { WORKER_TEXT, type WorkerText } from './messages.js';
import type { WorkerState } from './state.js';

export interface Credentials {
  /** A worker token (`kikoplay worker-token create`) or any login token. */
  token?: string;
  user?: string;
  password?: string;
}

export interface AcquiredTask {
  id: number;
  secret: string;
  audio_ext: string;
}

const errorText = async (res: Response): Promise<string> => {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 200) || res.statusText;
};

/**
 * The kikoplay (or kikoeru) server as a worker sees it: login, the five worker endpoints.
 * A 401 re-authenticates once with user/password; network failures and 5xx are {@link TransientError}s.
 */
export class KikoplayClient {
  private token: string | null;

  constructor(
    private readonly server: string,
    private readonly creds: Credentials,
    private readonly state: WorkerState,
    private readonly signal: AbortSignal,
    private readonly log: WorkerLog,
    private readonly say: WorkerText = WORKER_TEXT,
  ) {
    this.token = creds.token ?? null;
  }

  private get canLogin(): boolean {
    return Boolean(this.creds.user && this.creds.password !== undefined);
  }

  private async fetch(method: string, path: string, opts: { json?: unknown; query?: Record<string, string | number> } = {}): Promise<Response> {
    const url = new URL(this.server + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await fetch(url, { method, headers, body: opts.json === undefined ? undefined : JSON.stringify(opts.json), signal: this.signal });
    } catch (err) {
      throw networkError(err, this.say.unreachable(this.server));
    }
  }

  /** Log in with user/password and keep the token (also in the state dir for the next start). */
  async login(): Promise<void> {
    if (!this.canLogin) throw new FatalWorkerError(this.say.tokenRefused);
    this.token = null;
    const res = await this.fetch('POST', '/api/auth/me', { json: { name: this.creds.user, password: this.creds.password } });
    if (res.status === 200) {
      const body = (await res.json()) as { token?: string };
      if (!body.token) throw new FatalWorkerError(this.say.loginWithoutToken);
      this.token = body.token;
      this.state.saveToken(body.token);
      this.log.info(this.say.loggedIn(this.server, this.creds.user ?? ''));
      return;
    }
    const why = await errorText(res);
    if (res.status === 429 || res.status >= 500) throw new TransientError(`login failed (${res.status}): ${why}`);
    throw new FatalWorkerError(this.say.loginRefused(this.creds.user ?? '', res.status, why));
  }

  /** Make sure the credentials work (GET /api/auth/me), logging in when needed. */
  async connect(): Promise<void> {
    if (!this.token && this.canLogin) this.token = this.state.loadToken();
    const res = await this.fetch('GET', '/api/auth/me');
    if (res.status === 200) {
      await res.arrayBuffer();
      return;
    }
    if (res.status === 401) {
      await res.arrayBuffer();
      if (!this.token && !this.canLogin) throw new FatalWorkerError(this.say.needsLogin);
      return this.login();
    }
    const why = await errorText(res);
    if (res.status >= 500) throw new TransientError(`server answered ${res.status}: ${why}`);
    throw new FatalWorkerError(this.say.meAnswered(res.status, why));
  }

  /** A worker call; a 401 logs in again once; 5xx are transient; 403 means the account may not work. */
  private async call(method: string, path: string, opts: { json?: unknown; query?: Record<string, string | number> } = {}): Promise<Response> {
    let res = await this.fetch(method, path, opts);
    if (res.status === 401) {
      await res.arrayBuffer();
      this.log.warn(this.say.loggingInAgain);
      await this.login();
      res = await this.fetch(method, path, opts);
      if (res.status === 401) throw new FatalWorkerError(this.say.newLoginRefused(await errorText(res)));
    }
    if (res.status >= 500 || res.status === 429) throw new TransientError(`${method} ${path} answered ${res.status}: ${await errorText(res)}`);
    if (res.status === 403) throw new FatalWorkerError(this.say.notAllowed(await errorText(res)));
    return res;
  }

  /** The oldest pending task, or null when the queue is empty. */
  async acquire(workerName: string): Promise<AcquiredTask | null> {
    const res = await this.call('POST', '/api/lyric/translate/acquire', { json: { worker_name: workerName } });
    if (res.status === 404) {
      await res.arrayBuffer();
      return null;
    }
    if (res.status !== 200) throw new FatalWorkerError(this.say.answered('acquire', res.status, await errorText(res)));
    const body = (await res.json()) as Partial<AcquiredTask>;
    if (typeof body.id !== 'number' || typeof body.secret !== 'string' || !body.secret) throw new FatalWorkerError(this.say.unexpectedBody('acquire', JSON.stringify(body)));
    return { id: body.id, secret: body.secret, audio_ext: typeof body.audio_ext === 'string' ? body.audio_ext : '' };
  }

  /** Whether the task is still held with this secret (GET /get). */
  async held(id: number, secret: string): Promise<boolean> {
    const res = await this.call('GET', '/api/lyric/translate/get', { query: { id, secret } });
    if (res.status !== 200) throw new FatalWorkerError(this.say.answered('get', res.status, await errorText(res)));
    const body = (await res.json()) as { task?: unknown };
    return Boolean(body.task);
  }

  /** Report progress (and keep the lease). False when the task is no longer this worker's. */
  async status(id: number, secret: string, workerStatus: string): Promise<boolean> {
    const res = await this.call('POST', '/api/lyric/translate/status', { json: { id: String(id), secret, worker_status: workerStatus } });
    if (res.status !== 200) throw new FatalWorkerError(this.say.answered('status', res.status, await errorText(res)));
    return ((await res.json()) as { success?: boolean }).success === true;
  }

  /** Download the task's audio to `dest`; returns its size. */
  async download(id: number, secret: string, dest: string): Promise<number> {
    const res = await this.call('GET', '/api/lyric/translate/download', { query: { id, secret } });
    if (res.status === 404) {
      const why = await errorText(res);
      if (!(await this.held(id, secret))) throw new TaskLostError(`task ${id} is no longer held by this worker`);
      throw new TaskFailedError(`the server cannot provide the audio: ${why}`);
    }
    if (res.status !== 200 || !res.body) throw new TransientError(`download answered ${res.status}: ${await errorText(res)}`);
    if ((res.headers.get('content-type') ?? '').includes('application/json')) throw new TaskFailedError(`download answered JSON instead of audio: ${await errorText(res)}`);
    let bytes = 0;
    const body = Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => (bytes += chunk.length));
    try {
      await pipeline(body, createWriteStream(dest));
    } catch (err) {
      throw networkError(err, 'download interrupted');
    }
    const expected = Number(res.headers.get('content-length'));
    if (Number.isFinite(expected) && expected > 0 && expected !== bytes) throw new TransientError(`download interrupted: ${bytes} of ${expected} bytes`);
    return bytes;
  }

  /** Send the result. 'gone' when the task was not held any more (redo, delete, lease, or finished by an earlier try). */
  async finish(id: number, secret: string, success: boolean, lrc: string): Promise<'done' | 'gone'> {
    const res = await this.call('POST', '/api/lyric/translate/finish', { json: { id, secret, success, lrc_content: lrc } });
    if (res.status === 404) {
      await res.arrayBuffer();
      return 'gone';
    }
    if (res.status !== 200) throw new FatalWorkerError(this.say.answered('finish', res.status, await errorText(res)));
    await res.arrayBuffer();
    return 'done';
  }
}
