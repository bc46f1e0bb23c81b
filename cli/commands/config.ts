import { Command } from 'commander';
import { dataDirOf } from '../context.js';
import { CliError } from '../output/print.js';
import { ConfigFileError, configPath, loadConfig, parseLooseValue, unsetConfigKeys, updateConfigFile } from '../../server/config/load.js';
import { CONFIG_KEYS, type ConfigKey } from '../../server/config/schema.js';

function checkKey(key: string): ConfigKey {
  if (!(CONFIG_KEYS as string[]).includes(key)) throw new CliError(`unknown config key "${key}" (see \`kikoplay config get\` for the list)`);
  return key as ConfigKey;
}

/** Run a change of config.json; a refused one is reported as such (the file is left as it was). */
function unchanged<T>(change: () => T): T {
  try {
    return change();
  } catch (err) {
    if (err instanceof ConfigFileError) throw new CliError(`${err.message} (config.json unchanged)`);
    throw err;
  }
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
      // the checks of every other way a setting is written (the schema, then the folders on disk)
      const stored = unchanged(() => updateConfigFile(dataDirOf(cmd), { [k]: parseLooseValue(value) }));
      process.stdout.write(`${k} = ${JSON.stringify(stored[k])}\n`);
    });

  config
    .command('unset <key>')
    .description('remove a key from config.json so its default applies')
    .action((key: string, _opts: unknown, cmd: Command) => {
      const k = checkKey(key);
      unchanged(() => unsetConfigKeys(dataDirOf(cmd), [k]));
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
