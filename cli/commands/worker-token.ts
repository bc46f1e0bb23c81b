import { Command } from 'commander';
import { withApp } from '../context.js';
import { printTable } from '../output/print.js';
import { cliText } from '../i18n/index.js';

/** `kikoplay worker-token create|list|revoke`: long-lived credentials for `kikoplay worker` and other transcription workers. */
export function workerTokenCommand(): Command {
  const h = cliText().help.workerToken;
  const cmd = new Command('worker-token').description(h.description);

  cmd
    .command('create <name>')
    .description(h.create)
    .option('--json', h.json)
    .action(async (name: string, opts: { json?: boolean }, sub: Command) => {
      await withApp(sub, async (app) => {
        const created = await app.services.workerTokens.create(name);
        if (opts.json) {
          process.stdout.write(JSON.stringify(created) + '\n');
          return;
        }
        process.stdout.write(`${created.token}\n`);
        const m = cliText().messages;
        process.stderr.write(`${m.workerTokenCreated(created.name)}\n${m.workerTokenUse}\n`);
      });
    });

  cmd
    .command('list')
    .description(h.list)
    .option('--json', h.json)
    .action(async (opts: { json?: boolean }, sub: Command) => {
      await withApp(sub, async (app) => {
        const tokens = await app.services.workerTokens.list();
        const t = cliText();
        if (opts.json) process.stdout.write(JSON.stringify(tokens, null, 2) + '\n');
        else if (!tokens.length) process.stdout.write(t.messages.noWorkerTokens + '\n');
        else
          printTable(
            tokens.map((x) => ({ name: x.name, status: x.revoked ? t.table.revoked : t.table.active, created: x.created_at, 'last used': x.last_used_at ?? t.table.never })),
            ['name', 'status', 'created', 'last used'],
            [t.table.name, t.table.status, t.table.created, t.table.lastUsed],
          );
      });
    });

  cmd
    .command('revoke <name>')
    .description(h.revoke)
    .action(async (name: string, _opts: unknown, sub: Command) => {
      await withApp(sub, async (app) => {
        await app.services.workerTokens.revoke(name);
        process.stdout.write(cliText().messages.workerTokenRevoked(name.trim()) + '\n');
      });
    });

  return cmd;
}
