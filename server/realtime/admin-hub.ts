import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket } from 'ws';
import type { Logger } from 'pino';
import { isAdmin, groupOfRole, type Actor } from '../auth/roles.js';
import type { UsersService } from '../services/users-service.js';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED, WS_PATH, decode, encode, type ServerEvent, type ServerPayloads } from '../contract/realtime.js';
import type { ScanEvent, ScanKind } from '../contract/scan-events.js';
import { initialScanState, reduceScanState, scanSnapshot, scanUpdatesFor, type ScanState } from '../contract/scan-state.js';
import type { OriginPolicy } from '../http/origin-policy.js';
import { AppError } from '../domain/errors.js';
import type { ApiErrorCode } from '../domain/error-codes.js';
import { rawSecurityHeaders } from '../http/middleware/security-headers.js';

const REASONS: Record<number, string> = { 403: 'Forbidden', 404: 'Not Found', 421: 'Misdirected Request' };

/** Answer an upgrade that goes no further with a JSON `{ error }`, then close the socket. */
function rejectUpgrade(socket: Duplex, status: number, message: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${rawSecurityHeaders()}Connection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/** What the hub needs from the scanner (ScanService fits): its events, a snapshot, and the dashboard's actions. */
export interface ScanFeed {
  snapshot(): Promise<ScanState>;
  subscribe(listener: (event: ScanEvent) => void): () => void;
  /** Start a job; throws (e.g. 409) when one already runs here or in another process. */
  start(actor: Actor, req: { kind: Extract<ScanKind, 'scan' | 'refresh' | 'files'> }): Promise<unknown>;
  /** Cancel the running job; false when nothing runs. */
  kill(actor: Actor): Promise<boolean>;
}

const HIGH_WATER = 4 * 1024 * 1024;
const LOW_WATER = 256 * 1024;
const PING_MS = 30_000;
/** How often the hub looks whether users changed (role, password, deletion) or auth was switched. */
const USERS_CHECK_MS = 250;
/** A socket the hub closes (refused, or the server stopping) that does not answer the close handshake is cut after this. */
const CLOSE_GRACE_MS = 2_000;
/** Commands of one socket waiting for their turn; more are answered with an error, not queued. */
const MAX_PENDING = 16;

/** Close a socket; one whose client never answers the close handshake is cut, not kept for ws's 30 s. */
function closeWithin(ws: WebSocket, code: number, reason: string): void {
  if (ws.readyState === WebSocket.CLOSED) return;
  if (ws.readyState === WebSocket.OPEN) ws.close(code, reason);
  const cut = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
  cut.unref();
  ws.once('close', () => clearTimeout(cut));
}

interface Client {
  ws: WebSocket;
  /** The token the socket was opened with (null with auth off): re-checked on every command and when users change. */
  token: string | null;
  actor: Actor;
  alive: boolean;
  /** Incremental events were dropped because the client was slow: it gets a snapshot when drained. */
  stale: boolean;
  /** Commands run one after another, each after its own re-check. */
  queue: Promise<void>;
  pending: number;
}

/** Why a socket may not (or may no longer) use the hub: the close code, the message it is sent and its error code. */
class Refusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason: ApiErrorCode,
  ) {
    super(message);
  }
}

/**
 * The admin dashboard's realtime channel on `ws`: Host and Origin checked on upgrade (origin-policy.ts),
 * token checked on upgrade (admin only) and again before every command, sockets closed as soon as their
 * user is demoted, changes password or is deleted (or auth is switched on), scan events pushed
 * incrementally, a snapshot on ON_SCANNER_PAGE, keep-alive pings, and no unbounded buffers for slow
 * clients. Every socket has an error listener before anything else: nothing a client sends (an
 * unmasked or oversized frame, garbage, frames during the token check) can end the process.
 */
export class AdminHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly clients = new Set<Client>();
  private readonly unsubscribe: () => void;
  private readonly pinger: NodeJS.Timeout;
  private readonly usersWatch: NodeJS.Timeout;
  /** The users' change stamp and the auth switch the open sockets were last checked against. */
  private checked: { stamp: string | null; auth: boolean } | null = null;
  private revalidating = false;
  /** The scan state folded from the events this hub has seen (for failed-task frames and catch-up snapshots). */
  private state: ScanState = initialScanState();

  constructor(
    private readonly deps: {
      users: Pick<UsersService, 'authenticate' | 'anonymousAdmin'>;
      /** Changes whenever any process may have changed a user (UsersRepo.changeStamp); null: unknown. */
      usersChangeStamp: () => string | null;
      authEnabled: () => boolean;
      feed: ScanFeed;
      /** Host / Origin policy of upgrades (shared with the HTTP middleware); none: every upgrade may go on. */
      originPolicy?: OriginPolicy;
      logger: Logger;
    },
  ) {
    this.unsubscribe = deps.feed.subscribe((event) => this.broadcastEvent(event));
    this.pinger = setInterval(() => this.ping(), PING_MS);
    this.pinger.unref();
    this.usersWatch = setInterval(() => this.watchUsers(), USERS_CHECK_MS);
    this.usersWatch.unref();
  }

  attach(server: http.Server): void {
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      // first of all: a reset or a bad frame from here on is handled, never an unhandled 'error'
      socket.on('error', () => socket.destroy());
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== WS_PATH) return rejectUpgrade(socket, 404, `接口不存在: ${WS_PATH} 之外没有 WebSocket 接口`);
      const refusal = this.deps.originPolicy?.check({ method: req.method ?? 'GET', headers: req.headers }, { always: true });
      if (refusal) return rejectUpgrade(socket, refusal.status, refusal.message);
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('error', (err) => this.deps.logger.debug({ err: err.message }, 'admin socket error'));
        void this.admit(ws, url.searchParams.get('token') ?? url.searchParams.get('auth_token')).catch((err: unknown) => {
          this.deps.logger.error({ err }, 'admin socket admission failed');
          ws.terminate();
        });
      });
    });
  }

  /** The acting admin of a socket opened with `token`, checked now; a Refusal when it may not use the hub. */
  private async resolve(token: string | null): Promise<Actor> {
    if (!this.deps.authEnabled()) return this.deps.users.anonymousAdmin();
    if (!token) throw new Refusal(CLOSE_UNAUTHORIZED, 'No auth token', 'TOKEN_MISSING');
    let actor: Actor;
    try {
      actor = await this.deps.users.authenticate(token);
    } catch (err) {
      const reason = err instanceof AppError && err.status === 401 ? err.code : 'SESSION_EXPIRED';
      throw new Refusal(CLOSE_UNAUTHORIZED, (err as Error).message || 'invalid token', reason);
    }
    if (!isAdmin(actor)) throw new Refusal(CLOSE_FORBIDDEN, '只有 admin 账号能登录管理后台.', 'ADMIN_ONLY');
    return actor;
  }

  private async admit(ws: WebSocket, token: string | null): Promise<void> {
    let actor: Actor;
    try {
      actor = await this.resolve(token);
    } catch (err) {
      if (err instanceof Refusal) return this.refuse(ws, err);
      throw err;
    }
    // the client may have gone while its token was checked
    if (ws.readyState !== WebSocket.OPEN) return;

    const client: Client = { ws, token, actor, alive: true, stale: false, queue: Promise.resolve(), pending: 0 };
    this.clients.add(client);
    ws.on('pong', () => (client.alive = true));
    ws.on('close', () => this.clients.delete(client));
    ws.on('error', () => this.clients.delete(client));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      if (client.pending >= MAX_PENDING) return this.send(client, 'error', { message: '消息过多，请稍后再试', reason: 'TOO_MANY_REQUESTS' });
      client.pending++;
      const text = data.toString();
      client.queue = client.queue
        .then(() => this.command(client, text))
        .catch((err: unknown) => this.deps.logger.error({ err }, 'admin socket command failed'))
        .finally(() => client.pending--);
    });
    this.send(client, 'success', {
      message: '成功登录管理后台.',
      user: { name: actor.name, group: groupOfRole(actor.role), role: actor.role, logged_in: true },
      auth: this.deps.authEnabled(),
    });
  }

  private refuse(ws: WebSocket, refusal: Refusal): void {
    const { code, message, reason } = refusal;
    if (ws.readyState === WebSocket.OPEN) ws.send(encode('error', { message, code, reason }));
    closeWithin(ws, code, Buffer.byteLength(message) <= 120 ? message : 'unauthorized');
  }

  /** Close a socket whose user may no longer use the hub. */
  private drop(client: Client, refusal: Refusal): void {
    this.clients.delete(client);
    this.refuse(client.ws, refusal);
  }

  /** Re-check a client's user and token; false (and the socket closed) when it lost the right. */
  private async recheck(client: Client): Promise<boolean> {
    try {
      client.actor = await this.resolve(client.token);
      return this.clients.has(client);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      this.drop(client, err);
      return false;
    }
  }

  /** One command of a socket, once its user and token have been checked again. */
  private async command(client: Client, text: string): Promise<void> {
    if (!this.clients.has(client)) return;
    if (!(await this.recheck(client))) return;
    await this.onMessage(client, text);
  }

  /**
   * When a user may have changed (any process's commit moves the stamp) or auth was switched, every open
   * socket is checked again; those whose user was demoted, changed password or was deleted are closed.
   */
  private watchUsers(): void {
    if (this.revalidating) return;
    const now = { stamp: this.deps.usersChangeStamp(), auth: this.deps.authEnabled() };
    if (this.checked && now.stamp !== null && now.stamp === this.checked.stamp && now.auth === this.checked.auth) return;
    this.checked = now;
    if (!this.clients.size) return;
    this.revalidating = true;
    void Promise.all([...this.clients].map((client) => this.recheck(client)))
      .catch((err: unknown) => this.deps.logger.error({ err }, 'admin socket re-check failed'))
      .finally(() => (this.revalidating = false));
  }

  private async onMessage(client: Client, text: string): Promise<void> {
    const frame = decode(text);
    if (!frame) return this.send(client, 'error', { message: 'invalid message', reason: 'BAD_REQUEST' });
    try {
      switch (frame.event) {
        case 'ON_SCANNER_PAGE': {
          const snap = await this.deps.feed.snapshot();
          if (snap.runId !== null && (this.state.runId === null || snap.runId >= this.state.runId)) this.state = snap;
          client.stale = false;
          return this.send(client, 'SCAN_INIT_STATE', scanSnapshot(snap));
        }
        case 'PERFORM_SCAN':
        case 'PERFORM_UPDATE':
        case 'PERFORM_LYRIC_SCAN': {
          const kind = frame.event === 'PERFORM_SCAN' ? 'scan' : frame.event === 'PERFORM_UPDATE' ? 'refresh' : 'files';
          await this.deps.feed.start(client.actor, { kind });
          return;
        }
        case 'KILL_SCAN_PROCESS':
          // harmless when nothing runs
          await this.deps.feed.kill(client.actor);
          return;
        default:
          return this.send(client, 'error', { message: 'unknown event', reason: 'BAD_REQUEST' });
      }
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (!status || status >= 500) this.deps.logger.error({ err }, 'admin socket action failed');
      // A refused start: the dashboard already shows "running" (it sets it on the button), so it gets
      // the real state first — a scan running elsewhere, or the one that has just finished.
      if (frame.event.startsWith('PERFORM_')) {
        const snap = await this.deps.feed.snapshot().catch(() => null);
        if (snap) this.send(client, 'SCAN_INIT_STATE', scanSnapshot(snap));
      }
      this.send(client, 'SCAN_MAIN_LOGS', { mainLogs: [{ level: status === 409 ? 'warn' : 'error', message: (err as Error).message }] });
    }
  }

  private send<E extends ServerEvent>(client: Client, event: E, payload: ServerPayloads[E]): void {
    if (client.ws.readyState !== WebSocket.OPEN) return;
    client.ws.send(encode(event, payload));
  }

  private broadcastEvent(event: ScanEvent): void {
    const before = this.state;
    this.state = reduceScanState(before, event);
    if (!this.clients.size) return;
    this.watchUsers();
    const state = this.state;
    const frames = scanUpdatesFor(event, before).map((u) => encode(u.event, u.payload));
    for (const client of this.clients) {
      if (client.ws.readyState !== WebSocket.OPEN) continue;
      if (client.stale) {
        if (client.ws.bufferedAmount > LOW_WATER) continue;
        client.stale = false;
        client.ws.send(encode('SCAN_INIT_STATE', scanSnapshot(state)));
        continue;
      }
      if (client.ws.bufferedAmount > HIGH_WATER) {
        client.stale = true;
        continue;
      }
      for (const f of frames) client.ws.send(f);
    }
  }

  private ping(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.ws.terminate();
        this.clients.delete(client);
        continue;
      }
      client.alive = false;
      client.ws.ping();
    }
  }

  get connectedClients(): number {
    return this.clients.size;
  }

  async close(): Promise<void> {
    clearInterval(this.pinger);
    clearInterval(this.usersWatch);
    this.unsubscribe();
    // every socket, admitted or still having its token checked: ws's close waits for all of them
    for (const ws of this.wss.clients) closeWithin(ws, 1001, 'server shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
