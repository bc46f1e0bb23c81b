/**
 * Issue 17 item 11: the data dir is the owner's only (0700); the database (with its WAL and SHM files),
 * config.json and the secrets are 0600 — when made, and after a start on a data dir an older version
 * left readable by others.
 */
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppContext } from '../../server/app/create-app.js';
import { createLogger } from '../../server/app/logger.js';
import { tempDir } from '../helpers/app.js';

const mode = (p: string) => statSync(p).mode & 0o777;
const open = (dataDir: string) => createAppContext({ dataDir, env: {}, logger: createLogger({ level: 'silent' }) });

describe('file modes of the data dir', () => {
  it('a new data dir is 0700, the database, its WAL/SHM files, config.json and the secret 0600', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const app = await open(dataDir);
    try {
      app.store.update({ pageSize: 20 });
      await app.repos.users.create('someone', 'x', 'user'); // a write: the WAL file is there
      expect(mode(dataDir)).toBe(0o700);
      const db = path.join(dataDir, 'kikoplay.db');
      for (const f of [db, `${db}-wal`, `${db}-shm`, path.join(dataDir, 'config.json'), path.join(dataDir, 'jwt-secret')]) {
        expect(existsSync(f), f).toBe(true);
        expect(mode(f), f).toBe(0o600);
      }
    } finally {
      await app.close();
    }
  });

  it('a data dir left readable by others is tightened on start, WAL and SHM files included', async () => {
    const dataDir = path.join(tempDir(), 'old');
    mkdirSync(dataDir);
    const first = await open(dataDir);
    const db = path.join(dataDir, 'kikoplay.db');
    let second: Awaited<ReturnType<typeof open>> | undefined;
    try {
      first.store.update({ pageSize: 20 });
      await first.repos.users.create('someone', 'x', 'user');
      writeFileSync(path.join(dataDir, 'initial-admin-password'), 'user: admin\npassword: x\n');
      // what an older version left: 0755 / 0644 (the first process keeps the WAL and SHM files open)
      chmodSync(dataDir, 0o755);
      const files = [db, `${db}-wal`, `${db}-shm`, path.join(dataDir, 'config.json'), path.join(dataDir, 'jwt-secret'), path.join(dataDir, 'initial-admin-password')];
      for (const f of files) chmodSync(f, 0o644);
      second = await open(dataDir);
      expect(mode(dataDir)).toBe(0o700);
      for (const f of files) expect(mode(f), f).toBe(0o600);
    } finally {
      await second?.close();
      await first.close();
    }
  });

  it('never widens a mode the owner narrowed', async () => {
    const dataDir = path.join(tempDir(), 'narrow');
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(path.join(dataDir, 'config.json'), '{}\n', { mode: 0o400 });
    const app = await open(dataDir);
    await app.close();
    expect(mode(path.join(dataDir, 'config.json'))).toBe(0o400);
  });
});
