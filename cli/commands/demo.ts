import path from 'node:path';
import { Command } from 'commander';
import { CLI_ACTOR, withApp } from '../context.js';
import { CliError } from '../output/print.js';

const DEMO_ALIAS = 'demo';

export function demoCommand(): Command {
  return new Command('demo')
    .description('write a small playable demo library into the data dir, register it as a root folder and scan it')
    .option('--no-scan', 'only write and register the library')
    .action(async (opts: { scan?: boolean }, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const dir = path.join(app.store.dataDir, 'demo-library');
        const folders = await (await import('../../server/library/demo-library.js')).writeDemoLibrary(dir);
        const roots = app.store.get().rootFolders;
        const existing = roots.find((r) => r.name === DEMO_ALIAS);
        if (existing && path.resolve(existing.path) !== dir) {
          throw new CliError(`a root folder named "${DEMO_ALIAS}" already points at ${existing.path}; remove it first (kikoplay config set rootFolders ...)`);
        }
        if (!existing) app.store.update({ rootFolders: [...roots, { name: DEMO_ALIAS, path: dir }] });
        process.stdout.write(`demo library: ${folders.length} works in ${dir} (root folder "${DEMO_ALIAS}")\n`);
        if (opts.scan === false) return;
        const summary = await app.services.scan.run(CLI_ACTOR, { kind: 'scan', metadata: false });
        process.stdout.write(`${summary.message}\n`);
        if (summary.exitCode !== 0) throw new CliError(summary.error ?? summary.message, summary.exitCode);
      });
    });
}
