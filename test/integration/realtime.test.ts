/**
 * The admin socket (docs/API.md#admin-socket): `ws` at /api/ws?token=…, JSON frames
 * `{event, payload}`, admin only, incremental scan events, a snapshot on ON_SCANNER_PAGE, and scans
 * started by another process (`kikoplay scan`) followed live. Real app, real generated library on disk,
 * real `ws` clients; the built CLI for the other process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORIZED, WS_PATH, type Frame } from '../../server/contract/realtime.js';
import type { MetadataResult, MetadataSource } from '../../server/library/scrapers/metadata-types.js';
import { makeTestLibrary, OFFLINE_SITES, startLibraryServer, type LibraryServer } from '../helpers/library.js';
import { runCli } from '../helpers/run-cli.js';

type Lib = Awaited<ReturnType<typeof makeTestLibrary>>;

interface LogLine {
  level: string;
  message: string;
}
interface Snapshot {
  status: null | 'running' | 'finished' | 'error';
  runId: number | null;
  kind: string | null;
  tasks: { rjcode: string; logs: LogLine[] }[];
  failedTasks: { rjcode: string; result: string; logs: LogLine[] }[];
  mainLogs: LogLine[];
  results: { rjcode: string; result: string; count: number }[];
  finishedMessage: string | null;
}

const WAIT_MS = 15_000;

/** A socket client that records every frame and can wait for one that matches. */
class AdminSocket {
  readonly frames: Frame[] = [];
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(readonly ws: WebSocket) {
    this.opened = new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
  }

  send(event: string): void {
    this.ws.send(JSON.stringify({ event }));
  }

  /** The first frame (already received or still to come, from index `from`) that matches. */
  next(match: (f: Frame) => boolean, from = 0, what = 'frame'): Promise<Frame> {
    const seen = this.frames.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${WAIT_MS} ms; got ${this.frames.map((f) => f.event).join(', ')}`)), WAIT_MS);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  event(name: string, from = 0): Promise<Frame> {
    return this.next((f) => f.event === name, from, name);
  }

  /** Main-log messages received since `from`. */
  mainLogs(from = 0): LogLine[] {
    return this.frames.slice(from).flatMap((f) => (f.event === 'SCAN_MAIN_LOGS' ? (f.payload as { mainLogs: LogLine[] }).mainLogs : []));
  }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close();
    return this.closed;
  }
}

/** A metadata source that fails at once ("offline"), or holds every request until the scan is killed. */
function gatedSource(): { source: MetadataSource; hold: { on: boolean }; requests: { n: number } } {
  const hold = { on: false };
  const requests = { n: 0 };
  const waitForAbort = (signal?: AbortSignal) =>
    new Promise<never>((_resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  const source: MetadataSource = {
    async fetch(_id, signal): Promise<MetadataResult> {
      requests.n++;
      if (hold.on) return waitForAbort(signal);
      return { ok: false, notFound: false, error: 'DLsite unreachable (test)', warnings: [] };
    },
    async fetchCover(_id, _type, signal) {
      if (hold.on) return waitForAbort(signal);
      return null;
    },
  };
  return { source, hold, requests };
}

describe('admin socket', () => {
  let lib: Lib;
  let t: LibraryServer;
  let adminToken: string;
  let userToken: string;
  let guestToken: string;
  const gate = gatedSource();
  const sockets: AdminSocket[] = [];

  const connect = (token: string | null, param = 'token'): AdminSocket => {
    const url = `${t.url.replace('http', 'ws')}${WS_PATH}${token === null ? '' : `?${param}=${encodeURIComponent(token)}`}`;
    const s = new AdminSocket(new WebSocket(url));
    sockets.push(s);
    return s;
  };
  const admin = async (): Promise<AdminSocket> => {
    const s = connect(adminToken);
    await s.event('success');
    return s;
  };
  /** The run's end is recorded just after SCAN_FINISHED goes out; a new start waits for that. */
  const idle = () => expect.poll(() => t.app.services.scan.isRunning()).toBe(false);
  const snapshot = async (s: AdminSocket): Promise<Snapshot> => {
    const from = s.frames.length;
    s.send('ON_SCANNER_PAGE');
    return (await s.event('SCAN_INIT_STATE', from)).payload as Snapshot;
  };

  beforeAll(async () => {
    lib = await makeTestLibrary();
    t = await startLibraryServer({ flags: { ...OFFLINE_SITES }, scanner: { metadataSource: () => gate.source } });
    // rootFolders go to config.json (not a flag) so a `kikoplay scan` in another process sees them too
    t.app.store.update({ rootFolders: [{ name: 'lib', path: lib.root }] });
    await t.addUser('admin', 'adminpass', 'admin');
    await t.addUser('listener', 'listenerpass', 'user');
    await t.addUser('visitor', 'visitorpass', 'guest');
    [adminToken, userToken, guestToken] = await Promise.all([t.login('admin', 'adminpass'), t.login('listener', 'listenerpass'), t.login('visitor', 'visitorpass')]);
  });

  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await t?.close();
    lib?.cleanup();
  });

  it('greets an admin with success, naming the user', async () => {
    const s = connect(adminToken);
    const hello = await s.event('success');
    expect(hello.payload).toMatchObject({ message: '成功登录管理后台.', user: { name: 'admin', group: 'administrator', logged_in: true }, auth: true });
    // the kikoeru handshake name for the token is accepted as well
    const legacy = connect(adminToken, 'auth_token');
    expect((await legacy.event('success')).payload).toMatchObject({ user: { name: 'admin' } });
    await Promise.all([s.close(), legacy.close()]);
  });

  it('refuses a missing or bad token with an error frame and close code 4401', async () => {
    for (const [token, message, reason] of [
      [null, 'No auth token', 'TOKEN_MISSING'],
      ['not-a-jwt', null, 'SESSION_EXPIRED'],
      [adminToken.slice(0, -4) + 'AAAA', null, 'SESSION_EXPIRED'],
    ] as const) {
      const s = connect(token);
      const err = await s.event('error');
      expect(err.payload, String(token)).toMatchObject({ code: CLOSE_UNAUTHORIZED, reason });
      if (message) expect((err.payload as { message: string }).message).toBe(message);
      else expect((err.payload as { message: string }).message.length).toBeGreaterThan(0);
      const closed = await s.closed;
      expect(closed.code, String(token)).toBe(CLOSE_UNAUTHORIZED);
      expect(s.frames.some((f) => f.event === 'success')).toBe(false);
    }
  });

  it('refuses users and guests with 只有 admin 账号能登录管理后台. and close code 4403', async () => {
    for (const token of [userToken, guestToken]) {
      const s = connect(token);
      const err = await s.event('error');
      expect(err.payload).toMatchObject({ message: '只有 admin 账号能登录管理后台.', code: CLOSE_FORBIDDEN, reason: 'ADMIN_ONLY' });
      expect((await s.closed).code).toBe(CLOSE_FORBIDDEN);
    }
  });

  it('refuses a token of a deleted user', async () => {
    await t.addUser('leaving1', 'leavingpass', 'admin');
    const token = await t.login('leaving1', 'leavingpass');
    const res = await t.json('DELETE', '/api/credentials/user', { token: adminToken, body: { users: [{ name: 'leaving1' }] } });
    expect(res.status).toBe(200);
    const s = connect(token);
    await s.event('error');
    expect((await s.closed).code).toBe(CLOSE_UNAUTHORIZED);
  });

  it('answers ON_SCANNER_PAGE with an empty snapshot before any scan', async () => {
    const s = await admin();
    const snap = await snapshot(s);
    expect(snap.status).toBeNull();
    expect(snap.runId).toBeNull();
    expect(snap).toMatchObject({ tasks: [], failedTasks: [], mainLogs: [], results: [] });
    await s.close();
  });

  it('takes KILL_SCAN_PROCESS with nothing running, and bad frames, without harm', async () => {
    const s = await admin();
    s.send('KILL_SCAN_PROCESS');
    s.ws.send('not json');
    const bad = await s.event('error');
    expect(bad.payload).toEqual({ message: 'invalid message', reason: 'BAD_REQUEST' });
    const from = s.frames.length;
    s.send('NO_SUCH_EVENT');
    // named, but not repeated back: error answers never echo input
    expect(((await s.event('error', from)).payload as { message: string }).message).toBe('unknown event');
    // still connected and answering; nothing started
    const snap = await snapshot(s);
    expect(snap.status).toBeNull();
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    expect((await t.json('GET', '/api/health')).status).toBe(200);
    await s.close();
  });

  it('streams PERFORM_SCAN to every admin: running snapshot, logs, tasks, results with full codes, finished', async () => {
    const a = await admin();
    const b = await admin();
    a.send('PERFORM_SCAN');
    for (const s of [a, b]) {
      const init = (await s.event('SCAN_INIT_STATE')).payload as Snapshot;
      expect(init.status).toBe('running');
      expect(init.kind).toBe('scan');
    }
    const finished = await a.event('SCAN_FINISHED');
    await b.event('SCAN_FINISHED');
    expect((finished.payload as { message: string }).message).toMatch(/^扫描完成: 新增 \d+ 个，更新 \d+ 个，跳过 \d+ 个，失败 \d+ 个\.$/);
    expect(a.frames.some((f) => f.event === 'SCAN_ERROR')).toBe(false);

    const logs = a.mainLogs().map((l) => l.message);
    expect(logs.some((m) => /^共找到 \d+ 个音声文件夹\.$/.test(m))).toBe(true);
    expect(logs).toContain('发现 1 个重复的音声文件夹.');

    // incremental: each SCAN_MAIN_LOGS frame carries only its new line(s), never the whole log again
    const mainFrames = a.frames.filter((f) => f.event === 'SCAN_MAIN_LOGS');
    expect(mainFrames.length).toBeGreaterThan(1);
    for (const f of mainFrames) expect((f.payload as { mainLogs: LogLine[] }).mainLogs.length).toBe(1);

    const taskFrames = a.frames.filter((f) => f.event === 'SCAN_TASKS').map((f) => f.payload as { tasks: { rjcode: string; logs: LogLine[] }[]; removed?: string[] });
    const taskLogs = taskFrames.flatMap((p) => p.tasks.flatMap((task) => task.logs.map((l) => `[${task.rjcode}] ${l.message}`)));
    expect(taskLogs.some((l) => l.startsWith('[RJ100001] 发现新文件夹: "'))).toBe(true);
    expect(taskLogs.some((l) => /^\[RJ100001\] 添加成功! Added: \d+$/.test(l))).toBe(true);
    expect(taskFrames.some((p) => p.removed?.includes('RJ100001'))).toBe(true);

    const results = a.frames.filter((f) => f.event === 'SCAN_RESULTS').flatMap((f) => (f.payload as Snapshot).results);
    const added = results.filter((r) => r.result === 'added');
    const indexed = (await t.app.db.all<{ n: number }>('SELECT COUNT(*) AS n FROM works'))[0].n;
    expect(added.length).toBe(indexed); // every listed work (and the "locked" one when running as root)
    expect(indexed).toBeGreaterThanOrEqual(lib.listed.length);
    expect(added.map((r) => r.count)).toEqual(added.map((_r, i) => i + 1)); // running total
    for (const code of ['RJ100001', 'RJ01000001', 'BJ200001', 'VJ300001']) expect(results.map((r) => r.rjcode)).toContain(code);

    // both admins saw the same stream
    expect(b.frames.filter((f) => f.event === 'SCAN_RESULTS').length).toBe(a.frames.filter((f) => f.event === 'SCAN_RESULTS').length);

    // a dashboard opened afterwards gets the finished run as a snapshot
    const late = await admin();
    const snap = await snapshot(late);
    expect(snap.status).toBe('finished');
    expect(snap.results.filter((r) => r.result === 'added').length).toBe(indexed);
    expect(snap.finishedMessage).toBe((finished.payload as { message: string }).message);
    expect(snap.tasks).toEqual([]);
    await Promise.all([a.close(), b.close(), late.close()]);
  });

  it('streams PERFORM_LYRIC_SCAN (scan work files) to its finish', async () => {
    await idle();
    const s = await admin();
    s.send('PERFORM_LYRIC_SCAN');
    const init = (await s.event('SCAN_INIT_STATE')).payload as Snapshot;
    expect(init.kind).toBe('files');
    const finished = await s.event('SCAN_FINISHED');
    expect((finished.payload as { message: string }).message).toMatch(/^扫描完成: 更新 \d+ 个，失败 \d+ 个，跳过 \d+ 个\.$/);
    const logs = s.mainLogs().map((l) => l.message);
    expect(logs).toContain('扫描本地文件开始');
    expect(logs.some((m) => /^总计 \d+ 个作品$/.test(m))).toBe(true);
    await s.close();
  });

  it('refuses a second start while one runs, and KILL_SCAN_PROCESS stops PERFORM_UPDATE with SCAN_ERROR', async () => {
    gate.hold.on = true;
    const before = gate.requests.n;
    try {
      await idle();
      const s = await admin();
      s.send('PERFORM_UPDATE');
      const init = (await s.event('SCAN_INIT_STATE')).payload as Snapshot;
      expect(init).toMatchObject({ status: 'running', kind: 'refresh' });
      await s.next((f) => f.event === 'SCAN_MAIN_LOGS' && (f.payload as { mainLogs: LogLine[] }).mainLogs.some((l) => l.message.includes('开始刷新')), 0, 'refresh start');
      await expect.poll(() => gate.requests.n).toBeGreaterThan(before); // the refresh waits on "DLsite"

      // a second start is refused with a warning line; the running job goes on
      const mark = s.frames.length;
      s.send('PERFORM_SCAN');
      const warn = await s.next((f) => f.event === 'SCAN_MAIN_LOGS' && (f.payload as { mainLogs: LogLine[] }).mainLogs[0].level === 'warn', mark, 'busy warning');
      expect((warn.payload as { mainLogs: LogLine[] }).mainLogs[0].message).toContain('另一个扫描任务正在进行中');
      // the refused client first gets the real state (its button already said "running")
      const refusedWith = s.frames.slice(mark, s.frames.indexOf(warn)).find((f) => f.event === 'SCAN_INIT_STATE');
      expect(refusedWith?.payload).toMatchObject({ status: 'running', kind: 'refresh' });
      expect((await snapshot(s)).status).toBe('running');

      const killFrom = s.frames.length;
      s.send('KILL_SCAN_PROCESS');
      const finished = await s.event('SCAN_FINISHED', killFrom);
      await s.event('SCAN_ERROR', killFrom);
      expect((finished.payload as { status: string }).status).toBe('cancelled');
      expect(s.mainLogs(killFrom).map((l) => l.message)).toContain(' ! 终止扫描进程.');
      const snap = await snapshot(s);
      expect(snap.status).toBe('error');
      expect(snap.tasks).toEqual([]);
      await idle();

      // killing again with nothing left running is harmless
      s.send('KILL_SCAN_PROCESS');
      expect((await snapshot(s)).status).toBe('error');
      await s.close();
    } finally {
      gate.hold.on = false;
    }
  });

  it('follows a scan started by `kikoplay scan` in another process, live', async () => {
    await idle();
    const s = await admin();
    const before = (await snapshot(s)).runId!;
    const from = s.frames.length;
    const cli = runCli(['--data-dir', t.dataDir, 'scan', '--offline', '--full', '--json'], { timeoutMs: 60_000 });
    const init = await s.next((f) => f.event === 'SCAN_INIT_STATE' && (f.payload as Snapshot).runId !== before && (f.payload as Snapshot).status === 'running', from, 'the other run starting');
    const runId = (init.payload as Snapshot).runId!;
    expect(runId).toBeGreaterThan(before);
    expect((init.payload as Snapshot).kind).toBe('scan');
    const finished = await s.event('SCAN_FINISHED', from);
    const result = await cli;
    expect(result.code, result.stderr).toBe(0);
    expect((finished.payload as { message: string }).message).toMatch(/^扫描完成: /);
    // the same lines the other process printed as JSON
    const printed = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; message?: string })
      .filter((e) => e.type === 'main-log')
      .map((e) => e.message);
    const seen = s.mainLogs(from).map((l) => l.message);
    expect(printed.length).toBeGreaterThan(0);
    for (const line of printed) expect(seen).toContain(line);
    expect(s.frames.slice(from).some((f) => f.event === 'SCAN_TASKS')).toBe(true);
    // and a dashboard opened now sees that run
    const late = await admin();
    const snap = await snapshot(late);
    expect(snap.runId).toBe(runId);
    expect(snap.status).toBe('finished');
    await Promise.all([s.close(), late.close()]);
  });

  describe('sockets lose what their user loses (issue 17 item 3)', () => {
    /** Resolves with the close code, or null when the socket is still open after `ms`. */
    const closedWithin = (s: AdminSocket, ms = 5_000) => Promise.race([s.closed.then((c) => c.code), new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
    const scanLogsSince = (s: AdminSocket, from: number) => s.frames.slice(from).filter((f) => f.event.startsWith('SCAN_'));
    const adminOf = async (name: string): Promise<AdminSocket> => {
      await t.addUser(name, `${name}-pass`, 'admin');
      const s = connect(await t.login(name, `${name}-pass`));
      await s.event('success');
      return s;
    };
    /** A full scan run from the main admin's socket, to its end. */
    const runScan = async () => {
      await idle();
      const a = await admin();
      a.send('PERFORM_SCAN');
      await a.event('SCAN_FINISHED');
      await a.close();
      await idle();
    };

    it('an admin demoted to guest is closed at once: its start command is refused and no scan log reaches it', async () => {
      await idle();
      const s = await adminOf('demoted1');
      const mark = s.frames.length;
      const res = await t.json('PUT', '/api/credentials/user/role', { token: adminToken, body: { name: 'demoted1', role: 'guest' } });
      expect(res.status).toBe(200);
      // sent before the hub could notice the change by itself: the command's own re-check refuses it
      s.send('PERFORM_SCAN');
      expect([CLOSE_UNAUTHORIZED, CLOSE_FORBIDDEN]).toContain(await closedWithin(s));
      expect(await t.app.services.scan.isRunning()).toBe(false);
      await runScan();
      expect(scanLogsSince(s, mark)).toEqual([]);
    });

    it('an admin whose password is changed (by another admin) is closed and gets no more scan logs', async () => {
      await idle();
      const s = await adminOf('rekeyed1');
      const mark = s.frames.length;
      const res = await t.json('PUT', '/api/credentials/user', { token: adminToken, body: { name: 'rekeyed1', newPassword: 'another-pass' } });
      expect(res.status).toBe(200);
      expect(await closedWithin(s)).toBe(CLOSE_UNAUTHORIZED);
      await runScan();
      expect(scanLogsSince(s, mark)).toEqual([]);
    });

    it('a deleted admin cannot kill the running scan and is closed', async () => {
      gate.hold.on = true;
      try {
        await idle();
        const s = await adminOf('leaving2');
        const a = await admin();
        a.send('PERFORM_UPDATE');
        await a.next((f) => f.event === 'SCAN_INIT_STATE' && (f.payload as Snapshot).status === 'running', 0, 'running');
        const res = await t.json('DELETE', '/api/credentials/user', { token: adminToken, body: { users: [{ name: 'leaving2' }] } });
        expect(res.status).toBe(200);
        s.send('KILL_SCAN_PROCESS');
        expect(await closedWithin(s)).toBe(CLOSE_UNAUTHORIZED);
        expect(await t.app.services.scan.isRunning()).toBe(true);
        const from = a.frames.length;
        a.send('KILL_SCAN_PROCESS');
        await a.event('SCAN_FINISHED', from);
        await a.close();
      } finally {
        gate.hold.on = false;
      }
      await idle();
    });

    it('a socket left open is closed by the hub itself when its user is demoted (no command needed)', async () => {
      const s = await adminOf('demoted2');
      await t.json('PUT', '/api/credentials/user/role', { token: adminToken, body: { name: 'demoted2', role: 'user' } });
      expect([CLOSE_UNAUTHORIZED, CLOSE_FORBIDDEN]).toContain(await closedWithin(s));
    });

    it('other admins stay connected through those changes', async () => {
      const s = await admin();
      await t.addUser('bystander', 'bystander-pass', 'guest');
      await t.json('PUT', '/api/credentials/user/role', { token: adminToken, body: { name: 'bystander', role: 'user' } });
      expect(await closedWithin(s, 1_000)).toBeNull();
      expect((await snapshot(s)).status).not.toBe('running');
      await s.close();
    });
  });

  it('answers a plain HTTP request to another path with 404 and leaves the server running', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/api/not-the-socket`);
    const status = await new Promise<number>((resolve) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', () => resolve(-1));
    });
    expect(status).toBe(404);
    expect((await t.json('GET', '/api/health')).status).toBe(200);
  });
});
