import { Command } from 'commander';
import { withApp } from '../context.js';
import { printTable } from '../output/print.js';

/** `kikoplay worker-token create|list|revoke`: long-lived credentials for `kikoplay worker` and other transcription workers. */
export function workerTokenCommand(): Command {
  const cmd = new Command('worker-token').description('manage tokens for AI transcription workers (they reach only the worker endpoints)');

  cmd
    .command('create <name>')
    .description('create a worker token and print it once (only its hash is stored)')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: { json?: boolean }, sub: Command) => {
      await withApp(sub, async (app) => {
        const created = await app.services.workerTokens.create(name);
        if (opts.json) {
          process.stdout.write(JSON.stringify(created) + '\n');
          return;
        }
        process.stdout.write(`${created.token}\n`);
        process.stderr.write(
          `worker token "${created.name}" created. It is shown only this once: store it now.\n` + `use it with: kikoplay worker --server URL --token <token>   (or env KIKOPLAY_WORKER_TOKEN)\n`,
        );
      });
    });

  cmd
    .command('list')
    .description('list worker tokens (names, creation, last use; never the tokens)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }, sub: Command) => {
      await withApp(sub, async (app) => {
        const tokens = await app.services.workerTokens.list();
        if (opts.json) process.stdout.write(JSON.stringify(tokens, null, 2) + '\n');
        else if (!tokens.length) process.stdout.write('no worker tokens\n');
        else
          printTable(
            tokens.map((x) => ({ name: x.name, status: x.revoked ? 'revoked' : 'active', created: x.created_at, 'last used': x.last_used_at ?? 'never' })),
            ['name', 'status', 'created', 'last used'],
          );
      });
    });

  cmd
    .command('revoke <name>')
    .description('revoke a worker token at once (a running server stops accepting it immediately)')
    .action(async (name: string, _opts: unknown, sub: Command) => {
      await withApp(sub, async (app) => {
        await app.services.workerTokens.revoke(name);
        process.stdout.write(`worker token "${name.trim()}" revoked\n`);
      });
    });

  return cmd;
}
