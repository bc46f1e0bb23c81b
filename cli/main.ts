import { Command, CommanderError } from 'commander';
import { serveCommand } from './commands/serve.js';
import { userCommand } from './commands/user.js';
import { configCommand } from './commands/config.js';
import { scanCommand } from './commands/scan.js';
import { demoCommand } from './commands/demo.js';
import { workerCommand } from './commands/worker.js';
import { workerTokenCommand } from './commands/worker-token.js';
import { CliError, reportError } from './output/print.js';
import { packageVersion } from '../server/services/system-service.js';
import { cliText, setCliLang } from './i18n/index.js';
import { localizeCommander } from './i18n/commander.js';
import { CLI_LANGS, envLang, resolveLang, UnknownLangError } from './i18n/lang.js';

/** The command tree, its help in the run's language (set with setCliLang before). */
export function buildProgram(): Command {
  const t = cliText();
  const program = new Command('kikoplay')
    .description(t.help.program)
    .version(packageVersion(), '-v, --version', t.commander.version)
    .option('-d, --data-dir <dir>', t.help.dataDir)
    .option('--lang <lang>', t.help.lang)
    .exitOverride();
  for (const cmd of [serveCommand(), scanCommand(), userCommand(), configCommand(), workerCommand(), workerTokenCommand(), demoCommand()]) {
    cmd.exitOverride();
    for (const sub of cmd.commands) sub.exitOverride();
    program.addCommand(cmd);
  }
  localizeCommander(program, t);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    setCliLang(resolveLang(argv.slice(2), process.env));
  } catch (err) {
    if (!(err instanceof UnknownLangError)) throw err;
    // said in the language the environment asks for
    setCliLang(envLang(process.env));
    return reportError(new CliError(cliText().errors.unknownLang(err.value, CLI_LANGS.join(', ')), 2));
  }
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version exit 0; usage errors were already printed by commander
      return err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : 1;
    }
    return reportError(err);
  }
}

/** Entry point used by bin/kikoplay.js. `serve` keeps the process alive; other commands exit here. */
export function run(argv: string[] = process.argv): void {
  main(argv).then(
    (code) => {
      if (code !== 0) process.exit(code);
    },
    (err) => process.exit(reportError(err)),
  );
}
