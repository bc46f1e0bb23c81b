/**
 * Commander's own words (headings, usage placeholders, the help option and command, its error
 * messages) in the run's language, set on every command of the tree (settings of commands added with
 * addCommand are not inherited).
 */
import { Help, type Command, type Option } from 'commander';
import type { CliCatalog } from './en.js';
import { displayWidth } from '../output/print.js';

/** Commander's error lines (`error: unknown command 'x'`, `(Did you mean y?)`…) in the catalogue's words. */
export function translateCommanderError(text: string, t: CliCatalog): string {
  const c = t.commander;
  const line = (l: string): string => {
    let m: RegExpExecArray | null;
    if ((m = /^\(Did you mean (.+)\?\)$/.exec(l))) return c.didYouMean(m[1]);
    if (!(m = /^error: (.*)$/.exec(l))) return l;
    const body = m[1];
    let hit: RegExpExecArray | null;
    let said = body;
    if ((hit = /^unknown command '(.*)'$/.exec(body))) said = c.unknownCommand(hit[1]);
    else if ((hit = /^unknown option '(.*)'$/.exec(body))) said = c.unknownOption(hit[1]);
    else if ((hit = /^missing required argument '(.*)'$/.exec(body))) said = c.missingArgument(hit[1]);
    else if ((hit = /^option '(.*)' argument missing$/.exec(body))) said = c.optionMissingArgument(hit[1]);
    else if ((hit = /^required option '(.*)' not specified$/.exec(body))) said = c.requiredOption(hit[1]);
    else if ((hit = /^too many arguments(?: for '.*')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(body))) said = c.tooManyArguments(Number(hit[1]), Number(hit[2]));
    return `${c.error} ${said}`;
  };
  return text.split('\n').map(line).join('\n');
}

export function localizeCommander(cmd: Command, t: CliCatalog): void {
  const c = t.commander;
  const titles: Record<string, string> = {
    'Usage:': c.usage,
    'Options:': c.options,
    'Commands:': c.commands,
    'Arguments:': c.arguments,
    'Global Options:': c.globalOptions,
  };
  const base = new Help();
  cmd.configureHelp({
    styleTitle: (title: string) => titles[title] ?? title,
    // columns, not characters: Japanese and Chinese characters take two
    displayWidth: (str: string) => displayWidth(str.replace(/\x1b\[[\d;]*m/g, '')),
    commandUsage: (command: Command) => base.commandUsage(command).replace('[options]', c.optionsWord).replace('[command]', c.commandWord),
    subcommandTerm: (command: Command) => base.subcommandTerm(command).replace('[options]', c.optionsWord),
    optionDescription: (option: Option) => base.optionDescription(option).replace(/\(default: /, `(${c.defaultWord} `),
  });
  cmd.helpOption('-h, --help', c.help);
  if (cmd.commands.length) cmd.helpCommand(`help ${c.commandWord}`, c.help);
  cmd.showHelpAfterError(c.afterError);
  cmd.configureOutput({ outputError: (str, write) => write(translateCommanderError(str, t)) });
  for (const sub of cmd.commands) localizeCommander(sub, t);
}
