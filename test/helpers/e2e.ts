/**
 * The one set-up of the browser (e2e) tests: the built `kikoplay serve` on a fresh data dir and an
 * ephemeral port (optionally over a scanned library), headless Chromium, an API client, accounts made
 * for the test that needs them, and pages that each open in a fresh browser context.
 *
 * Isolation: `servedApp` starts one server per test file (a server start and a scan cost seconds);
 * every page opened through it gets its own context (empty local storage, no cookies) that is closed
 * after the test, and each test makes the users and the data it changes itself (`app.addUser`), so no
 * test depends on what another one did or left, nor on their order. A test that changes what the whole
 * server shares (its config, the admin's password) starts a server of its own (`startServer`).
 */
import { cpSync } from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiLogin, launchChromium, openLoggedInPage, openPage, VIEWPORTS, type PageOptions } from './browser.js';
import { startCliServer, type CliServer, type CliServerOptions } from './cli-server.js';
import { scanLibraryInto } from './scanned-app.js';
import { tempDir } from './app.js';

export type Role = 'admin' | 'user' | 'guest';

export interface Account {
  name: string;
  password: string;
  token: string;
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/**
 * `api(method, path, body?, token?)` answers the body of a 2xx response and throws on anything else;
 * `api.call` answers status and body (null when not JSON) for tests about refusals. Without a token
 * the client's default one is sent (null: none).
 */
export interface Api {
  <T = unknown>(method: string, path: string, body?: unknown, token?: string | null): Promise<T>;
  call<T = Record<string, unknown> | null>(method: string, path: string, body?: unknown, token?: string | null): Promise<ApiAnswer<T>>;
}

export function apiClient(baseURL: string, defaultToken: () => string | null): Api {
  const call = async <T>(method: string, p: string, body?: unknown, token?: string | null): Promise<ApiAnswer<T>> => {
    const bearer = token === undefined ? defaultToken() : token;
    const headers: Record<string, string> = {};
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(baseURL + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T };
  };
  const api = async <T>(method: string, p: string, body?: unknown, token?: string | null): Promise<T> => {
    const res = await call<T>(method, p, body, token);
    if (res.status < 200 || res.status > 299) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return Object.assign(api, { call }) as Api;
}

export { apiLogin };

/** Log in through the login page the browser is on: fill both fields and press 登录. */
export async function loginThroughPage(page: Page, name: string, password: string): Promise<void> {
  await page.getByLabel('用户名').fill(name);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录' }).click();
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Page errors and CSP violations seen in this context. */
  errors: string[];
}

export interface OpenOptions {
  /** Start logged in with this account or token; null (the default without `as`): no token. */
  as?: Account | string | null;
  viewport?: PageOptions['viewport'];
  colorScheme?: PageOptions['colorScheme'];
  timezoneId?: PageOptions['timezoneId'];
  /** Default timeout of the context's actions and waits (ms; Playwright's 30 s when not given). */
  timeout?: number;
  /** Another server than the file's (one a test started for itself). */
  on?: { url: string };
}

/** A kikoplay serve of its own, its admin, and a client that speaks as that admin. */
export interface E2eServer {
  server: CliServer;
  url: string;
  dataDir: string;
  admin: Account;
  /** Speaks as the admin by default. */
  api: Api;
  /** A new account of `role`, unique on this server (`prefix` + a number), logged in through the API. */
  addUser(role: Role, prefix?: string): Promise<Account>;
  stop(): Promise<void>;
}

let nameCounter = 0;

/** A user name no other test of the run uses: `prefix`, the process id and a counter (5+ characters). */
export const uniqueName = (prefix: string): string => `${prefix}-${process.pid}-${++nameCounter}`;

/** Start the built server (see CliServerOptions) and log its first admin in. */
export async function startServer(opts: CliServerOptions = {}): Promise<E2eServer> {
  // several servers may start at once on a loaded machine: give the start-up line time
  const server = await startCliServer({ startTimeoutMs: 60_000, ...opts });
  if (!server.admin) {
    await server.stop();
    throw new Error(`no initial admin password was written:\n${server.output()}`);
  }
  const admin: Account = { ...server.admin, token: await apiLogin(server.url, server.admin.name, server.admin.password) };
  const api = apiClient(server.url, () => admin.token);
  return {
    server,
    url: server.url,
    dataDir: server.dataDir,
    admin,
    api,
    async addUser(role, prefix = role) {
      const name = uniqueName(prefix);
      const password = `${name}-pass`;
      // the API creates users and guests; an admin is a user given the role
      await api('POST', '/api/credentials/user', { name, password, group: role === 'admin' ? 'user' : role });
      if (role === 'admin') await api('PUT', '/api/credentials/user/role', { name, role });
      return { name, password, token: await apiLogin(server.url, name, password) };
    },
    stop: () => server.stop(),
  };
}

export interface ServedAppOptions extends CliServerOptions {
  /**
   * A library to register as the root folder `lib` and scan offline (the real `kikoplay scan`) before
   * the server starts: made once for the file by this function, removed by `cleanup` after it.
   */
  library?: () => Promise<{ root: string; cleanup?: () => void }>;
  /** Data every test of the file reads and none changes, made once through the API after the start. */
  seed?: (app: E2eServer) => Promise<void>;
}

/** What `servedApp` hands the tests (its fields are set by the file's beforeAll). */
export interface ServedApp extends E2eServer {
  browser: Browser;
  /** The library's root on disk (with `library`). */
  libRoot: string;
  /** A page in a fresh browser context, closed after the running test. */
  open(opts?: OpenOptions): Promise<OpenedPage>;
  /**
   * A server of the running test's own on a fresh data dir, stopped after the test: for a test that
   * changes what the whole server shares (config, folders, a scan). With `scanned`: that library root,
   * scanned offline as the root folder `lib` before the start.
   */
  ownServer(opts?: CliServerOptions & { scanned?: string }): Promise<E2eServer>;
}

/**
 * Register the file's hooks: before all, the server (with `library`: scanned first) and Chromium;
 * after each test, the contexts the test opened are closed; after all, everything is stopped and removed.
 */
export function servedApp(opts: ServedAppOptions = {}): ServedApp {
  let started: E2eServer | undefined;
  let browser: Browser | undefined;
  let libRoot = '';
  let cleanupLibrary: (() => void) | undefined;
  const contexts = new Set<BrowserContext>();
  const servers = new Set<E2eServer>();
  const scannedTemplates = new Map<string, Promise<string>>();
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`${what} is not started yet (servedApp's beforeAll)`);
    return v;
  };

  beforeAll(async () => {
    const library = async () => {
      if (!opts.library) return undefined;
      const lib = await opts.library();
      libRoot = lib.root;
      cleanupLibrary = lib.cleanup;
      const dataDir = opts.dataDir ?? tempDir('kikoplay-e2e-');
      await scanLibraryInto(dataDir, lib.root);
      return dataDir;
    };
    const [dataDir, launched] = await Promise.all([library(), launchChromium()]);
    browser = launched;
    started = await startServer({ ...opts, dataDir: dataDir ?? opts.dataDir });
    if (opts.seed) await opts.seed(started);
  }, 120_000);

  afterEach(async () => {
    const open = [...contexts];
    contexts.clear();
    await Promise.all(open.map((c) => c.close()));
    const own = [...servers];
    servers.clear();
    await Promise.all(own.map((s) => s.stop()));
  });

  afterAll(async () => {
    await browser?.close();
    await started?.stop();
    cleanupLibrary?.();
  });

  return {
    get server() {
      return need(started, 'the server').server;
    },
    get url() {
      return need(started, 'the server').url;
    },
    get dataDir() {
      return need(started, 'the server').dataDir;
    },
    get admin() {
      return need(started, 'the server').admin;
    },
    get api() {
      return need(started, 'the server').api;
    },
    get browser() {
      return need(browser, 'the browser');
    },
    get libRoot() {
      return libRoot;
    },
    addUser: (role, prefix) => need(started, 'the server').addUser(role, prefix),
    stop: () => need(started, 'the server').stop(),
    async open(o = {}) {
      const pageOpts: PageOptions = { baseURL: o.on?.url ?? need(started, 'the server').url, viewport: o.viewport ?? VIEWPORTS.desktop, colorScheme: o.colorScheme, timezoneId: o.timezoneId };
      const token = typeof o.as === 'string' ? o.as : (o.as?.token ?? null);
      const opened = token ? await openLoggedInPage(need(browser, 'the browser'), token, pageOpts) : await openPage(need(browser, 'the browser'), pageOpts);
      contexts.add(opened.context);
      if (o.timeout) opened.context.setDefaultTimeout(o.timeout);
      return opened;
    },
    async ownServer({ scanned, ...o } = {}) {
      let dataDir = o.dataDir;
      if (scanned) {
        // scanned once per library into a template; each server gets a copy of it
        let template = scannedTemplates.get(scanned);
        if (!template) {
          const dir = tempDir('kikoplay-e2e-scanned-');
          template = scanLibraryInto(dir, scanned).then(() => dir);
          scannedTemplates.set(scanned, template);
        }
        dataDir ??= tempDir('kikoplay-e2e-');
        cpSync(await template, dataDir, { recursive: true });
      }
      const own = await startServer({ ...o, dataDir });
      servers.add(own);
      return own;
    },
  };
}
