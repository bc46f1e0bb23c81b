import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../app/services.js';
import { createHttpApp, type HttpAppOptions } from './app.js';

export interface RunningServer {
  server: http.Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Start the HTTP server. Port 0 picks a free port (tests). */
export async function startHttpServer(app: AppContext, opts: HttpAppOptions & { port: number; host?: string }): Promise<RunningServer> {
  const koa = createHttpApp(app, opts);
  const server = http.createServer(koa.callback());
  server.requestTimeout = 5 * 60_000;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? 'localhost' : opts.host;
  return {
    server,
    port,
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
