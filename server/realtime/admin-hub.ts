import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket } from 'ws';
import type { Logger } from 'pino';
import { isAdmin, groupOfRole, type Actor } from '../auth/roles.js';
import type { UsersService } from '../services/users-service.js';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED, WS_PATH, decode, encode, type ServerEvent } from '../contract/realtime.js';
import type { ScanEvent, ScanKind } from '../library/scan-events.js';
import { initialScanState, reduceScanState, type ScanState } from '../library/scan-state.js';

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

interface Client {
  ws: WebSocket;
  actor: Actor;
  alive: boolean;
  /** Incremental events were dropped because the client was slow: it gets a snapshot when drained. */
  stale: boolean;
}

/** Map one scanner event to the dashboard's incremental socket events. */
export function framesFor(event: ScanEvent, state: ScanState): [ServerEvent, unknown][] {
  switch (event.type) {
    case 'started':
      return [['SCAN_INIT_STATE', snapshotPayload(state)]];
    case 'main-log':
      return [['SCAN_MAIN_LOGS', { mainLogs: [{ level: event.level, message: event.message }] }]];
    case 'task-started':
      return [['SCAN_TASKS', { tasks: [{ rjcode: event.code, result: null, logs: [] }] }]];
    case 'task-log':
      return [['SCAN_TASKS', { tasks: [{ rjcode: event.code, result: null, logs: [{ level: event.level, message: event.message }] }] }]];
    case 'task-done':
      return [['SCAN_TASKS', { tasks: [], removed: [event.code] }]];
    case 'task-failed': {
      const failed = state.failedTasks.find((t) => t.rjcode === event.code) ?? { rjcode: event.code, result: 'failed', logs: [{ level: 'error', message: event.error }] };
      return [
        ['SCAN_TASKS', { tasks: [], removed: [event.code] }],
        ['SCAN_FAILED_TASKS', { failedTasks: [failed] }],
      ];
    }
    case 'result':
      return [['SCAN_RESULTS', { results: [{ rjcode: event.code, result: event.result, count: event.count }] }]];
    case 'progress':
      return [['SCAN_PROGRESS', { phase: event.phase, done: event.done, total: event.total, counts: event.counts }]];
    case 'finished': {
      const frames: [ServerEvent, unknown][] = [['SCAN_FINISHED', { message: event.message, status: event.status, counts: event.counts, metadata: event.metadata, exitCode: event.exitCode }]];
      if (event.status !== 'finished') frames.push(['SCAN_ERROR', { message: event.message, status: event.status }]);
      return frames;
    }
    case 'error':
      return [['SCAN_MAIN_LOGS', { mainLogs: [{ level: 'error', message: event.message }] }]];
  }
}

export function snapshotPayload(state: ScanState) {
  return {
    status: state.status,
    kind: state.kind,
    runId: state.runId,
    startedAt: state.startedAt,
    phase: state.phase,
    progress: state.progress,
    counts: state.counts,
    metadata: state.metadata,
    tasks: state.tasks,
    failedTasks: state.failedTasks,
    mainLogs: state.mainLogs,
    results: state.results,
    finishedMessage: state.finishedMessage,
  };
}

/**
 * The admin dashboard's realtime channel on `ws`: token checked on upgrade (admin only), scan events
 * pushed incrementally, a snapshot on ON_SCANNER_PAGE, keep-alive pings, and no unbounded buffers
 * for slow clients.
 */
export class AdminHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly clients = new Set<Client>();
  private readonly unsubscribe: () => void;
  private readonly pinger: NodeJS.Timeout;
  /** The scan state folded from the events this hub has seen (for failed-task frames and catch-up snapshots). */
  private state: ScanState = initialScanState();

  constructor(
    private readonly deps: { users: UsersService; authEnabled: () => boolean; feed: ScanFeed; logger: Logger },
  ) {
    this.unsubscribe = deps.feed.subscribe((event) => this.broadcastEvent(event));
    this.pinger = setInterval(() => this.ping(), PING_MS);
    this.pinger.unref();
  }

  attach(server: http.Server): void {
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== WS_PATH) {
        socket.write('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => void this.admit(ws, url.searchParams.get('token') ?? url.searchParams.get('auth_token')));
    });
  }

  private async admit(ws: WebSocket, token: string | null): Promise<void> {
    let actor: Actor;
    try {
      if (!this.deps.authEnabled()) actor = await this.deps.users.anonymousAdmin();
      else if (!token) return this.refuse(ws, CLOSE_UNAUTHORIZED, 'No auth token');
      else actor = await this.deps.users.authenticate(token);
    } catch (err) {
      return this.refuse(ws, CLOSE_UNAUTHORIZED, (err as Error).message || 'invalid token');
    }
    if (!isAdmin(actor)) return this.refuse(ws, CLOSE_FORBIDDEN, '只有 admin 账号能登录管理后台.');

    const client: Client = { ws, actor, alive: true, stale: false };
    this.clients.add(client);
    ws.on('pong', () => (client.alive = true));
    ws.on('close', () => this.clients.delete(client));
    ws.on('error', () => this.clients.delete(client));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      void this.onMessage(client, data.toString());
    });
    this.send(client, 'success', {
      message: '成功登录管理后台.',
      user: { name: actor.name, group: groupOfRole(actor.role), role: actor.role, logged_in: true },
      auth: this.deps.authEnabled(),
    });
  }

  private refuse(ws: WebSocket, code: number, reason: string): void {
    ws.send(encode('error', { message: reason, code }));
    ws.close(code, Buffer.byteLength(reason) <= 120 ? reason : 'unauthorized');
  }

  private async onMessage(client: Client, text: string): Promise<void> {
    const frame = decode(text);
    if (!frame) return this.send(client, 'error', { message: 'invalid message' });
    try {
      switch (frame.event) {
        case 'ON_SCANNER_PAGE': {
          const snap = await this.deps.feed.snapshot();
          if (snap.runId !== null && (this.state.runId === null || snap.runId >= this.state.runId)) this.state = snap;
          client.stale = false;
          return this.send(client, 'SCAN_INIT_STATE', snapshotPayload(snap));
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
          return this.send(client, 'error', { message: `unknown event ${frame.event}` });
      }
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (!status || status >= 500) this.deps.logger.error({ err }, 'admin socket action failed');
      // A refused start: the dashboard already shows "running" (it sets it on the button), so it gets
      // the real state first — a scan running elsewhere, or the one that has just finished.
      if (frame.event.startsWith('PERFORM_')) {
        const snap = await this.deps.feed.snapshot().catch(() => null);
        if (snap) this.send(client, 'SCAN_INIT_STATE', snapshotPayload(snap));
      }
      this.send(client, 'SCAN_MAIN_LOGS', { mainLogs: [{ level: status === 409 ? 'warn' : 'error', message: (err as Error).message }] });
    }
  }

  private send(client: Client, event: ServerEvent, payload?: unknown): void {
    if (client.ws.readyState !== WebSocket.OPEN) return;
    client.ws.send(encode(event, payload));
  }

  private broadcastEvent(event: ScanEvent): void {
    this.state = reduceScanState(this.state, event);
    if (!this.clients.size) return;
    const state = this.state;
    const frames = framesFor(event, state).map(([name, payload]) => encode(name, payload));
    for (const client of this.clients) {
      if (client.ws.readyState !== WebSocket.OPEN) continue;
      if (client.stale) {
        if (client.ws.bufferedAmount > LOW_WATER) continue;
        client.stale = false;
        client.ws.send(encode('SCAN_INIT_STATE', snapshotPayload(state)));
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
    this.unsubscribe();
    for (const c of this.clients) c.ws.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
