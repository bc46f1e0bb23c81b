/**
 * `kikoplay user api-key create|list|revoke` and `kikoplay user subsonic-password`: credentials made in
 * the terminal work with a real Subsonic client against the server on the same data dir.
 */
import path from 'node:path';
import { SubsonicAPI } from 'subsonic-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { cliInProcess } from '../helpers/cli-in-process.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('kikoplay user api-key / subsonic-password', () => {
  let dataDir: string;
  let t: TestServer;
  const cli = (...args: string[]) => cliInProcess(['--data-dir', dataDir, '--lang', 'en', ...args]);

  beforeAll(async () => {
    dataDir = tempDir('kikoplay-subsonic-cli-');
    expect((await cli('user', 'add', 'alice', '--password', 'alice-login')).code).toBe(0);
    expect((await cli('user', 'add', 'guest1', '--password', 'guest-login', '--role', 'guest')).code).toBe(0);
    t = await startTestServer({ dataDir });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a key printed once on stdout, lists it without the key, and revokes it', async () => {
    const made = await cli('user', 'api-key', 'create', 'alice', '--label', 'phone');
    expect(made.code).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^kps_[A-Za-z0-9_-]{43}$/);
    expect(made.stderr).toContain('phone');
    const api = new SubsonicAPI({ url: t.url, auth: { apiKey: key } });
    expect(((await api.ping()) as Json).status).toBe('ok');

    const list = await cli('user', 'api-key', 'list', 'alice', '--json');
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name: 'phone' })]);
    expect(list.stdout).not.toContain(key);
    expect((await cli('user', 'api-key', 'create', 'alice', '--label', 'phone')).code).not.toBe(0);

    expect((await cli('user', 'api-key', 'revoke', 'alice', 'phone')).code).toBe(0);
    expect(((await api.ping()) as Json).error.code).toBe(44);
    expect((await cli('user', 'api-key', 'revoke', 'alice', 'phone')).code).not.toBe(0);
  });

  it('sets and clears the Subsonic password; guests get credentials from the admin and stay read-only', async () => {
    expect((await cli('user', 'subsonic-password', 'guest1', '--password', 'short')).code).not.toBe(0);
    expect((await cli('user', 'subsonic-password', 'guest1', '--password', 'guest-subsonic')).code).toBe(0);
    const api = new SubsonicAPI({ url: t.url, auth: { username: 'guest1', password: 'guest-subsonic' } });
    expect(((await api.ping()) as Json).status).toBe('ok');
    expect((await cli('user', 'subsonic-password', 'guest1', '--clear')).code).toBe(0);
    expect(((await api.ping()) as Json).error.code).toBe(40);
    expect((await cli('user', 'subsonic-password', 'nobody', '--password', 'whatever1')).code).not.toBe(0);
  });

  it('backs up and restores the key the Subsonic passwords are sealed with', async () => {
    expect((await cli('user', 'subsonic-password', 'alice', '--password', 'alice-subsonic')).code).toBe(0);
    const file = path.join(tempDir('kikoplay-subsonic-backup-'), 'b.tar.gz');
    expect((await cli('backup', file)).code).toBe(0);
    const restored = tempDir('kikoplay-subsonic-restored-');
    const r = await cliInProcess(['--data-dir', restored, '--lang', 'en', 'restore', file]);
    expect(r.code, r.stderr).toBe(0);
    const other = await startTestServer({ dataDir: restored });
    try {
      const api = new SubsonicAPI({ url: other.url, auth: { username: 'alice', password: 'alice-subsonic' } });
      expect(((await api.ping()) as Json).status).toBe('ok');
    } finally {
      await other.close();
    }
  });
});
