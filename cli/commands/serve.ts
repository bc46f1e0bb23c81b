import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { configPath, writeFileAtomic } from '../../server/config/load.js';
import { PRIVATE_FILE_MODE } from '../../server/config/private-files.js';
import { watchFile, unwatchFile } from 'node:fs';
import type { Config } from '../../server/config/schema.js';
import { dataDirOf } from '../context.js';
import { webRoot } from '../paths.js';
import { CliError, displayWidth } from '../output/print.js';
import { cliText } from '../i18n/index.js';
import { removeServerInfo, writeServerInfo } from '../../server/app/server-info.js';
import { packageVersion } from '../../server/services/system-service.js';

/** `<data-dir>/initial-admin-password`: one labelled line each for the name and the password. */
export const initialAdminText = (name: string, password: string) => `user: ${name}\npassword: ${password}\n`;

interface ServeOptions {
  port?: string;
  host?: string;
  auth?: boolean;
}

/** True for an address only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false; // all interfaces
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}

/** The warning `serve` prints when anyone on the network would act as the admin. */
export function noAuthWarning(host: string | undefined): string {
  const w = cliText().messages.noAuthWarning;
  const where = host ? w.address(host) : w.allInterfaces;
  return boxed(w.title, [w.where(where), ...w.lines]);
}

/** A titled box of lines, as `serve` prints its notices. */
function boxed(title: string, lines: string[]): string {
  const top = `  ┌─ ${title} `;
  const width = 66;
  return ['', top + '─'.repeat(Math.max(3, width - displayWidth(top))), ...lines.map((l) => `  │ ${l}`), '  └' + '─'.repeat(width - 3), ''].join('\n');
}

/**
 * The URLs the server can be reached at: on every interface's address (IPv4, and IPv6 when bound to `::` or
 * to all interfaces; link-local IPv6 is left out, browsers cannot use its zone) when bound to all interfaces,
 * else on the bound host alone.
 */
export function reachableUrls(host: string | undefined, port: number, interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): string[] {
  const url = (address: string) => `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  const h = host?.trim().replace(/^\[|\]$/g, '');
  if (h && h !== '0.0.0.0' && h !== '::') return [url(h)];
  const urls: string[] = [];
  for (const list of Object.values(interfaces)) {
    for (const a of list ?? []) {
      if (a.internal) continue;
      if (a.family === 'IPv6' && (h === '0.0.0.0' || /^fe80:/i.test(a.address))) continue;
      const u = url(a.address);
      if (!urls.includes(u)) urls.push(u);
    }
  }
  return urls;
}

/** `--port`: decimal digits only, 0–65535 (0: any free port). Number() alone would take "", " 80", "0x50", "1e3". */
export function parsePort(value: string): number {
  const n = /^[0-9]{1,5}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new CliError(cliText().errors.badPort(value));
  return n;
}

/** A listen failure in words (exit 1), or null for one we have no words for. */
function listenErrorText(code: string | undefined, port: number, host: string | undefined): string | null {
  const e = cliText().errors;
  const where = host ?? '0.0.0.0 / ::';
  switch (code) {
    case 'EADDRINUSE':
      return e.portInUse(port, where);
    case 'EACCES':
      return cliText().startup.portNoPermission(port);
    case 'ENOTFOUND':
      return e.hostNotFound(where);
    case 'EAI_AGAIN':
      return e.hostLookupFailed(where);
    case 'EADDRNOTAVAIL':
      return e.hostNotLocal(where);
    case 'EINVAL':
    case 'EAFNOSUPPORT':
      return e.hostUnusable(where);
    default:
      return null;
  }
}

export function serveCommand(): Command {
  const h = cliText().help.serve;
  return new Command('serve')
    .description(h.description)
    .option('-p, --port <port>', h.port)
    .option('--host <host>', h.host)
    .option('--no-auth', h.noAuth)
    .action(async (opts: ServeOptions, cmd: Command) => {
      const dataDir = dataDirOf(cmd);
      const flags: Partial<Config> = {};
      const port = opts.port !== undefined ? parsePort(opts.port) : undefined;
      if (port !== undefined && port > 0) flags.listenPort = port;
      if (opts.auth === false) flags.auth = false;
      const [{ createAppContext }, { startHttpServer }, { startJobs }] = await Promise.all([
        import('../../server/app/create-app.js'),
        import('../../server/http/server.js'),
        import('../../server/jobs/index.js'),
      ]);
      const app = await createAppContext({ dataDir, flags });
      const config = app.store.get();
      if (opts.auth === false && config.production) {
        await app.close();
        throw new CliError(cliText().errors.noAuthInProduction);
      }
      const { user, createdPassword } = await app.services.users.ensureAdmin();
      if (createdPassword) {
        const file = path.join(dataDir, 'initial-admin-password');
        writeFileAtomic(file, initialAdminText(user.name, createdPassword), PRIVATE_FILE_MODE);
        const f = cliText().messages.firstStart;
        const banner = boxed(f.title, [`${f.user} ${user.name}`, `${f.password} ${createdPassword}`, f.saved(file)]);
        process.stdout.write(banner + '\n');
      }
      const host = opts.host ?? (config.blockRemoteConnection ? '127.0.0.1' : undefined);
      if (!config.auth && !isLoopbackHost(host)) {
        process.stderr.write(noAuthWarning(host) + '\n');
        app.logger.warn({ host: host ?? '(all interfaces)' }, 'authentication is off on a non-loopback address: anyone who can reach the server acts as the admin');
      }
      const listenPort = port === 0 ? 0 : config.listenPort;
      let server: Awaited<ReturnType<typeof startHttpServer>>;
      try {
        server = await startHttpServer(app, { port: listenPort, host, webRoot: webRoot() });
      } catch (err) {
        await app.close();
        const said = listenErrorText((err as NodeJS.ErrnoException).code, listenPort, host);
        if (said !== null) throw new CliError(said, 1);
        throw err;
      }
      const jobs = startJobs(app);
      writeServerInfo(dataDir, { pid: process.pid, port: server.port, host: host ?? null, url: server.url, version: packageVersion(), startedAt: new Date().toISOString() });
      // `kikoplay config set` from another shell applies without a restart
      const cfgFile = configPath(dataDir);
      watchFile(cfgFile, { interval: 2000 }, () => {
        try {
          app.store.reload();
        } catch (err) {
          app.logger.error({ err: (err as Error).message }, 'config.json changed but is invalid; keeping the previous settings');
        }
      });
      app.logger.info({ url: server.url, dataDir, auth: config.auth }, 'kikoplay is listening');
      process.stdout.write(cliText().messages.listening(server.url, dataDir, config.auth) + '\n');
      const urls = reachableUrls(host, server.port);
      if (urls.length) process.stdout.write([cliText().messages.reachableAt, ...urls.map((u) => `  ${u}`)].join('\n') + '\n');

      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        app.logger.info({ signal }, 'shutting down');
        unwatchFile(cfgFile);
        removeServerInfo(dataDir);
        jobs.stop();
        await server.close();
        await app.close();
        process.exit(0);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
    });
}
