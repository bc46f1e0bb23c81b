import { Command } from 'commander';
import { dataDirOf } from '../context.js';
import { CliError } from '../output/print.js';
import { configPath, loadConfig, parseLooseValue, readConfigFile, updateConfigFile, writeFileAtomic } from '../../server/config/load.js';
import { CONFIG_KEYS, configSchema, type ConfigKey } from '../../server/config/schema.js';

function checkKey(key: string): ConfigKey {
  if (!(CONFIG_KEYS as string[]).includes(key)) throw new CliError(`unknown config key "${key}" (see \`kikoplay config get\` for the list)`);
  return key as ConfigKey;
}

export function configCommand(): Command {
  const config = new Command('config').description('read and change the configuration (<data-dir>/config.json)');

  config
    .command('get [key]')
    .description('print the effective value of a key, or every key as JSON')
    .action((key: string | undefined, _opts: unknown, cmd: Command) => {
      const k = key === undefined ? undefined : checkKey(key);
      const effective = loadConfig(dataDirOf(cmd));
      if (!k) {
        process.stdout.write(JSON.stringify(effective, null, 2) + '\n');
        return;
      }
      const value = effective[k];
      process.stdout.write((typeof value === 'string' ? value : JSON.stringify(value)) + '\n');
    });

  config
    .command('set <key> <value>')
    .description('set a key; VALUE is parsed as JSON when it parses (e.g. 20, true, \'[{"name":"lib","path":"/srv"}]\')')
    .action((key: string, value: string, _opts: unknown, cmd: Command) => {
      const k = checkKey(key);
      const parsed = parseLooseValue(value);
      const check = configSchema.shape[k].safeParse(parsed);
      if (!check.success) {
        throw new CliError(`invalid value for ${k}: ${check.error.issues.map((i) => i.message).join('; ')} (config.json unchanged)`);
      }
      updateConfigFile(dataDirOf(cmd), { [k]: check.data });
      process.stdout.write(`${k} = ${JSON.stringify(check.data)}\n`);
    });

  config
    .command('unset <key>')
    .description('remove a key from config.json so its default applies')
    .action((key: string, _opts: unknown, cmd: Command) => {
      const k = checkKey(key);
      const dir = dataDirOf(cmd);
      const stored: Record<string, unknown> = { ...readConfigFile(dir) };
      delete stored[k];
      writeFileAtomic(configPath(dir), JSON.stringify(stored, null, 2) + '\n');
      process.stdout.write(`${k} reset to its default\n`);
    });

  config
    .command('validate')
    .description('check config.json and the KIKOPLAY_* environment; exit 1 when invalid')
    .action((_opts: unknown, cmd: Command) => {
      const dir = dataDirOf(cmd);
      loadConfig(dir);
      process.stdout.write(`${configPath(dir)}: ok\n`);
    });

  config
    .command('path')
    .description('print the path of config.json')
    .action((_opts: unknown, cmd: Command) => {
      process.stdout.write(configPath(dataDirOf(cmd)) + '\n');
    });

  return config;
}

