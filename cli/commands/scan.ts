import { Command } from 'commander';
import { CliError } from '../output/print.js';

export function scanCommand(): Command {
  return new Command('scan')
    .description('scan the library folders for works (TUI on a terminal, plain lines or --json otherwise)')
    .option('--json', 'print one JSON event per line')
    .option('--full', 'rescan every work even when unchanged')
    .option('--files', 'rescan files (durations, lyric flags) of every work')
    .option('--refresh-metadata', 'fetch metadata of every work again')
    .option('--work <code>', 'scan one work, e.g. RJ123456')
    .option('--purge-missing', 'delete works whose folders are missing, with their user data')
    .action(() => {
      throw new CliError('the scanner is not available in this build yet', 2);
    });
}
