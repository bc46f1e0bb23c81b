import { Command, CommanderError } from 'commander';
import { serveCommand } from './commands/serve.js';
import { userCommand } from './commands/user.js';
import { configCommand } from './commands/config.js';
import { scanCommand } from './commands/scan.js';
import { demoCommand } from './commands/demo.js';
import { workerCommand } from './commands/worker.js';
import { workerTokenCommand } from './commands/worker-token.js';
import { reportError } from './output/print.js';
import { packageVersion } from '../server/services/system-service.js';

export function buildProgram(): Command {
  const program = new Command('kikoplay')
    .description('Self-hosted library server and web player for voice and drama audio works')
    .version(packageVersion(), '-v, --version')
    .option('-d, --data-dir <dir>', 'data directory (env KIKOPLAY_DATA_DIR, default ~/.kikoplay)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const cmd of [serveCommand(), scanCommand(), userCommand(), configCommand(), workerCommand(), workerTokenCommand(), demoCommand()]) {
    cmd.exitOverride();
    for (const sub of cmd.commands) sub.exitOverride();
    program.addCommand(cmd);
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
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
