/**
 * vitest setup file: every test file's temporary dirs (helpers' `tempDir`) go when the file is done, and
 * the terminal's language does not depend on the machine: the CLI run in-process speaks English unless a
 * test passes `--lang` (child processes get theirs from run-cli.ts).
 */
import { removeTempDirsAfterFile } from './temp-dirs.js';

for (const key of ['KIKOPLAY_LANG', 'LC_ALL', 'LC_MESSAGES', 'LANG']) delete process.env[key];
removeTempDirsAfterFile();
