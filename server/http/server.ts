import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../app/services.js';
import { createHttpApp, type HttpAppOptions } from './app.js';
import { AdminHub } from '../realtime/admin-hub.js';
import { tuneHeapGrowthForServer } from './heap-growth.js';

export interface RunningServer {
  server: http.Server;
  hub: AdminHub;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Start the HTTP server. Port 0 picks a free port (tests). */
export async function startHttpServer(app: AppContext, opts: HttpAppOptions & { port: number; host?: string }): Promise<RunningServer> {
  tuneHeapGrowthForServer();
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
  const hub = new AdminHub({ users: app.services.users, authEnabled: () => app.store.get().auth, feed: app.services.scan, logger: app.logger });
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
