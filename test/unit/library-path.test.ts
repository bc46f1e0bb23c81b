/**
 * The one gate for library paths (server/media/library-path.ts), on real files: containment by real
 * path, and the open of a checked path refusing a file or folder swapped for a link after the check.
 */
import { mkdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { isWithin, LibraryPathError, openLibraryFile, readLibraryFile, resolveLibraryPath, resolveLibraryPathSync } from '../../server/media/library-path.js';

describe('library paths', () => {
  let root: string;
  let outside: string;

  beforeEach(() => {
    root = tempDir('kikoplay-libpath-root-');
    outside = tempDir('kikoplay-libpath-out-');
    mkdirSync(path.join(root, 'work/sub'), { recursive: true });
    writeFileSync(path.join(root, 'work/sub/a.txt'), 'inside');
    writeFileSync(path.join(outside, 'secret.txt'), 'outside');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'work/out.txt'));
    symlinkSync(outside, path.join(root, 'work/out-dir'));
    symlinkSync('sub/a.txt', path.join(root, 'work/in.txt'));
  });

  const problem = async (p: Promise<unknown>) =>
    p.then(
      () => 'none',
      (err: unknown) => (err instanceof LibraryPathError ? err.problem : `other: ${String(err)}`),
    );

  it('resolves paths inside the root to their real path and refuses links leading out', async () => {
    const inLink = await resolveLibraryPath(root, 'work', 'in.txt');
    expect(inLink.real).toBe(path.join(inLink.root, 'work/sub/a.txt'));
    expect(resolveLibraryPathSync(root, 'work/in.txt')).toEqual(inLink);
    expect(await problem(resolveLibraryPath(root, 'work/out.txt'))).toBe('outside');
    expect(await problem(resolveLibraryPath(root, 'work/out-dir/secret.txt'))).toBe('outside');
    expect(await problem(resolveLibraryPath(root, 'work/../..'))).toBe('outside');
    expect(await problem(resolveLibraryPath(root, 'work/nothing.txt'))).toBe('missing');
    expect(await problem(resolveLibraryPath(path.join(root, 'no-root'), 'x'))).toBe('root');
    expect(() => resolveLibraryPathSync(root, 'work/out.txt')).toThrow(LibraryPathError);
  });

  it('keeps working when the root folder itself is a symlink', async () => {
    const mount = path.join(tempDir('kikoplay-libpath-mount-'), 'lib');
    symlinkSync(root, mount);
    const p = await resolveLibraryPath(mount, 'work/in.txt');
    expect((await readLibraryFile(p, 100))?.toString()).toBe('inside');
    expect(await problem(resolveLibraryPath(mount, 'work/out.txt'))).toBe('outside');
  });

  it('refuses to open a checked file that was swapped for a link leading out', async () => {
    const p = await resolveLibraryPath(root, 'work/sub/a.txt');
    unlinkSync(p.real);
    symlinkSync(path.join(outside, 'secret.txt'), p.real);
    expect(await problem(openLibraryFile(p))).toBe('outside');
  });

  it.runIf(process.platform === 'linux')('refuses to open a checked file whose folder was swapped for a link leading out', async () => {
    const p = await resolveLibraryPath(root, 'work/sub/a.txt');
    renameSync(path.join(root, 'work/sub'), path.join(root, 'work/moved'));
    mkdirSync(path.join(outside, 'sub'));
    writeFileSync(path.join(outside, 'sub/a.txt'), 'outside');
    symlinkSync(path.join(outside, 'sub'), path.join(root, 'work/sub'));
    expect(await problem(openLibraryFile(p))).toBe('outside');
  });

  it('reads a file up to a size limit and refuses folders', async () => {
    const p = await resolveLibraryPath(root, 'work/sub/a.txt');
    expect(await readLibraryFile(p, 3)).toBeNull();
    expect(await problem(openLibraryFile(await resolveLibraryPath(root, 'work/sub')))).toBe('missing');
  });

  it('isWithin: the folder itself and paths below it, nothing beside or above', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b', '/a/b/c')).toBe(true);
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/a/b', '/a')).toBe(false);
    expect(isWithin('/a/b', '/a/b/../c')).toBe(false);
  });
});
