import path from 'node:path';
import { Command } from 'commander';
import { CLI_ACTOR, withApp } from '../context.js';
import { CliError } from '../output/print.js';
import { cliText, codeSentence, scanLine } from '../i18n/index.js';
import { rootFolderProblems } from '../../server/config/folder-rules.js';

const DEMO_ALIAS = 'demo';

export function demoCommand(): Command {
  const h = cliText().help.demo;
  return new Command('demo')
    .description(h.description)
    .option('--no-scan', h.noScan)
    .action(async (opts: { scan?: boolean }, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const dir = path.join(app.store.dataDir, 'demo-library');
        // every check before the first file is written: a refused demo leaves nothing behind
        const roots = app.store.get().rootFolders;
        const existing = roots.find((r) => r.name === DEMO_ALIAS);
        if (existing && path.resolve(existing.path) !== dir) {
          throw new CliError(cliText().errors.demoAliasTaken(DEMO_ALIAS, existing.path));
        }
        if (!existing) {
          const problem = rootFolderProblems([...roots, { name: DEMO_ALIAS, path: dir }]).find((p) => p.at[0] === roots.length);
          if (problem) throw new CliError(cliText().errors.demoFolderRefused(dir, codeSentence(problem.code, problem.params)));
        }
        const demo = await import('../../server/library/demo-library.js');
        const folders = await demo.writeDemoLibrary(dir);
        if (!existing) app.store.update({ rootFolders: [...roots, { name: DEMO_ALIAS, path: dir }] });
        process.stdout.write(cliText().messages.demoWritten(folders.length, dir, DEMO_ALIAS) + '\n');
        if (opts.scan === false) return;
        const summary = await app.services.scan.run(CLI_ACTOR, { kind: 'scan', metadata: false });
        const said = scanLine({ message: summary.message, key: summary.messageText.key, params: summary.messageText.params });
        process.stdout.write(`${said}\n`);
        if (summary.exitCode !== 0) throw new CliError(summary.error ?? said, summary.exitCode);
        // offline there is no metadata site: the demo works get their circles, tags and voice actors here
        await demo.applyDemoMetadata((id, labels) => app.services.edit.editWork(CLI_ACTOR, id, labels));
      });
    });
}
