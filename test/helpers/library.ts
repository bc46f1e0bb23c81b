/**
 * Scanner test helpers: a generated library on disk and a real kikoplay app (SQLite file, Koa on an
 * ephemeral port) whose scanner can be tuned (no metadata rate limit, a chosen metadata source).
 */
import { rmSync } from 'node:fs';
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import type { AppContext } from '../../server/app/services.js';
import type { Config } from '../../server/config/schema.js';
import { startHttpServer, type RunningServer } from '../../server/http/server.js';
import { hashPassword } from '../../server/auth/password.js';
import type { Actor } from '../../server/auth/roles.js';
import type { ScanEvent } from '../../server/contract/scan-events.js';
import type { ScanRequest, ScanSummary } from '../../server/services/scan-service.js';
import type { ScanControllerDeps } from '../../server/library/scan/scan-controller.js';
import { generateTestLibrary, unlockTestLibrary, type GeneratedLibrary } from '../../scripts/gen-library.js';
import { tempDir } from './app.js';

export const TEST_ADMIN: Actor = { id: 0, name: '(test)', role: 'admin' };

/** Base URLs on a closed loopback port: every metadata request fails at once ("DLsite unreachable"). */
export const OFFLINE_SITES: Partial<Config> = {
  dlsiteBaseUrl: 'http://127.0.0.1:9/dlsite',
  dlsiteImageBaseUrl: 'http://127.0.0.1:9/img',
  hvdbBaseUrl: 'http://127.0.0.1:9/hvdb',
  asmrOneBaseUrl: 'http://127.0.0.1:9/asmr',
  retry: 0,
  retryDelay: 0,
  dlsiteTimeout: 2000,
  hvdbTimeout: 2000,
};

export async function makeTestLibrary(): Promise<GeneratedLibrary & { cleanup(): void }> {
  const dir = tempDir('kikoplay-lib-');
  const lib = await generateTestLibrary(dir);
  return {
    ...lib,
    cleanup() {
      unlockTestLibrary(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface LibraryServer {
  app: AppContext;
  server: RunningServer;
  url: string;
  dataDir: string;
  events: ScanEvent[];
  scan(req?: ScanRequest): Promise<ScanSummary>;
  json<T = Record<string, unknown>>(method: string, p: string, opts?: { token?: string; body?: unknown }): Promise<{ status: number; body: T }>;
  request(method: string, p: string, opts?: { token?: string; headers?: Record<string, string> }): Promise<Response>;
  addUser(name: string, password: string, role: 'admin' | 'user' | 'guest'): Promise<number>;
  login(name: string, password: string): Promise<string>;
  close(): Promise<void>;
}

export async function startLibraryServer(
  opts: {
    flags?: Partial<Config>;
    dataDir?: string;
    scanner?: Pick<ScanControllerDeps, 'metadataSource' | 'options'>;
  } = {},
): Promise<LibraryServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const app = await createAppContext({
    dataDir,
    flags: opts.flags ?? {},
    env: {},
    logger: createLogger({ level: 'silent' }),
    scanner: { ...opts.scanner, options: { metadataIntervalMs: 0, progressIntervalMs: 0, ...opts.scanner?.options } },
  });
  const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${server.port}`;
  const events: ScanEvent[] = [];
  app.services.scan.subscribe((e) => events.push(e));
  const request: LibraryServer['request'] = (method, p, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    return fetch(url + p, { method, headers });
  };
  const t: LibraryServer = {
    app,
    server,
    url,
    dataDir,
    events,
    scan: (req = { kind: 'scan' }) => app.services.scan.run(TEST_ADMIN, req),
    request,
    async json(method, p, o = {}) {
      const headers: Record<string, string> = {};
      if (o.token) headers.Authorization = `Bearer ${o.token}`;
      let body: string | undefined;
      if (o.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(o.body);
      }
      const res = await fetch(url + p, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed as never };
    },
    async addUser(name, password, role) {
      const id = await app.repos.users.create(name, await hashPassword(password), role);
      if (typeof id !== 'number') throw new Error(`user ${name} exists`);
      return id;
    },
    async login(name, password) {
      const res = await t.json<{ token: string }>('POST', '/api/auth/me', { body: { name, password } });
      if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
      return res.body.token;
    },
    async close() {
      await server.close();
      await app.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}

/** Messages of main-log and task-log events. */
export const logLines = (events: ScanEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'main-log' ? [e.message] : e.type === 'task-log' ? [`[${e.code}] ${e.message}`] : e.type === 'task-failed' ? [`[${e.code}] ${e.error}`] : []));
