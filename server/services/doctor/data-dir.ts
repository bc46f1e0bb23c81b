/** The data dir: exists, is ours to read and write, private (0700), its secret files 0600. */
import { statSync } from 'node:fs';
import path from 'node:path';
import { databaseFiles, dirProblem, fileProblem } from '../../config/private-files.js';
import { fileInPath } from '../../config/ensure-dir.js';
import { finding, octal, type Finding } from './findings.js';

const SECRET_FILES = ['config.json', 'jwt-secret', 'initial-admin-password'];

export function checkDataDir(dataDir: string, dbFile: string): Finding[] {
  let st;
  try {
    st = statSync(dataDir, { throwIfNoEntry: false });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EACCES';
    const file = code === 'ENOTDIR' ? fileInPath(dataDir) : null;
    if (file) return [finding('dataDir', 'problem', 'dataDirUnderFile', { path: dataDir, file })];
    return [finding('dataDir', 'problem', 'dataDirNoAccess', { path: dataDir, code })];
  }
  if (!st) return [finding('dataDir', 'warning', 'dataDirMissing', { path: dataDir })];
  if (!st.isDirectory()) return [finding('dataDir', 'problem', 'dataDirNotFolder', { path: dataDir })];
  const code = dirProblem(dataDir);
  if (code) return [finding('dataDir', 'problem', 'dataDirNoAccess', { path: dataDir, code })];
  const out: Finding[] = [];
  const posix = process.platform !== 'win32';
  const mode = st.mode & 0o777;
  out.push(posix && mode & 0o077 ? finding('dataDir', 'warning', 'dataDirOpen', { path: dataDir, mode: octal(mode) }) : finding('dataDir', 'ok', 'dataDirOk', { path: dataDir, mode: octal(mode) }));
  for (const file of [...SECRET_FILES.map((n) => path.join(dataDir, n)), ...databaseFiles(dbFile)]) {
    let fst;
    try {
      fst = statSync(file, { throwIfNoEntry: false });
    } catch {
      continue; // a database folder that cannot hold files: the database check says it
    }
    if (!fst) continue;
    const fileCode = fileProblem(file);
    if (fileCode) out.push(finding('dataDir', 'problem', 'fileNoAccess', { file, code: fileCode }));
    else if (posix && fst.mode & 0o077) out.push(finding('dataDir', 'warning', 'secretFileOpen', { file, mode: octal(fst.mode) }));
  }
  return out;
}
