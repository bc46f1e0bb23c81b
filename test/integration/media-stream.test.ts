/**
 * Media routes against real files on disk (docs/API.md#media): ranges, validators, types and
 * charsets, downloads, thumbnails, containment, offload redirects and error cases.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { seedWorks, type SeedFile } from '../helpers/seed.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const WORK = 200001;

describe('media: stream, download, small-img', () => {
  let t: TestServer;
  let token: string;
  let lib: string;
  let outside: string;
  const numbers = new Map<string, number>();
  const hash = (p: string) => `${WORK}/${numbers.get(p)}`;

  beforeAll(async () => {
    lib = tempDir('kikoplay-media-lib-');
    outside = tempDir('kikoplay-media-outside-');
    const dir = path.join(lib, 'RJ200001 作品');
    const put = (rel: string, data: Buffer | string) => {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), data);
    };
    mkdirSync(path.join(dir, 'audio'), { recursive: true });
    copyFileSync(path.join(AUDIO, 'tone-1.5s.flac'), path.join(dir, 'audio/track.flac'));
    put('audio/big.mp3', Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 7 + (i >> 11)) & 0xff)));
    put('曲 名 #1 (日本語).mp3', readFileSync(path.join(AUDIO, 'tone-2s.mp3')));
    put('lyrics/sjis.lrc', iconv.encode('[00:01.00]こんにちは、世界。今日はいい天気ですね。\n[00:05.00]ありがとうございました。\n', 'shift_jis'));
    put('lyrics/gbk.txt', iconv.encode('这是一个简体中文的说明文件，请仔细阅读。\n谢谢大家的支持！\n', 'gbk'));
    put('lyrics/utf8.vtt', 'WEBVTT\n\n00:00.000 --> 00:01.000\n日本語の字幕\n');
    put('lyrics/utf16.srt', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('1\n00:00:00,000 --> 00:00:01,000\n字幕\n', 'utf-16le')]));
    put('empty.txt', '');
    const img = sharp({ create: { width: 400, height: 300, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 0.5 } } });
    put('images/a.jpg', await img.clone().jpeg().toBuffer());
    put('images/b.jpeg', await img.clone().jpeg().toBuffer());
    put('images/c.png', await img.clone().png().toBuffer());
    put('images/d.webp', await img.clone().webp().toBuffer());
    put(
      'images/small.png',
      await sharp({ create: { width: 40, height: 20, channels: 3, background: '#00ff00' } })
        .png()
        .toBuffer(),
    );
    put('images/broken.png', 'this is not an image');
    put('docs/manual.pdf', '%PDF-1.4 not really');
    writeFileSync(path.join(outside, 'secret.mp3'), 'outside the library');
    symlinkSync(path.join(outside, 'secret.mp3'), path.join(dir, 'escape.mp3'));
    symlinkSync(path.join(dir, 'audio/track.flac'), path.join(dir, 'inner-link.flac'));

    const paths = [
      'audio/track.flac',
      'audio/big.mp3',
      '曲 名 #1 (日本語).mp3',
      'lyrics/sjis.lrc',
      'lyrics/gbk.txt',
      'lyrics/utf8.vtt',
      'lyrics/utf16.srt',
      'empty.txt',
      'images/a.jpg',
      'images/b.jpeg',
      'images/c.png',
      'images/d.webp',
      'images/small.png',
      'images/broken.png',
      'docs/manual.pdf',
      'escape.mp3',
      'inner-link.flac',
      '../outside.mp3',
      'deleted.mp3',
    ];
    const files: SeedFile[] = paths.map((p, i) => ({ path: p, n: i * 3 + 1 }));
    paths.forEach((p, i) => numbers.set(p, i * 3 + 1));

    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('alice', 'alicepass', 'user');
    token = await t.login('alice', 'alicepass');
    await seedWorks(t.app.db, [
      { id: WORK, title: '作品', dir: 'RJ200001 作品', files },
      { id: 200002, title: 'gone root', root_folder: 'gone', dir: 'RJ200002', files: [{ path: 'a.mp3' }] },
      { id: 200003, title: 'missing', dir: 'RJ200003', missing: true, files: [{ path: 'a.mp3' }] },
    ]);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(lib, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const req = (p: string, headers: Record<string, string> = {}, method = 'GET') => t.request(method, p, { token, headers });
  const disk = (rel: string) => readFileSync(path.join(lib, 'RJ200001 作品', rel));

  describe('stream', () => {
    it('sends the whole file with validators and audio/flac for .flac', async () => {
      const res = await req(`/api/media/stream/${hash('audio/track.flac')}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('audio/flac');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(res.headers.get('last-modified')).toBe(new Date(statSync(path.join(lib, 'RJ200001 作品/audio/track.flac')).mtimeMs).toUTCString());
      expect(Buffer.from(await res.arrayBuffer())).toEqual(disk('audio/track.flac'));
    });

    it('answers byte ranges with 206 and Content-Range (closed, open-ended, suffix)', async () => {
      const file = disk('audio/big.mp3');
      const size = file.length;
      const cases: [string, number, number][] = [
        ['bytes=0-1048575', 0, 1048575],
        ['bytes=2000000-', 2000000, size - 1],
        ['bytes=-10', size - 10, size - 1],
        ['bytes=100-99999999', 100, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const res = await req(`/api/media/stream/${hash('audio/big.mp3')}`, { Range: range });
        expect(res.status).toBe(206);
        expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
        expect(res.headers.get('content-length')).toBe(String(end - start + 1));
        expect(res.headers.get('content-type')).toBe('audio/mpeg');
        expect(Buffer.from(await res.arrayBuffer()).equals(file.subarray(start, end + 1))).toBe(true);
      }
    });

    it('answers many concurrent ranges with their own bytes (read buffers are reused between responses)', async () => {
      const file = disk('audio/big.mp3');
      // more requests than pooled buffers, at distinct offsets and sizes, three rounds so buffers are reused
      for (let round = 0; round < 3; round++) {
        const ranges = Array.from({ length: 24 }, (_, i) => {
          const start = (i * 104_729 + round * 7_919) % (file.length - 1_048_576);
          return [start, start + (i % 3 === 0 ? 1_048_575 : 4_096 * (i + 1) - 1)] as const;
        });
        const bodies = await Promise.all(
          ranges.map(async ([start, end]) => {
            const res = await req(`/api/media/stream/${hash('audio/big.mp3')}`, { Range: `bytes=${start}-${end}` });
            expect(res.status).toBe(206);
            return Buffer.from(await res.arrayBuffer());
          }),
        );
        bodies.forEach((body, i) => expect(body.equals(file.subarray(ranges[i][0], ranges[i][1] + 1)), `range ${ranges[i].join('-')}`).toBe(true));
      }
    });

    it('answers an unsatisfiable range with 416 and bytes */size', async () => {
      const size = disk('audio/big.mp3').length;
      const res = await req(`/api/media/stream/${hash('audio/big.mp3')}`, { Range: `bytes=${size}-` });
      expect(res.status).toBe(416);
      expect(res.headers.get('content-range')).toBe(`bytes */${size}`);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
      const empty = await req(`/api/media/stream/${hash('empty.txt')}`, { Range: 'bytes=0-10' });
      expect(empty.status).toBe(416);
    });

    it('ignores malformed and multi-part ranges (whole file, 200)', async () => {
      const size = disk('audio/track.flac').length;
      for (const range of ['bytes=abc', 'items=0-5', 'bytes=0-1,5-6']) {
        const res = await req(`/api/media/stream/${hash('audio/track.flac')}`, { Range: range });
        expect(res.status).toBe(200);
        expect((await res.arrayBuffer()).byteLength).toBe(size);
      }
    });

    it('answers conditional GETs with 304 and honours If-Range', async () => {
      const url = `/api/media/stream/${hash('audio/track.flac')}`;
      const first = await req(url);
      await first.arrayBuffer();
      const etag = first.headers.get('etag')!;
      const lastModified = first.headers.get('last-modified')!;
      expect((await req(url, { 'If-None-Match': etag })).status).toBe(304);
      expect((await req(url, { 'If-None-Match': `W/${etag}, "other"` })).status).toBe(304);
      expect((await req(url, { 'If-None-Match': '"stale"' })).status).toBe(200);
      expect((await req(url, { 'If-Modified-Since': lastModified })).status).toBe(304);
      expect((await req(url, { 'If-Modified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' })).status).toBe(200);
      expect((await req(url, { Range: 'bytes=0-9', 'If-Range': etag })).status).toBe(206);
      expect((await req(url, { Range: 'bytes=0-9', 'If-Range': '"stale"' })).status).toBe(200);
      expect((await req(url, { Range: 'bytes=0-9', 'If-Range': lastModified })).status).toBe(206);
    });

    it('serves the new bytes after a file changes on disk (kept handles are re-checked)', async () => {
      const url = `/api/media/stream/${hash('empty.txt')}`;
      const first = await req(url);
      expect(await first.text()).toBe('');
      writeFileSync(path.join(lib, 'RJ200001 作品/empty.txt'), 'changed content\n');
      const second = await req(url);
      expect(await second.text()).toBe('changed content\n');
      expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'));
      writeFileSync(path.join(lib, 'RJ200001 作品/empty.txt'), '');
    });

    it('answers HEAD with the headers only', async () => {
      const res = await req(`/api/media/stream/${hash('audio/big.mp3')}`, {}, 'HEAD');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(3 * 1024 * 1024));
      expect(res.headers.get('content-type')).toBe('audio/mpeg');
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    });

    it('sends text with its detected charset', async () => {
      const type = async (p: string) => {
        const res = await req(`/api/media/stream/${hash(p)}`);
        await res.arrayBuffer();
        return res.headers.get('content-type');
      };
      expect(await type('lyrics/sjis.lrc')).toBe('text/plain; charset=shift_jis');
      expect(await type('lyrics/gbk.txt')).toBe('text/plain; charset=gb18030');
      expect(await type('lyrics/utf8.vtt')).toBe('text/vtt; charset=utf-8');
      expect(await type('lyrics/utf16.srt')).toBe('text/plain; charset=utf-16le');
      expect(await type('empty.txt')).toBe('text/plain; charset=utf-8');
      const res = await req(`/api/media/stream/${hash('lyrics/sjis.lrc')}`);
      expect(iconv.decode(Buffer.from(await res.arrayBuffer()), 'shift_jis')).toContain('こんにちは');
    });

    it('accepts the token as ?token= and refuses requests without one', async () => {
      const ok = await fetch(`${t.url}/api/media/stream/${hash('audio/track.flac')}?token=${encodeURIComponent(token)}`);
      expect(ok.status).toBe(200);
      await ok.arrayBuffer();
      const none = await fetch(`${t.url}/api/media/stream/${hash('audio/track.flac')}`);
      expect(none.status).toBe(401);
    });
  });

  describe('download', () => {
    it('sends an attachment with an RFC 6266 UTF-8 file name', async () => {
      const res = await req(`/api/media/download/${hash('曲 名 #1 (日本語).mp3')}`);
      expect(res.status).toBe(200);
      const cd = res.headers.get('content-disposition')!;
      expect(cd).toMatch(/^attachment; filename="[^"]*\.mp3"; filename\*=UTF-8''/);
      expect(cd).toContain(`filename*=UTF-8''${encodeURIComponent('曲 名 #1 (日本語).mp3').replace(/[()]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())}`);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(disk('曲 名 #1 (日本語).mp3'));
    });

    it('supports ranges on downloads (resume)', async () => {
      const res = await req(`/api/media/download/${hash('audio/big.mp3')}`, { Range: 'bytes=10-19' });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
      expect((await res.arrayBuffer()).byteLength).toBe(10);
    });
  });

  describe('small-img', () => {
    it.each(['images/a.jpg', 'images/b.jpeg', 'images/c.png', 'images/d.webp'])('makes a cached JPEG thumbnail of %s', async (p) => {
      const res = await req(`/api/media/small-img/${hash(p)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width!, meta.height!)).toBe(128);
      const cached = readdirSync(path.join(t.app.store.paths().thumbDir, String(WORK)));
      expect(cached.some((name) => name.startsWith(`${numbers.get(p)}-`))).toBe(true);
      const again = await req(`/api/media/small-img/${hash(p)}`, { 'If-None-Match': res.headers.get('etag')! });
      expect(again.status).toBe(304);
    });

    it('never enlarges a small image', async () => {
      const res = await req(`/api/media/small-img/${hash('images/small.png')}`);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([40, 20]);
    });

    it('refuses non-images and undecodable images with 415', async () => {
      const audio = await t.json<{ error: string }>('GET', `/api/media/small-img/${hash('audio/track.flac')}`, { token });
      expect(audio.status).toBe(415);
      expect(audio.body.error).toContain('不支持的图像格式');
      const broken = await t.json<{ error: string }>('GET', `/api/media/small-img/${hash('images/broken.png')}`, { token });
      expect(broken.status).toBe(415);
      expect(broken.body.error).toContain('获取小图像失败');
    });
  });

  describe('containment and errors', () => {
    it('refuses a symlink that leads out of the work folder, and a stored path with ..', async () => {
      const link = await t.json<{ error: string }>('GET', `/api/media/stream/${hash('escape.mp3')}`, { token });
      expect(link.status).toBe(403);
      expect(JSON.stringify(link.body)).not.toContain(outside);
      expect((await t.json('GET', `/api/media/download/${hash('escape.mp3')}`, { token })).status).toBe(403);
      expect((await t.json('GET', `/api/media/stream/${hash('../outside.mp3')}`, { token })).status).toBe(403);
    });

    it('follows a symlink that stays inside the work folder', async () => {
      const res = await req(`/api/media/stream/${hash('inner-link.flac')}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(disk('audio/track.flac'));
    });

    it('answers 404 for unknown works and files, files gone from disk, missing works and unknown roots', async () => {
      const cases: [string, RegExp][] = [
        ['/api/media/stream/999999/0', /RJ999999/],
        [`/api/media/stream/${WORK}/9999`, /不存在/],
        [`/api/media/download/${WORK}/9999`, /不存在/],
        [`/api/media/small-img/${WORK}/9999`, /不存在/],
        [`/api/media/stream/${hash('deleted.mp3')}`, /磁盘上不存在/],
        ['/api/media/stream/200003/0', /不在媒体库中/],
        ['/api/media/stream/200002/0', /找不到文件夹: "gone"/],
      ];
      for (const [url, message] of cases) {
        const res = await t.json<{ error: string }>('GET', url, { token });
        expect(res.status, url).toBe(404);
        expect(res.body.error).toMatch(message);
      }
    });

    it('refuses malformed hashes with 400', async () => {
      for (const url of ['/api/media/stream/abc/1', '/api/media/stream/1/x', '/api/media/download/-1/0', '/api/media/small-img/1/1.5']) {
        const res = await t.json<{ error: string }>('GET', url, { token });
        expect(res.status, url).toBe(400);
        expect(res.body.error).toBeTruthy();
      }
    });
  });

  describe('offloadMedia', () => {
    it('redirects streams (except text) and downloads to the reverse proxy paths', async () => {
      t.app.store.update({ offloadMedia: true, offloadStreamPath: '/media/stream/', offloadDownloadPath: 'https://files.example/dl/' });
      try {
        const noFollow = await fetch(`${t.url}/api/media/stream/${hash('曲 名 #1 (日本語).mp3')}?token=${token}`, { redirect: 'manual' });
        expect(noFollow.status).toBe(302);
        expect(noFollow.headers.get('location')).toBe(`/media/stream/lib/RJ200001%20${encodeURIComponent('作品')}/${encodeURIComponent('曲 名 #1 (日本語).mp3')}`);
        const dl = await fetch(`${t.url}/api/media/download/${hash('lyrics/sjis.lrc')}?token=${token}`, { redirect: 'manual' });
        expect(dl.status).toBe(302);
        expect(dl.headers.get('location')).toBe(`https://files.example/dl/lib/RJ200001%20${encodeURIComponent('作品')}/lyrics/sjis.lrc`);
        const text = await req(`/api/media/stream/${hash('lyrics/sjis.lrc')}`);
        expect(text.status).toBe(200);
        expect(text.headers.get('content-type')).toBe('text/plain; charset=shift_jis');
        const thumb = await req(`/api/media/small-img/${hash('images/a.jpg')}`);
        expect(thumb.status).toBe(200);
      } finally {
        t.app.store.update({ offloadMedia: false });
      }
      expect(existsSync(lib)).toBe(true);
    });
  });
});
