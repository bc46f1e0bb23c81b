import { Command } from 'commander';
import { CLI_ACTOR, withApp } from '../context.js';
import { CliError, printTable } from '../output/print.js';
import { ROLES } from '../../server/auth/roles.js';
import { promptHidden } from '../prompt.js';

async function passwordFrom(opts: { password?: string }, label: string): Promise<string> {
  if (opts.password !== undefined) return opts.password;
  if (!process.stdin.isTTY) throw new CliError('--password is required when not on a terminal');
  const first = await promptHidden(`${label}: `);
  const again = await promptHidden('repeat: ');
  if (first !== again) throw new CliError('两次密码输入不一致');
  return first;
}

export function userCommand(): Command {
  const user = new Command('user').description('manage user accounts (without a subcommand on a terminal: an interactive manager)').action(async (_opts: unknown, cmd: Command) => {
    // scripts keep the subcommands; a person at a terminal gets the manager
    if (!process.stdin.isTTY || !process.stdout.isTTY) return cmd.help({ error: true });
    await withApp(cmd, async (app) => {
      const { runUserManager } = await import('../tui/user-manager-run.js');
      await runUserManager(app.services.users, CLI_ACTOR);
    });
  });

  user
    .command('list')
    .description('list users and their roles')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const users = await app.services.users.list(CLI_ACTOR);
        if (opts.json) process.stdout.write(JSON.stringify(users, null, 2) + '\n');
        else
          printTable(
            users.map((u) => ({ name: u.name, role: u.role, created: u.created_at })),
            ['name', 'role', 'created'],
          );
      });
    });

  user
    .command('add <name>')
    .description('create a user')
    .option('--password <password>', 'password (prompted on a terminal when omitted)')
    .option('--role <role>', `one of ${ROLES.join(', ')}`, 'user')
    .action(async (name: string, opts: { password?: string; role: string }, cmd: Command) => {
      const password = await passwordFrom(opts, 'password');
      await withApp(cmd, async (app) => {
        const created = await app.services.users.create(CLI_ACTOR, { name, password, group: opts.role }, { allowAdmin: true });
        process.stdout.write(`created ${created.role} ${created.name}\n`);
      });
    });

  user
    .command('passwd <name>')
    .description("change a user's password (their existing logins stop working)")
    .option('--password <password>', 'new password (prompted on a terminal when omitted)')
    .action(async (name: string, opts: { password?: string }, cmd: Command) => {
      const password = await passwordFrom(opts, 'new password');
      await withApp(cmd, async (app) => {
        await app.services.users.changePassword(CLI_ACTOR, { name, newPassword: password });
        process.stdout.write(`password of ${name} changed\n`);
      });
    });

  user
    .command('role <name> <role>')
    .description(`change a user's role (${ROLES.join(', ')})`)
    .action(async (name: string, role: string, _opts: unknown, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const u = await app.services.users.setRole(CLI_ACTOR, name, role);
        process.stdout.write(`${u.name} is now ${u.role}\n`);
      });
    });

  user
    .command('delete <names...>')
    .description('delete users with their reviews and play history')
    .action(async (names: string[], _opts: unknown, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const n = await app.services.users.delete(CLI_ACTOR, names);
        process.stdout.write(`deleted ${n} user(s)\n`);
      });
    });

  return user;
}
