import { Command } from 'commander';
import { dataDirOf } from '../context.js';
import { CliError } from '../output/print.js';
import { ConfigFileError, configPath, loadConfig, parseLooseValue, unsetConfigKeys, updateConfigFile } from '../../server/config/load.js';
import { CONFIG_KEYS, type ConfigKey } from '../../server/config/schema.js';
import { cliText, errorText } from '../i18n/index.js';

function checkKey(key: string): ConfigKey {
  if (!(CONFIG_KEYS as string[]).includes(key)) throw new CliError(cliText().errors.unknownConfigKey(key));
  return key as ConfigKey;
}

/** Run a change of config.json; a refused one is reported as such (the file is left as it was). */
function unchanged<T>(change: () => T): T {
  try {
    return change();
  } catch (err) {
    if (err instanceof ConfigFileError) throw new CliError(cliText().errors.configUnchanged(errorText(err)));
    throw err;
  }
}

export function configCommand(): Command {
  const t = cliText().help.config;
  const config = new Command('config').description(t.description);

  config
    .command('get [key]')
    .description(t.get)
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
    .description(t.set)
    .action((key: string, value: string, _opts: unknown, cmd: Command) => {
      const k = checkKey(key);
      // the checks of every other way a setting is written (the schema, then the folders on disk)
      const stored = unchanged(() => updateConfigFile(dataDirOf(cmd), { [k]: parseLooseValue(value) }));
      process.stdout.write(`${k} = ${JSON.stringify(stored[k])}\n`);
    });

  config
    .command('unset <key>')
    .description(t.unset)
    .action((key: string, _opts: unknown, cmd: Command) => {
      const k = checkKey(key);
      unchanged(() => unsetConfigKeys(dataDirOf(cmd), [k]));
      process.stdout.write(cliText().messages.configReset(k) + '\n');
    });

  config
    .command('validate')
    .description(t.validate)
    .action((_opts: unknown, cmd: Command) => {
      const dir = dataDirOf(cmd);
      loadConfig(dir);
      process.stdout.write(cliText().messages.configOk(configPath(dir)) + '\n');
    });

  config
    .command('path')
    .description(t.path)
    .action((_opts: unknown, cmd: Command) => {
      process.stdout.write(configPath(dataDirOf(cmd)) + '\n');
    });

  return config;
}
