import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

export class DirectoryError extends Error {
  constructor(
    readonly dir: string,
    readonly code: string,
  ) {
    super(`无法创建文件夹 ${dir}: ${code === 'ENOTDIR' ? '路径中有一段不是文件夹' : code}`);
  }
}

/**
 * Create a folder and its missing parents, one level at a time. Node's own `mkdirSync(dir, { recursive:
 * true })` loops forever where a parent exists but refuses new entries with ENOENT (a folder under
 * `/proc`); here every refusal ends in a DirectoryError naming the folder and the reason. `mode` applies
 * to the folders this call creates.
 */
export function ensureDir(dir: string, mode?: number): void {
  const target = path.resolve(dir);
  const missing: string[] = [];
  let cur = target;
  for (;;) {
    const st = statSync(cur, { throwIfNoEntry: false });
    if (st) {
      if (!st.isDirectory()) throw new DirectoryError(cur, 'ENOTDIR');
      break;
    }
    missing.push(cur);
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, mode === undefined ? undefined : { mode });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      // made meanwhile by another process
      if (code === 'EEXIST' && statSync(d, { throwIfNoEntry: false })?.isDirectory()) continue;
      throw new DirectoryError(d, code);
    }
  }
}
