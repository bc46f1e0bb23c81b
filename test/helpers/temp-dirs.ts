/**
 * The temporary dirs `tempDir` made during the current test file, removed after its last hook
 * (vitest setup file: `afterAll` here runs after the file's own). Kept on globalThis: a test file's
 * modules are evaluated afresh, the setup file's hook must see the same set.
 */
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';

const KEY = Symbol.for('kikoplay.test.tempDirs');

export function madeTempDirs(): Set<string> {
  const store = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  return (store[KEY] ??= new Set<string>());
}

/** Registered once per test file by vitest.config's setupFiles. */
export function removeTempDirsAfterFile(): void {
  afterAll(() => {
    const dirs = madeTempDirs();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    dirs.clear();
  });
}
