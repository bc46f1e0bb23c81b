import { Command } from 'commander';
import { CLI_ACTOR, withApp } from '../context.js';
import { CliError, printTable } from '../output/print.js';
import { ROLES } from '../../server/auth/roles.js';
import { promptHidden } from '../prompt.js';
import { cliText } from '../i18n/index.js';

/**
 * A user name as the users service takes it in `add` and `passwd` (and the login): without the spaces
 * around it. The other subcommands look names up as given, so they trim here the same way.
 */
const userName = (name: string) => name.trim();

async function passwordFrom(opts: { password?: string }, label: string): Promise<string> {
  if (opts.password !== undefined) return opts.password;
  const t = cliText();
  if (!process.stdin.isTTY) throw new CliError(t.errors.passwordRequired);
  const first = await promptHidden(`${label}: `);
  const again = await promptHidden(`${t.messages.promptRepeat}: `);
  if (first !== again) throw new CliError(t.errors.passwordMismatch);
  return first;
}

export function userCommand(): Command {
  const h = cliText().help.user;
  const user = new Command('user').description(h.description).allowExcessArguments(true);
  user.action(async (_opts: unknown, cmd: Command) => {
    // `user bogus` reaches this action (it has one, for the manager): say it as commander says an unknown command
    if (cmd.args.length) return (cmd as Command & { unknownCommand(): never }).unknownCommand();
    // scripts keep the subcommands; a person at a terminal gets the manager
    if (!process.stdin.isTTY || !process.stdout.isTTY) return cmd.help({ error: true });
    await withApp(cmd, async (app) => {
      const { runUserManager } = await import('../tui/user-manager-run.js');
      await runUserManager(app.services.users, CLI_ACTOR);
    });
  });

  user
    .command('list')
    .description(h.list)
    .option('--json', h.json)
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const users = await app.services.users.list(CLI_ACTOR);
        if (opts.json) process.stdout.write(JSON.stringify(users, null, 2) + '\n');
        else {
          const t = cliText().table;
          printTable(
            users.map((u) => ({ name: u.name, role: u.role, created: u.created_at })),
            ['name', 'role', 'created'],
            [t.name, t.role, t.created],
          );
        }
      });
    });

  user
    .command('add <name>')
    .description(h.add)
    .option('--password <password>', h.addPassword)
    .option('--role <role>', h.addRole(ROLES.join(', ')), 'user')
    .action(async (name: string, opts: { password?: string; role: string }, cmd: Command) => {
      const password = await passwordFrom(opts, cliText().messages.promptPassword);
      await withApp(cmd, async (app) => {
        const created = await app.services.users.create(CLI_ACTOR, { name, password, group: opts.role }, { allowAdmin: true });
        process.stdout.write(cliText().messages.userCreated(created.role, created.name) + '\n');
      });
    });

  user
    .command('passwd <name>')
    .description(h.passwd)
    .option('--password <password>', h.passwdPassword)
    .action(async (name: string, opts: { password?: string }, cmd: Command) => {
      const password = await passwordFrom(opts, cliText().messages.promptNewPassword);
      await withApp(cmd, async (app) => {
        await app.services.users.changePassword(CLI_ACTOR, { name, newPassword: password });
        process.stdout.write(cliText().messages.passwordChanged(userName(name)) + '\n');
      });
    });

  user
    .command('role <name> <role>')
    .description(h.role(ROLES.join(', ')))
    .action(async (name: string, role: string, _opts: unknown, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const u = await app.services.users.setRole(CLI_ACTOR, userName(name), role);
        process.stdout.write(cliText().messages.roleChanged(u.name, u.role) + '\n');
      });
    });

  user
    .command('delete <names...>')
    .description(h.delete)
    .action(async (names: string[], _opts: unknown, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const n = await app.services.users.delete(CLI_ACTOR, names.map(userName));
        process.stdout.write(cliText().messages.usersDeleted(n) + '\n');
      });
    });

  const keys = user.command('api-key').description(h.apiKey);

  keys
    .command('create <name>')
    .description(h.apiKeyCreate)
    .option('--label <label>', h.apiKeyLabel)
    .action(async (name: string, opts: { label?: string }, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const label = opts.label ?? `cli-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}`;
        if (!label.trim()) throw new CliError(cliText().errors.apiKeyLabelEmpty);
        const made = await app.services.subsonicAuth.createKey(CLI_ACTOR, label, userName(name));
        // the key itself goes to stdout alone (for scripts); the notice to stderr
        process.stderr.write(cliText().messages.apiKeyCreated(userName(name), made.name) + '\n');
        process.stdout.write(made.key + '\n');
      });
    });

  keys
    .command('list <name>')
    .description(h.apiKeyList)
    .option('--json', h.json)
    .action(async (name: string, opts: { json?: boolean }, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const list = await app.services.subsonicAuth.listKeys(CLI_ACTOR, userName(name));
        if (opts.json) process.stdout.write(JSON.stringify(list, null, 2) + '\n');
        else {
          const t = cliText().table;
          printTable(
            list.map((k) => ({ name: k.name, created: k.createdAt, lastUsed: k.lastUsedAt ?? t.never })),
            ['name', 'created', 'lastUsed'],
            [t.name, t.created, t.lastUsed],
          );
        }
      });
    });

  keys
    .command('revoke <name> <label>')
    .description(h.apiKeyRevoke)
    .action(async (name: string, label: string, _opts: unknown, cmd: Command) => {
      await withApp(cmd, async (app) => {
        // the label as createKey stored it: without the spaces around it
        await app.services.subsonicAuth.revokeKey(CLI_ACTOR, label.trim(), userName(name));
        process.stdout.write(cliText().messages.apiKeyRevoked(userName(name), label.trim()) + '\n');
      });
    });

  user
    .command('subsonic-password <name>')
    .description(h.subsonicPassword)
    .option('--password <password>', h.subsonicPasswordValue)
    .option('--clear', h.subsonicPasswordClear)
    .action(async (name: string, opts: { password?: string; clear?: boolean }, cmd: Command) => {
      if (opts.clear) {
        await withApp(cmd, async (app) => {
          await app.services.subsonicAuth.clearPassword(CLI_ACTOR, userName(name));
          process.stdout.write(cliText().messages.subsonicPasswordCleared(userName(name)) + '\n');
        });
        return;
      }
      const password = await passwordFrom(opts, cliText().messages.promptNewPassword);
      await withApp(cmd, async (app) => {
        await app.services.subsonicAuth.setPassword(CLI_ACTOR, password, userName(name));
        process.stdout.write(cliText().messages.subsonicPasswordSet(userName(name)) + '\n');
      });
    });

  return user;
}
