import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../app/services.js';
import type { ApiErrorCode } from '../domain/error-codes.js';
import { createHttpApp, type HttpAppOptions } from './app.js';
import { AdminHub } from '../realtime/admin-hub.js';
import { tuneHeapGrowthForServer } from './heap-growth.js';
import { httpLimits } from './limits.js';
import { OriginPolicy } from './origin-policy.js';
import { rawSecurityHeaders, SECURITY_HEADERS } from './middleware/security-headers.js';

export interface RunningServer {
  server: http.Server;
  hub: AdminHub;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** node's own answers to requests its parser refuses (see `socketOnError` in node's _http_server). */
const CLIENT_ERRORS: Record<string, [number, string, string, ApiErrorCode]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', '请求的 URL 或请求头过长', 'HEADERS_TOO_LARGE'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', '请求体的分块扩展过长', 'PAYLOAD_TOO_LARGE'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', '请求超时', 'REQUEST_TIMEOUT'],
};

/** The API's `{ "error": …, "code": … }` body on a socket node hands over without a response object. */
function rawAnswer(socket: Duplex, status: number, reason: string, message: string, code: ApiErrorCode): void {
  const body = JSON.stringify({ error: message, code });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${rawSecurityHeaders()}Connection: close\r\n\r\n${body}`);
}

/** The same body on a response node made before Koa: the connection is closed after it. */
function answer(res: http.ServerResponse, status: number, message: string, code: ApiErrorCode): void {
  const body = JSON.stringify({ error: message, code });
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}

/**
 * Requests node's parser refuses before Koa sees them (a URL or headers over 16 KB, a malformed request
 * line, a request that took too long to arrive) get node's status with the API's `{ "error": …, "code": … }` body
 * instead of an empty one.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const headerSent = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || headerSent) {
    socket.destroy();
    return;
  }
  const [status, reason, message, code] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request', '无效的 HTTP 请求', 'BAD_REQUEST'];
  rawAnswer(socket, status, reason, message, code);
}

/** Start the HTTP server. Port 0 picks a free port (tests). */
export async function startHttpServer(app: AppContext, opts: HttpAppOptions & { port: number; host?: string }): Promise<RunningServer> {
  tuneHeapGrowthForServer();
  const limits = httpLimits(opts.limits);
  const originPolicy = new OriginPolicy(() => app.store.get(), opts.host);
  const koa = createHttpApp(app, { ...opts, originPolicy });
  const koaHandle = koa.callback();
  // node's own check of a missing Host (HTTP/1.1 requires one) answers with an empty body: this one says why
  const handle: http.RequestListener = (req, res) => {
    if (req.headers.host === undefined && req.httpVersion === '1.1') answer(res, 400, '请求缺少 Host 请求头', 'BAD_REQUEST');
    else void koaHandle(req, res);
  };
  // node checks the request and headers timeouts every `connectionsCheckingInterval` ms
  const checkEvery = Math.max(100, Math.min(5_000, Math.floor(Math.min(limits.requestTimeoutMs, limits.headersTimeoutMs) / 4)));
  const server = http.createServer({ connectionsCheckingInterval: checkEvery, requireHostHeader: false }, handle);
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  // `Expect: 100-continue` is answered by the route that reads the body, after its access check: a
  // client that waits for it never sends a body to a route that refuses it.
  server.on('checkContinue', handle);
  server.on('clientError', answerClientError);
  // any other expectation, and CONNECT (no proxying here), also answer in the API's form
  server.on('checkExpectation', (_req: http.IncomingMessage, res: http.ServerResponse) => answer(res, 417, '不支持的 Expect 请求头', 'BAD_REQUEST'));
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => rawAnswer(socket, 405, 'Method Not Allowed', '不支持 CONNECT 请求', 'METHOD_NOT_ALLOWED'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const hub = new AdminHub({
    users: app.services.users,
    usersChangeStamp: () => app.repos.users.changeStamp(),
    authEnabled: () => app.store.get().auth,
    feed: app.services.scan,
    originPolicy,
    logger: app.logger,
  });
  hub.attach(server);
  const port = (server.address() as AddressInfo).port;
  const shownHost = !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? 'localhost' : opts.host;
  return {
    server,
    hub,
    port,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    close: () =>
      hub.close().then(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
  };
}
