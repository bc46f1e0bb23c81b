/**
 * Writes a kikoeru 0.6.7 installation (config/config.json, sqlite/db.sqlite3, lyrics/, covers/ and the
 * reachable root's work folders) built by test/helpers/kikoeru-fixture.ts, for trying
 * `kikoplay import kikoeru` by hand and for the import benchmark.
 *
 * CLI: node --import tsx scripts/gen-kikoeru.ts <dir> [--works N] [--users N] [--old-schema] [--no-folders]
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildKikoeruFixture, type KikoeruFixture } from '../test/helpers/kikoeru-fixture.js';

export interface GenKikoeruOptions {
  works: number;
  users: number;
  oldSchema?: boolean;
  folders?: boolean;
}

/** Build the installation in `dir` (which must be empty or absent). */
export async function generateKikoeru(dir: string, opts: GenKikoeruOptions): Promise<KikoeruFixture> {
  if (existsSync(dir) && readdirSync(dir).length) throw new Error(`${dir} is not empty`);
  return buildKikoeruFixture({ dir, works: opts.works, extraUsers: opts.users, schema: opts.oldSchema ? 'old' : 'current', folders: opts.folders });
}

async function main(argv: string[]): Promise<void> {
  const dir = argv.find((a, i) => !a.startsWith('--') && !['--works', '--users'].includes(argv[i - 1] ?? ''));
  if (!dir) throw new Error('usage: gen-kikoeru.ts <dir> [--works N] [--users N] [--old-schema] [--no-folders]');
  const num = (flag: string, fallback: number) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : fallback;
  };
  const fx = await generateKikoeru(path.resolve(dir), {
    works: num('--works', 100),
    users: num('--users', 5),
    oldSchema: argv.includes('--old-schema'),
    folders: argv.includes('--no-folders') ? false : undefined,
  });
  process.stdout.write(
    `kikoeru installation in ${fx.dir}: ${fx.works.length} works, ${fx.users.length} users, ${fx.reviews.length} reviews, ${fx.history.length} histories, ${fx.tasks.length} AI tasks\n` +
      `import it: kikoplay import kikoeru --db ${fx.dbFile} --config ${fx.configFile} --lyrics ${fx.lyricDir} --covers ${fx.coverDir}\n`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
}
