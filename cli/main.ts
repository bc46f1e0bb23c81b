import { Command, CommanderError } from 'commander';
import { serveCommand } from './commands/serve.js';
import { userCommand } from './commands/user.js';
import { configCommand } from './commands/config.js';
import { scanCommand } from './commands/scan.js';
import { demoCommand } from './commands/demo.js';
import { workerCommand } from './commands/worker.js';
import { workerTokenCommand } from './commands/worker-token.js';
import { backupCommand } from './commands/backup.js';
import { restoreCommand } from './commands/restore.js';
import { doctorCommand } from './commands/doctor.js';
import { importCommand } from './commands/import.js';
import { CliError, reportError } from './output/print.js';
import { packageVersion } from '../server/services/system-service.js';
import { cliText, setCliLang } from './i18n/index.js';
import { localizeCommander } from './i18n/commander.js';
import { CLI_LANGS, envLang, resolveLang, UnknownLangError } from './i18n/lang.js';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../server/app/log-format.js';
import { stdoutGuarded } from './output/line-sink.js';

/** The command tree, its help in the run's language (set with setCliLang before). */
export function buildProgram(): Command {
  const t = cliText();
  const program = new Command('kikoplay')
    .description(t.help.program)
    .version(packageVersion(), '-v, --version', t.commander.version)
    .option('-d, --data-dir <dir>', t.help.dataDir)
    .option('--lang <lang>', t.help.lang)
    .option('--log-format <format>', t.help.logFormat)
    .exitOverride();
  // the loggers the commands make read the choice from the environment (server/app/log-format.ts)
  // KIKOPLAY_LOG_FORMAT and KIKOPLAY_LOG_LEVEL stand for flags: checked like them, before anything runs
  program.hook('preAction', () => {
    const format = program.opts<{ logFormat?: string }>().logFormat;
    if (format !== undefined) {
      if (!LOG_FORMATS.includes(format as LogFormat)) throw new CliError(t.errors.badLogFormat(format), 2);
      process.env.KIKOPLAY_LOG_FORMAT = format;
    }
    const envFormat = process.env.KIKOPLAY_LOG_FORMAT?.trim();
    if (envFormat && !LOG_FORMATS.includes(envFormat.toLowerCase() as LogFormat)) throw new CliError(t.errors.badLogFormat(envFormat, 'KIKOPLAY_LOG_FORMAT'), 2);
    const level = process.env.KIKOPLAY_LOG_LEVEL?.trim();
    if (level && !LOG_LEVELS.includes(level as LogLevel)) throw new CliError(t.errors.badLogLevel(level, 'KIKOPLAY_LOG_LEVEL'), 2);
  });
  for (const cmd of [
    serveCommand(),
    scanCommand(),
    userCommand(),
    configCommand(),
    workerCommand(),
    workerTokenCommand(),
    demoCommand(),
    importCommand(),
    doctorCommand(),
    backupCommand(),
    restoreCommand(),
  ]) {
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
    return reportError(new CliError(cliText().errors.unknownLang(err.value, CLI_LANGS.join(', '), err.from), 2));
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
  quietOnClosedOutput();
  main(argv).then(
    (code) => {
      if (code !== 0) process.exit(code);
    },
    (err) => process.exit(reportError(err)),
  );
}

/**
 * A reader that goes away (`kikoplay config get | head -1`) ends the process quietly: EPIPE on stdout exits
 * with the code so far, without a stack trace; `scan` guards its own output (it stops the scan first).
 * Errors on stderr are dropped (there is nowhere left to report them).
 */
function quietOnClosedOutput(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (stdoutGuarded()) return;
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw err;
  });
  process.stderr.on('error', () => undefined);
}
