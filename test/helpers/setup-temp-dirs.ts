/** vitest setup file: every test file's temporary dirs (helpers' `tempDir`) go when the file is done. */
import { removeTempDirsAfterFile } from './temp-dirs.js';

removeTempDirsAfterFile();
