/**
 * Run test code the way a server runs as an ordinary user next to folders it may not write (a library
 * owned by someone else, a read-only mount). Permission bits are taken away (0555 folders, 0444 files);
 * when the tests run as root (CI, containers), who ignores them, the process also takes the effective
 * uid and gid of `nobody` for the duration of `fn` (vitest runs test files in forked processes, where
 * seteuid is allowed; the kernel then refuses writes with EACCES exactly as it does for a real user).
 * Folders in `ownedDirs` (e.g. the data dir) are given to that user, so they stay writable.
 */
import { chmodSync, chownSync, lstatSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const NOBODY = 65534;
export const runsAsRoot = () => process.getuid?.() === 0;

function walk(p: string, fn: (p: string, dir: boolean) => void): void {
  const st = lstatSync(p);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name), fn);
  fn(p, st.isDirectory());
}

/** Let others enter every folder from the temporary folder down to `p` (temporary folders are 0700). */
function openPathTo(p: string): void {
  const tmp = path.resolve(os.tmpdir());
  for (let cur = path.dirname(path.resolve(p)); cur.startsWith(tmp + path.sep); cur = path.dirname(cur)) chmodSync(cur, (lstatSync(cur).mode & 0o777) | 0o055);
}

/** Take write access to `readOnly` trees away, run `fn` as an unprivileged user, give the access back. */
export async function withoutWriteAccess<T>(readOnly: string[], fn: () => Promise<T>, ownedDirs: string[] = []): Promise<T> {
  const root = runsAsRoot();
  for (const dir of readOnly) {
    if (root) openPathTo(dir);
    walk(dir, (p, isDir) => chmodSync(p, isDir ? 0o555 : 0o444));
  }
  for (const dir of ownedDirs) {
    if (!root) continue;
    openPathTo(dir);
    walk(dir, (p) => chownSync(p, NOBODY, NOBODY));
  }
  try {
    return root ? await asNobody(fn) : await fn();
  } finally {
    if (root) for (const dir of ownedDirs) walk(dir, (p) => chownSync(p, 0, 0));
    for (const dir of readOnly) walk(dir, (p, isDir) => chmodSync(p, isDir ? 0o755 : 0o644));
  }
}

/**
 * Run `fn` as a user who may not read `paths` (a data dir of 0700, a config.json of 0600): as root, the
 * process takes the uid of `nobody` (the paths stay root's, the folders above them are opened); as
 * an ordinary user, the paths lose every permission bit for the duration.
 */
export async function asOtherUser<T>(paths: string[], fn: () => Promise<T>): Promise<T> {
  const root = runsAsRoot();
  const modes = paths.map((p) => lstatSync(p).mode & 0o777);
  for (const p of paths) {
    if (root) openPathTo(p);
    else chmodSync(p, 0);
  }
  try {
    return root ? await asNobody(fn) : await fn();
  } finally {
    if (!root) paths.forEach((p, i) => chmodSync(p, modes[i]));
  }
}

/** Run `fn` (as root) with the effective uid and gid of `nobody`, root's again after. */
async function asNobody<T>(fn: () => Promise<T>): Promise<T> {
  process.setegid!(NOBODY);
  process.seteuid!(NOBODY);
  try {
    return await fn();
  } finally {
    process.seteuid!(0);
    process.setegid!(0);
  }
}
