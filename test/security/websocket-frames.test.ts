/**
 * Issue 17 item 2 (and the socket half of item 6): nothing a client sends to /api/ws ends the server.
 * Each case does the upgrade by hand over a real TCP socket, sends what a hostile client would (an
 * unmasked frame, a frame over maxPayload, garbage, a bad frame while the token is being checked),
 * then checks the server cut that socket and still answers HTTP. Upgrades from another origin or to
 * another host name are refused.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH } from '../../server/contract/realtime.js';
import { startTestServer, type TestServer } from '../helpers/app.js';

interface RawUpgrade {
  socket: net.Socket;
  /** The status line and headers of the server's answer. */
  head: string;
  /** Bytes after the head (frames the server sent). */
  rest: Buffer;
  closed: Promise<void>;
}

/** Open a TCP connection, send the upgrade request (plus `after`, in the same write), read the answer's head. */
function rawUpgrade(port: number, opts: { path?: string; headers?: Record<string, string>; after?: Buffer } = {}): Promise<RawUpgrade> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined); // the server may reset it: that is its right
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    const headers: Record<string, string> = {
      Host: `127.0.0.1:${port}`,
      Upgrade: 'websocket',
      Connection: 'Upgrade',
      'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      'Sec-WebSocket-Version': '13',
      ...opts.headers,
    };
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => reject(new Error(`no upgrade answer; got ${JSON.stringify(buf.toString())}`)), 10_000);
    socket.on('data', function onData(chunk: Buffer) {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      clearTimeout(timer);
      socket.off('data', onData);
      resolve({ socket, head: buf.subarray(0, end).toString(), rest: buf.subarray(end + 4), closed });
    });
    socket.once('close', () => {
      clearTimeout(timer);
      if (!buf.includes('\r\n\r\n')) reject(new Error(`closed before answering; got ${JSON.stringify(buf.toString())}`));
    });
    const request = `GET ${opts.path ?? WS_PATH} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    socket.write(opts.after ? Buffer.concat([Buffer.from(request), opts.after]) : Buffer.from(request));
  });
}

/** A client frame sent WITHOUT the mask a client must use (RFC 6455 §5.1). */
const unmaskedFrame = () => Buffer.concat([Buffer.from([0x81, 0x05]), Buffer.from('hello')]);

/** A masked frame header announcing a 1 MiB payload (maxPayload is 64 KiB), with a little of it. */
function oversizedFrame(): Buffer {
  const header = Buffer.alloc(14);
  header[0] = 0x82;
  header[1] = 0x80 | 127;
  header.writeBigUInt64BE(BigInt(1024 * 1024), 2);
  randomBytes(4).copy(header, 10);
  return Buffer.concat([header, randomBytes(1024)]);
}

/** Bytes that are no frame at all (reserved bits, a reserved opcode). */
const garbage = () => Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff]), randomBytes(64)]);

describe('admin socket under hostile frames', () => {
  let t: TestServer;
  let adminToken: string;
  const uncaught: unknown[] = [];
  const record = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', record);
    t = await startTestServer();
    await t.addUser('admin', 'adminpass', 'admin');
    adminToken = await t.login('admin', 'adminpass');
  });

  afterAll(async () => {
    process.off('uncaughtException', record);
    await t?.close();
  });

  afterEach(async () => {
    // the process is alive: no unhandled error, and HTTP still answers
    expect(uncaught.splice(0).map((e) => String(e))).toEqual([]);
    expect((await t.json('GET', '/api/health')).status).toBe(200);
  });

  /** The server must close the socket by itself, soon. */
  const cutSoon = (up: RawUpgrade) => expect(Promise.race([up.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 8_000))])).resolves.toBe('closed');

  for (const [name, frame] of [
    ['an unmasked frame', unmaskedFrame],
    ['a frame over maxPayload', oversizedFrame],
    ['garbage', garbage],
  ] as const) {
    it(`survives ${name} on a socket refused for having no token`, async () => {
      const up = await rawUpgrade(t.server.port);
      expect(up.head).toMatch(/^HTTP\/1\.1 101 /);
      up.socket.write(frame());
      await cutSoon(up);
    });

    it(`survives ${name} sent while an admin's token is still being checked`, async () => {
      // a fresh token (not in the token cache): the check has to read the database
      const token = await t.login('admin', 'adminpass');
      const up = await rawUpgrade(t.server.port, { path: `${WS_PATH}?token=${encodeURIComponent(token)}`, after: frame() });
      expect(up.head).toMatch(/^HTTP\/1\.1 101 /);
      await cutSoon(up);
    });

    it(`survives ${name} on an admitted admin socket`, async () => {
      const up = await rawUpgrade(t.server.port, { path: `${WS_PATH}?token=${encodeURIComponent(adminToken)}` });
      expect(up.head).toMatch(/^HTTP\/1\.1 101 /);
      await new Promise((r) => setTimeout(r, 100));
      up.socket.write(frame());
      await cutSoon(up);
    });
  }

  it('survives a client that resets the connection in the middle of the upgrade', async () => {
    for (let i = 0; i < 5; i++) {
      const socket = net.connect(t.server.port, '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `GET ${WS_PATH}?token=${encodeURIComponent(adminToken)} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
      socket.resetAndDestroy();
    }
    await new Promise((r) => setTimeout(r, 200));
  });

  it('cuts a refused socket that never answers the close handshake', async () => {
    const up = await rawUpgrade(t.server.port);
    expect(up.head).toMatch(/^HTTP\/1\.1 101 /);
    // no reply to the server's close frame at all
    await cutSoon(up);
  });

  it('refuses an upgrade from another origin with 403 before any token is looked at', async () => {
    const up = await rawUpgrade(t.server.port, { path: `${WS_PATH}?token=${encodeURIComponent(adminToken)}`, headers: { Origin: 'https://evil.example' } });
    expect(up.head).toMatch(/^HTTP\/1\.1 403 /);
    expect(up.head).toMatch(/X-Content-Type-Options: nosniff/i);
    expect(JSON.parse(up.rest.toString()).error).toContain('allowedOrigins');
    await cutSoon(up);
  });

  it('refuses an upgrade whose Host is not this server (DNS rebinding) with 421', async () => {
    const up = await rawUpgrade(t.server.port, { headers: { Host: 'attacker.example', Origin: 'http://attacker.example' } });
    expect(up.head).toMatch(/^HTTP\/1\.1 421 /);
    expect(JSON.parse(up.rest.toString()).error).toContain('publicHosts');
  });

  it('admits the same origin, an allowed origin and a client that sends no Origin', async () => {
    const admitted = async (headers: Record<string, string>) => {
      const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}${WS_PATH}?token=${encodeURIComponent(adminToken)}`, { headers });
      const first = await new Promise<string>((resolve, reject) => {
        ws.once('message', (data) => resolve(JSON.parse(data.toString()).event));
        ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
        ws.once('error', reject);
      });
      ws.close();
      return first;
    };
    expect(await admitted({ Origin: `http://127.0.0.1:${t.server.port}` })).toBe('success');
    expect(await admitted({ Origin: `http://localhost:${t.server.port}`, Host: `localhost:${t.server.port}` })).toBe('success');
    expect(await admitted({})).toBe('success');
    t.app.store.update({ allowedOrigins: ['https://dashboard.example'] });
    try {
      expect(await admitted({ Origin: 'https://dashboard.example' })).toBe('success');
    } finally {
      t.app.store.update({ allowedOrigins: [] });
    }
  });
});

describe('admin socket with auth off', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ flags: { auth: false } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('refuses a cross-origin upgrade even though everyone is the admin', async () => {
    const up = await rawUpgrade(t.server.port, { headers: { Origin: 'https://evil.example' } });
    expect(up.head).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('keeps the anonymous admin socket open and working through user changes', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}${WS_PATH}`);
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString()).event));
    await expect.poll(() => frames).toContain('success');
    await t.addUser('someone', 'someonepass', 'admin');
    await t.app.repos.users.setRole((await t.app.repos.users.byName('someone'))!.id, 'guest');
    await new Promise((r) => setTimeout(r, 600));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.send(JSON.stringify({ event: 'ON_SCANNER_PAGE' }));
    await expect.poll(() => frames).toContain('SCAN_INIT_STATE');
    ws.close();
  });
});

describe('a server stop with admin sockets open', () => {
  it('is not held up by a client that never answers the close handshake, nor by one whose token is being checked', async () => {
    const t = await startTestServer();
    let stopping: Promise<void> | undefined;
    try {
      await t.addUser('admin', 'adminpass', 'admin');
      const admitted = await rawUpgrade(t.server.port, { path: `${WS_PATH}?token=${encodeURIComponent(await t.login('admin', 'adminpass'))}` });
      expect(admitted.head).toMatch(/^HTTP\/1\.1 101 /);
      await expect.poll(() => t.server.hub.connectedClients).toBe(1);
      // a fresh token (not in the token cache): its check reads the database while the stop begins
      const checking = await rawUpgrade(t.server.port, { path: `${WS_PATH}?token=${encodeURIComponent(await t.login('admin', 'adminpass'))}` });
      expect(checking.head).toMatch(/^HTTP\/1\.1 101 /);
      // neither client answers the close frame it is sent
      const started = Date.now();
      stopping = t.close();
      const stopped = stopping.then(() => Date.now() - started);
      const outcome = await Promise.race([stopped, new Promise((r) => setTimeout(() => r('still stopping after 10 s'), 10_000))]);
      expect(typeof outcome === 'number' && outcome < 10_000 ? 'stopped' : outcome).toBe('stopped');
      await Promise.all([admitted.closed, checking.closed]);
    } finally {
      await (stopping ?? t.close());
    }
  });
});
