/** The port `serve` listens on: free, taken by this data dir's own server (which one), or by something else. */
import net from 'node:net';
import { readServerInfo } from '../../app/server-info.js';
import { finding, type Finding } from './findings.js';

/** Try to listen where `serve` would; the error code when it cannot. */
function tryListen(port: number, host: string | undefined): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'EADDRINUSE'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

export async function checkPort(dataDir: string, port: number, host: string | undefined): Promise<Finding[]> {
  const where = host ?? '0.0.0.0 / ::';
  const ours = readServerInfo(dataDir);
  if (ours && ours.port === port) return [finding('port', 'ok', 'portOurs', { port, pid: ours.pid, since: ours.startedAt })];
  const code = await tryListen(port, host);
  if (code === null) return [finding('port', 'ok', 'portFree', { port, host: where })];
  if (code === 'EACCES' || code === 'EPERM') return [finding('port', 'problem', 'portNoPermission', { port })];
  return [finding('port', 'problem', 'portOther', { port, host: where })];
}
