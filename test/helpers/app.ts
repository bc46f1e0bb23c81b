import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import type { AppContext } from '../../server/app/services.js';
import type { Config } from '../../server/config/schema.js';
import { startHttpServer, type RunningServer } from '../../server/http/server.js';
import { hashPassword } from '../../server/auth/password.js';
import { madeTempDirs } from './temp-dirs.js';
import type { Role } from '../../server/auth/roles.js';
import type { HttpLimits } from '../../server/http/limits.js';

export function tempDir(prefix = 'kikoplay-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  madeTempDirs().add(dir);
  return dir;
}

export interface TestServer {
  app: AppContext;
  server: RunningServer;
  url: string;
  dataDir: string;
  /** fetch against the server; `token` adds the bearer header; objects are sent as JSON. */
  request(method: string, pathAndQuery: string, opts?: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string }): Promise<Response>;
  json<T = Record<string, unknown>>(method: string, pathAndQuery: string, opts?: { token?: string; body?: unknown }): Promise<{ status: number; body: T }>;
  addUser(name: string, password: string, role: Role): Promise<void>;
  login(name: string, password: string): Promise<string>;
  close(): Promise<void>;
}

/** A real kikoplay app (SQLite file, Koa, ephemeral port) on a fresh data dir. */
export async function startTestServer(opts: { flags?: Partial<Config>; dataDir?: string; env?: NodeJS.ProcessEnv; webRoot?: string; limits?: Partial<HttpLimits> } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const app = await createAppContext({ dataDir, flags: opts.flags ?? {}, env: opts.env ?? {}, logger: createLogger({ level: 'silent' }) });
  const server = await startHttpServer(app, { port: 0, host: '127.0.0.1', webRoot: opts.webRoot, limits: opts.limits });
  const url = `http://127.0.0.1:${server.port}`;

  const request: TestServer['request'] = (method, p, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    let body: string | undefined = o.raw;
    if (o.body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    }
    return fetch(url + p, { method, headers, body });
  };

  const t: TestServer = {
    app,
    server,
    url,
    dataDir,
    request,
    async json(method, p, o) {
      const res = await request(method, p, o);
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: res.status, body: body as never };
    },
    async addUser(name, password, role) {
      if (typeof (await app.repos.users.create(name, await hashPassword(password), role)) !== 'number') throw new Error(`user ${name} exists`);
    },
    async login(name, password) {
      const res = await t.json<{ token: string }>('POST', '/api/auth/me', { body: { name, password } });
      if (res.status !== 200) throw new Error(`login ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
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
