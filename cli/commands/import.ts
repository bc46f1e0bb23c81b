import { Command } from 'commander';
import { withApp } from '../context.js';
import { CliError } from '../output/print.js';
import { cliText } from '../i18n/index.js';
import { importProgressLine, importSummaryLines, refusalText } from '../output/import-summary.js';
import type { ImportProgress, ImportSummary } from '../../server/services/kikoeru-import/import-service.js';
import { KikoeruImportRefused } from '../../server/services/kikoeru-import/source.js';

interface KikoeruOptions {
  db: string;
  config?: string;
  lyrics?: string;
  covers?: string;
  dryRun?: boolean;
  json?: boolean;
}

/** `kikoplay import kikoeru`: an Ink progress view on a terminal, plain lines when piped, JSON lines with --json. */
export function importCommand(): Command {
  const h = cliText().importKikoeru;
  const cmd = new Command('import').description(h.description);
  const kikoeru = new Command('kikoeru')
    .description(h.kikoeru.description)
    .requiredOption('--db <path>', h.kikoeru.db)
    .option('--config <path>', h.kikoeru.config)
    .option('--lyrics <dir>', h.kikoeru.lyrics)
    .option('--covers <dir>', h.kikoeru.covers)
    .option('--dry-run', h.kikoeru.dryRun)
    .option('--json', h.kikoeru.json)
    .action(async (opts: KikoeruOptions, sub: Command) => {
      const tty = !opts.json && !!process.stdout.isTTY;
      const write = (line: string) => process.stdout.write(line + '\n');
      let summary: ImportSummary;
      try {
        summary = await withApp(sub, async (app) => {
          let onProgress: (p: ImportProgress) => void;
          let finishUi: () => Promise<void> = async () => undefined;
          if (tty) {
            const { startImportTui } = await import('../tui/import-view.js');
            const ui = startImportTui();
            onProgress = (p) => ui.push(p);
            finishUi = () => ui.finish();
          } else if (opts.json) {
            onProgress = (p) => write(JSON.stringify({ type: 'progress', ...p }));
          } else {
            // plain: a phase's start and end only
            onProgress = (p) => {
              if (p.done === 0 || p.done === p.total) write(importProgressLine(p));
            };
          }
          try {
            return await app.services.kikoeruImport.run({ db: opts.db, config: opts.config, lyrics: opts.lyrics, covers: opts.covers, dryRun: !!opts.dryRun, onProgress });
          } finally {
            await finishUi();
          }
        });
      } catch (err) {
        if (err instanceof KikoeruImportRefused) {
          if (opts.json) write(JSON.stringify({ type: 'refused', reason: err.reason, details: err.details, message: err.message }));
          throw new CliError(refusalText(err), 2);
        }
        throw err;
      }
      if (opts.json) write(JSON.stringify({ type: 'summary', ...summary }));
      else for (const line of importSummaryLines(summary)) write(line);
    });
  cmd.addCommand(kikoeru);
  return cmd;
}
