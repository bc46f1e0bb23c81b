import path from 'node:path';
import { Command } from 'commander';
import { configPath, writeFileAtomic } from '../../server/config/load.js';
import { PRIVATE_FILE_MODE } from '../../server/config/private-files.js';
import { watchFile, unwatchFile } from 'node:fs';
import type { Config } from '../../server/config/schema.js';
import { dataDirOf } from '../context.js';
import { webRoot } from '../paths.js';
import { CliError } from '../output/print.js';

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
  const where = host ? `address ${host}` : 'all network interfaces';
  return [
    '',
    '  ┌─ WARNING: authentication is OFF ───────────────────────────────',
    `  │ kikoplay listens on ${where} with auth off:`,
    '  │ ANYONE who can reach this port acts as the ADMIN — they can read',
    '  │ your library, change settings, add folders and delete users.',
    '  │ Use --host 127.0.0.1 (or blockRemoteConnection), or turn auth on.',
    '  └────────────────────────────────────────────────────────────────',
    '',
  ].join('\n');
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new CliError(`--port must be a port number (0-65535), got "${value}"`);
  return n;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description('run the kikoplay server (API, web app, scheduled scans)')
    .option('-p, --port <port>', 'port to listen on (default 8888, env PORT)')
    .option('--host <host>', 'address to bind (default all interfaces; 127.0.0.1 when blockRemoteConnection is on)')
    .option('--no-auth', 'turn authentication off: every visitor acts as the admin')
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
        throw new CliError('--no-auth is not allowed when production is on');
      }
      const { user, createdPassword } = await app.services.users.ensureAdmin();
      if (createdPassword) {
        const file = path.join(dataDir, 'initial-admin-password');
        writeFileAtomic(file, initialAdminText(user.name, createdPassword), PRIVATE_FILE_MODE);
        const banner = [
          '',
          '  ┌─ kikoplay: first start ─────────────────────────────────',
          `  │ admin user:     ${user.name}`,
          `  │ admin password: ${createdPassword}`,
          `  │ (also written to ${file}; change it after logging in)`,
          '  └──────────────────────────────────────────────────────────',
          '',
        ].join('\n');
        process.stdout.write(banner + '\n');
      }
      const host = opts.host ?? (config.blockRemoteConnection ? '127.0.0.1' : undefined);
      if (!config.auth && !isLoopbackHost(host)) {
        process.stderr.write(noAuthWarning(host) + '\n');
        app.logger.warn({ host: host ?? '(all interfaces)' }, 'authentication is off on a non-loopback address: anyone who can reach the server acts as the admin');
      }
      const server = await startHttpServer(app, { port: port === 0 ? 0 : config.listenPort, host, webRoot: webRoot() });
      const jobs = startJobs(app);
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
      process.stdout.write(`kikoplay listening on ${server.url} (data dir ${dataDir}, auth ${config.auth ? 'on' : 'off'})\n`);

      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        app.logger.info({ signal }, 'shutting down');
        unwatchFile(cfgFile);
        jobs.stop();
        await server.close();
        await app.close();
        process.exit(0);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
    });
}
