/**
 * Each library folder: reachable, readable, how many works the database holds for it. A read-only one
 * is fine (scans, browsing and streaming only read); only saving lyrics into it is refused.
 */
import { accessSync, constants, promises as fsp } from 'node:fs';
import type { Config } from '../../config/schema.js';
import { finding, type Finding } from './findings.js';

export async function checkRoots(config: Config, worksByRoot: Map<string, number>): Promise<Finding[]> {
  if (!config.rootFolders.length) return [finding('rootFolder', 'warning', 'rootsNone', {})];
  const out: Finding[] = [];
  for (const root of config.rootFolders) {
    const p = { name: root.name, path: root.path, works: worksByRoot.get(root.name) ?? 0 };
    try {
      const st = await fsp.stat(root.path);
      if (!st.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      out.push(code === 'ENOENT' || code === 'ENOTDIR' ? finding('rootFolder', 'problem', 'rootMissing', p) : finding('rootFolder', 'problem', 'rootUnreadable', { ...p, code }));
      continue;
    }
    try {
      const dir = await fsp.opendir(root.path);
      await dir.read();
      await dir.close();
    } catch (err) {
      out.push(finding('rootFolder', 'problem', 'rootUnreadable', { ...p, code: (err as NodeJS.ErrnoException).code ?? 'EIO' }));
      continue;
    }
    let writable = true;
    try {
      accessSync(root.path, constants.W_OK);
    } catch {
      writable = false;
    }
    out.push(finding('rootFolder', 'ok', writable ? 'rootOk' : 'rootReadOnly', p));
  }
  return out;
}
