import { Command } from 'commander';
import { dataDirOf, dataDirPathOf } from '../context.js';
import { CliError } from '../output/print.js';
import { ConfigFileError, configPath, loadConfig, parseLooseValue, readRawConfigFile, resetConfigFile, unsetConfigKeys, updateConfigFile } from '../../server/config/load.js';
import { CONFIG_KEYS, type ConfigKey } from '../../server/config/schema.js';
import { rootFolderProblems, type MissingFolderWarning, type RootFolderInput } from '../../server/config/folder-rules.js';
import { cliText, codeSentence, errorText } from '../i18n/index.js';

function checkKey(key: string): ConfigKey {
  if (!(CONFIG_KEYS as string[]).includes(key)) throw new CliError(cliText().errors.unknownConfigKey(key));
  return key as ConfigKey;
}

/** Run a change of config.json; a refused one is reported as such (the file is left as it was). */
function unchanged<T>(change: () => T): T {
  try {
    return change();
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    const t = cliText().errors;
    const said = t.configUnchanged(errorText(err));
    // a file that is not a JSON object cannot be changed key by key: say the way out
    const key = err.problem.key;
    throw new CliError(key === 'notJson' || key === 'notObject' ? `${said}. ${t.configResetHint}` : said);
  }
}

/** Other keys left broken by a change that was written: said once, on stderr. */
const warnStillInvalid = (reason: string) => process.stderr.write(`kikoplay: ${cliText().messages.configStillInvalid(reason)}\n`);

const isFolderList = (v: unknown): v is RootFolderInput[] =>
  Array.isArray(v) && v.every((f: unknown) => !!f && typeof f === 'object' && typeof (f as RootFolderInput).name === 'string' && typeof (f as RootFolderInput).path === 'string');

/**
 * The rules of root folders (config/folder-rules.ts, as the dashboard's folders API applies them), said
 * in the run's language before anything is written: a relative path, an empty or repeated alias, a
 * folder inside another. Another shape is left to the schema's own message.
 */
function checkRootFolders(value: unknown): void {
  if (!isFolderList(value)) return;
  const problems = rootFolderProblems(value);
  if (!problems.length) return;
  const t = cliText().errors;
  const said = problems.map((p) => t.folderRefused(`rootFolders.${p.at[0]}.${p.at[1]}`, value[p.at[0]][p.at[1]], codeSentence(p.code, p.params)));
  throw new CliError(t.configUnchanged(said.join('; ')));
}

/** A root folder that does not exist (yet) is saved and said once on stderr. */
const warnMissing = (w: MissingFolderWarning) => process.stderr.write(`kikoplay: ${cliText().messages.folderMissing(w.at, w.path)}\n`);

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
      const parsed = parseLooseValue(value);
      if (k === 'rootFolders') checkRootFolders(parsed);
      // the checks of every other way a setting is written (the schema, then the folders on disk);
      // a root folder not there yet is kept with a warning (a disk may be mounted later)
      const stored = unchanged(() => updateConfigFile(dataDirOf(cmd), { [k]: parsed }, { warnMissing, stillInvalid: warnStillInvalid }));
      process.stdout.write(`${k} = ${JSON.stringify(stored[k])}\n`);
    });

  config
    .command('unset <key>')
    .description(t.unset)
    .action((key: string, _opts: unknown, cmd: Command) => {
      const dir = dataDirOf(cmd);
      // a key this version does not know, stored in the file (a typo, or an older version's): removed
      const unknownStored =
        !(CONFIG_KEYS as string[]).includes(key) &&
        Object.hasOwn(
          unchanged(() => readRawConfigFile(dir, { emptyIsNone: true })),
          key,
        );
      const k = unknownStored ? key : checkKey(key);
      unchanged(() => unsetConfigKeys(dir, [k], { stillInvalid: warnStillInvalid }));
      const m = cliText().messages;
      process.stdout.write((unknownStored ? m.configKeyRemoved(k) : m.configReset(k)) + '\n');
    });

  config
    .command('reset')
    .description(t.reset)
    .action((_opts: unknown, cmd: Command) => {
      // moved aside, never deleted: the file the user wrote stays next to it
      const moved = unchanged(() => resetConfigFile(dataDirOf(cmd)));
      const m = cliText().messages;
      process.stdout.write((moved ? m.configMovedAside(moved) : m.configNothingToReset) + '\n');
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
      process.stdout.write(configPath(dataDirPathOf(cmd)) + '\n');
    });

  return config;
}
