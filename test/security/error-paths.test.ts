/**
 * Issue 17 item 11: errors a user or guest sees never name where the library or the data dir lives
 * on the server's disk. Each request below fails on a real file (undecodable image, file gone from
 * disk, folder gone, lyric gone); none of the error texts carries an absolute path.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { seedWorks } from '../helpers/seed.js';

const WORK = 300001;
const GONE_DIR = 300002;

describe('error texts for non-admins carry no absolute paths', () => {
  let t: TestServer;
  let lib: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    lib = tempDir('kikoplay-errpath-lib-');
    const dir = path.join(lib, 'RJ300001 作品');
    mkdirSync(path.join(dir, 'images'), { recursive: true });
    // a HEIF header with nothing behind it: the decoder's error quotes the file it read, once per seek
    writeFileSync(path.join(dir, 'images', 'broken.jpg'), Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(12)]));
    writeFileSync(path.join(dir, 'images', 'broken.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]));
    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await seedWorks(t.app.db, [
      {
        id: WORK,
        title: '作品',
        dir: 'RJ300001 作品',
        files: [
          { path: 'images/broken.jpg', kind: 'image', n: 1 },
          { path: 'images/broken.png', kind: 'image', n: 2 },
          { path: 'gone.mp3', kind: 'audio', n: 3 },
          { path: 'gone.lrc', kind: 'text', n: 4, isLyric: true },
        ],
      },
      {
        id: GONE_DIR,
        title: 'gone folder',
        dir: 'RJ300002 消えた',
        files: [
          { path: 'a.mp3', kind: 'audio', n: 1 },
          { path: 'a.lrc', kind: 'text', n: 2, isLyric: true },
        ],
      },
    ]);
    await t.addUser('alice', 'alicepass', 'user');
    await t.addUser('visitor', 'visitorpass', 'guest');
    tokens.user = await t.login('alice', 'alicepass');
    tokens.guest = await t.login('visitor', 'visitorpass');
  });
  afterAll(async () => {
    await t?.close();
  });

  const requests: [string, string][] = [
    ['GET', `/api/media/small-img/${WORK}/1`],
    ['GET', `/api/media/small-img/${WORK}/2`],
    ['GET', `/api/media/stream/${WORK}/3`],
    ['GET', `/api/media/download/${WORK}/3`],
    ['GET', `/api/media/stream/${GONE_DIR}/1`],
    ['GET', `/api/media/check-lrc/${WORK}/3`],
    ['GET', `/api/media/check-lrc/${GONE_DIR}/1`],
    ['GET', `/api/media/fetch-lrc/${WORK}/4/0`],
    ['GET', `/api/media/fetch-lrc/${GONE_DIR}/2/0`],
    ['PUT', `/api/lyric/translate/${WORK}/3`],
    ['PUT', `/api/lyric/translate/${GONE_DIR}/1`],
  ];

  it.each(['user', 'guest'])('as a %s', async (who) => {
    const seen: string[] = [];
    for (const [method, p] of requests) {
      const res = await t.json<{ error?: string }>(method, p, { token: tokens[who] });
      if (res.status < 400) continue;
      const text = JSON.stringify(res.body);
      seen.push(`${p} ${res.status} ${text}`);
      expect(text, `${method} ${p}`).not.toContain(lib);
      expect(text, `${method} ${p}`).not.toContain(t.dataDir);
      expect(text, `${method} ${p}`).not.toMatch(/(^|[\s"':：(])\/(tmp|home|srv|mnt|var|root|Users)\//);
    }
    // the requests did fail (each on a file or folder that is not right)
    expect(seen.length, seen.join('\n')).toBeGreaterThanOrEqual(8);
    // and still say which file: the path inside the work
    expect(seen.find((l) => l.includes('/api/media/small-img/300001/1'))).toContain('images/broken.jpg');
  });
});
