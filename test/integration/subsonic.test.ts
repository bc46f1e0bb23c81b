/**
 * The Subsonic API (/rest, docs/API.md#subsonic-api) driven by a third-party Subsonic client
 * (`subsonic-api` from npm) with both kinds of authentication, plus raw checks of the XML form,
 * the error codes and the credentials' storage.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SubsonicAPI } from 'subsonic-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../helpers/app.js';
import { seedWorks } from '../helpers/seed.js';
import type { Actor } from '../../server/auth/roles.js';
import { createSubsonicRoutes } from '../../server/http/app.js';
import { routePolicyOf, type GuardDeps } from '../../server/http/api-router.js';
import { redactUrl } from '../../server/http/middleware/redact-url.js';

const AUDIO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/audio');
const WORK = 300001;
const OTHER = 300002;
const SUB_PASSWORD = 'sub-secret-1';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Subsonic API', () => {
  let t: TestServer;
  let lib: string;
  let alice: Actor;
  let apiKey: string;

  const client = (opts: { apiKey?: string; username?: string; password?: string; post?: boolean }) =>
    new SubsonicAPI({ url: t.url, auth: opts.apiKey ? { apiKey: opts.apiKey } : { username: opts.username!, password: opts.password! }, post: opts.post });
  const raw = async (p: string, init?: RequestInit) => {
    const res = await fetch(t.url + p, init);
    return { res, text: await res.text() };
  };
  const json = async (p: string) => JSON.parse((await raw(p)).text)['subsonic-response'] as Json;

  beforeAll(async () => {
    lib = tempDir('kikoplay-subsonic-lib-');
    const dir = path.join(lib, 'RJ300001 森の音');
    for (const rel of ['Disc 1/02 朝.mp3', 'Disc 1/01 夜.flac', 'Disc 2/01 雨.mp3']) mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    copyFileSync(path.join(AUDIO, 'tone-2s.mp3'), path.join(dir, 'Disc 1/02 朝.mp3'));
    copyFileSync(path.join(AUDIO, 'tone-1.5s.flac'), path.join(dir, 'Disc 1/01 夜.flac'));
    copyFileSync(path.join(AUDIO, 'tone-2s.mp3'), path.join(dir, 'Disc 2/01 雨.mp3'));
    writeFileSync(path.join(dir, 'Disc 1/01 夜.lrc'), iconv.encode('[00:01.00]こんにちは\n[00:02.50]さようなら\n', 'shift_jis'));
    const size = (rel: string) => statSync(path.join(dir, rel)).size;
    t = await startTestServer({ flags: { rootFolders: [{ name: 'lib', path: lib }] } });
    await t.addUser('alice', 'alice-login', 'user');
    await t.addUser('guest1', 'guest-login', 'guest');
    const row = await t.app.repos.users.byName('alice');
    alice = { id: row!.id, name: 'alice', role: 'user' };
    await seedWorks(t.app.db, [
      {
        id: WORK,
        title: '森の音 ASMR',
        dir: 'RJ300001 森の音',
        release: '2021-05-01',
        circle: { id: 501, name: 'サークル鳥' },
        tags: [{ id: 601, name: '癒し' }],
        vas: [{ id: 'va-a', name: '声優A' }],
        total_duration: 5.5,
        files: [
          { path: 'Disc 1/02 朝.mp3', n: 1, size: size('Disc 1/02 朝.mp3'), duration: 2 },
          { path: 'Disc 1/01 夜.flac', n: 2, size: size('Disc 1/01 夜.flac'), duration: 1.5 },
          { path: 'Disc 2/01 雨.mp3', n: 3, size: size('Disc 2/01 雨.mp3'), duration: 2 },
          { path: 'cover.jpg', n: 4, kind: 'image' },
          { path: 'Disc 1/01 夜.lrc', n: 5, kind: 'text', isLyric: true, size: size('Disc 1/01 夜.lrc') },
        ],
      },
      { id: 300003, title: 'Gone Away', dir: 'RJ300003', missing: true, circle: { id: 502, name: 'Alpha' }, files: [{ path: 'gone.mp3', n: 1, duration: 5 }] },
      { id: OTHER, title: 'Another Story', dir: 'RJ300002', release: '2019-01-01', circle: { id: 502, name: 'Alpha' }, files: [{ path: 'a.mp3', n: 1, duration: 60 }] },
    ]);
    await t.app.services.subsonicAuth.setPassword(alice, SUB_PASSWORD);
    await t.addUser('boss1', 'boss-login', 'admin');
    const admin: Actor = { id: 0, name: '(test)', role: 'admin' };
    await t.app.services.subsonicAuth.setPassword(admin, 'guest-subsonic', 'guest1');
    await t.app.services.subsonicAuth.setPassword(admin, 'boss-subsonic', 'boss1');
    apiKey = (await t.app.services.subsonicAuth.createKey(alice, 'phone')).key;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(lib, { recursive: true, force: true });
  });

  describe('authentication', () => {
    it('accepts the Subsonic password as salted token (client default), and the API key', async () => {
      for (const api of [
        client({ username: 'alice', password: SUB_PASSWORD }),
        client({ apiKey }),
        client({ apiKey, post: true }),
        client({ username: 'alice', password: SUB_PASSWORD, post: true }),
      ]) {
        const res = (await api.ping()) as Json;
        expect(res).toMatchObject({ status: 'ok', version: '1.16.1', type: 'kikoplay', openSubsonic: true });
        expect(typeof res.serverVersion).toBe('string');
      }
    });

    it('accepts p= in clear and hex-encoded (enc:)', async () => {
      const hex = Buffer.from(SUB_PASSWORD).toString('hex');
      expect((await json(`/rest/ping.view?u=alice&p=${SUB_PASSWORD}&c=test&f=json`)).status).toBe('ok');
      expect((await json(`/rest/ping?u=alice&p=enc:${hex}&c=test&f=json`)).status).toBe('ok');
      expect((await json(`/rest/tokenInfo?apiKey=${apiKey}&f=json`)).tokenInfo).toEqual({ username: 'alice' });
    });

    it('never accepts the login password; wrong credentials are error 40', async () => {
      const r = (await client({ username: 'alice', password: 'alice-login' }).ping()) as Json;
      expect(r.status).toBe('failed');
      expect(r.error.code).toBe(40);
      expect((await json('/rest/ping?u=alice&p=alice-login&f=json')).error.code).toBe(40);
      // a user without a Subsonic password cannot use the legacy form at all
      expect((await json('/rest/ping?u=guest1&p=guest-login&f=json')).error.code).toBe(40);
    });

    it('answers 44 for an unknown API key, 43 for mixed mechanisms, 10 for missing credentials', async () => {
      expect(((await client({ apiKey: 'kps_nope' }).ping()) as Json).error.code).toBe(44);
      expect((await json(`/rest/ping?apiKey=${apiKey}&u=alice&f=json`)).error.code).toBe(43);
      expect((await json('/rest/ping?f=json')).error.code).toBe(10);
      expect((await json('/rest/ping?u=alice&f=json')).error.code).toBe(10);
    });

    it('does not take a login token (Bearer) in place of Subsonic credentials', async () => {
      const token = await t.login('alice', 'alice-login');
      const { text } = await raw('/rest/ping?f=json', { headers: { Authorization: `Bearer ${token}` } });
      expect(JSON.parse(text)['subsonic-response'].error.code).toBe(10);
    });

    it('declares every /rest route with Subsonic access (getOpenSubsonicExtensions public), GET and POST, name and name.view', async () => {
      const deps = { users: t.app.services.users, authEnabled: () => true, workers: t.app.services.workerTokens } as unknown as GuardDeps;
      const router = createSubsonicRoutes(t.app, deps);
      expect(router.stack.length).toBeGreaterThan(40);
      for (const layer of router.stack) expect(routePolicyOf(layer)?.access).toBe(String(layer.path).startsWith('/rest/getOpenSubsonicExtensions') ? 'public' : 'subsonic');
      // clients ask which extensions there are (API keys?) before they log in
      expect((await json('/rest/getOpenSubsonicExtensions?f=json')).openSubsonicExtensions).toHaveLength(3);
      const paths = new Set(router.stack.map((l) => `${l.methods.filter((m) => m !== 'HEAD').join(',')} ${l.path}`));
      expect(paths).toContain('GET /rest/getAlbum.view');
      expect(paths).toContain('POST /rest/getAlbum');
    });

    it('answers browser apps of any origin (CORS without cookies): preflight 204, writes by POST and GET', async () => {
      const origin = { Origin: 'https://feishin.example' };
      const pre = await fetch(`${t.url}/rest/star.view`, { method: 'OPTIONS', headers: { ...origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      expect(pre.headers.get('access-control-allow-headers')).toContain('Content-Type');
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
      const body = new URLSearchParams({ apiKey, albumId: `al-${OTHER}`, f: 'json', v: '1.16.1', c: 'web' });
      const post = await raw('/rest/star.view', { method: 'POST', headers: { ...origin, 'Content-Type': 'application/x-www-form-urlencoded' }, body });
      expect(post.res.headers.get('access-control-allow-origin')).toBe('*');
      expect(JSON.parse(post.text)['subsonic-response'].status).toBe('ok');
      const unstar = await raw(`/rest/unstar?${body}`, { headers: { ...origin, 'Sec-Fetch-Site': 'cross-site' } });
      expect(JSON.parse(unstar.text)['subsonic-response'].status).toBe('ok');
      // the web API keeps its Origin check, and gets no CORS header
      const api = await fetch(`${t.url}/api/auth/me`, { method: 'POST', headers: { ...origin, 'Content-Type': 'application/json' }, body: '{}' });
      expect(api.status).toBe(403);
      expect(api.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('with auth off (everyone the admin) refuses /rest requests from other sites, GETs too', async () => {
      const off = await startTestServer({ flags: { auth: false, allowedOrigins: ['https://allowed.example'] } });
      try {
        const scan = (headers: Record<string, string>) => fetch(`${off.url}/rest/getScanStatus?f=json`, { headers });
        const refused = await scan({ Origin: 'https://evil.example' });
        expect(refused.status).toBe(403);
        expect(((await refused.json()) as { error: string }).error).toContain('allowedOrigins');
        expect((await scan({ 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
        for (const headers of [{ Origin: 'https://allowed.example' }, {}] as Record<string, string>[]) {
          const ok = await scan(headers);
          expect(ok.status).toBe(200);
          expect(((await ok.json()) as Json)['subsonic-response'].status).toBe('ok');
        }
      } finally {
        await off.close();
      }
    });

    it('keeps p, t and s of /rest URLs out of the logs', () => {
      expect(redactUrl('/rest/ping.view?u=alice&p=secret&t=abc&s=salt&apiKey=k&c=x')).toBe('/rest/ping.view?u=alice&p=[redacted]&t=[redacted]&s=[redacted]&apiKey=[redacted]&c=x');
      expect(redactUrl('/api/works?p=1&s=2')).toBe('/api/works?p=1&s=2');
    });

    it('stores the API key hashed and the Subsonic password sealed, with its key file at 0600', async () => {
      const keys = await t.app.db.all<{ key_hash: string }>('SELECT key_hash FROM subsonic_api_keys');
      expect(keys).toHaveLength(1);
      expect(keys[0].key_hash).not.toContain(apiKey);
      const stored = await t.app.db.get<{ secret: string }>('SELECT secret FROM subsonic_passwords');
      expect(stored!.secret).not.toContain(SUB_PASSWORD);
      expect(statSync(path.join(t.dataDir, 'subsonic-key')).mode & 0o777).toBe(0o600);
    });
  });

  describe('XML form', () => {
    it('is the default, with the envelope attributes and namespace', async () => {
      const { res, text } = await raw(`/rest/ping.view?apiKey=${apiKey}&c=test`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
      expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
      expect(text).toContain('<subsonic-response xmlns="http://subsonic.org/restapi" status="ok" version="1.16.1" type="kikoplay"');
      expect(text).toContain('openSubsonic="true"');
    });

    it('renders lists as repeated elements, escaped attributes, and errors as <error code>', async () => {
      const { text } = await raw(`/rest/getAlbum.view?apiKey=${apiKey}&id=al-${WORK}`);
      expect(text).toMatch(/<album [^>]*name="森の音 ASMR"[^>]*>/);
      expect(text.match(/<song /g)).toHaveLength(3);
      expect(text).toContain('<genres name="癒し"/>');
      // a work whose folder is missing is no album, nor are its songs
      expect((await json(`/rest/getAlbum?apiKey=${apiKey}&id=al-300003&f=json`)).error.code).toBe(70);
      expect((await json(`/rest/getSong?apiKey=${apiKey}&id=tr-300003-1&f=json`)).error.code).toBe(70);
      const err = await raw(`/rest/getAlbum.view?apiKey=${apiKey}&id=al-999`);
      expect(err.text).toContain('status="failed"');
      expect(err.text).toMatch(/<error code="70" message="[^"]*"\/>/);
      const wrong = await raw('/rest/getAlbum?u=alice&p=x');
      expect(wrong.text).toMatch(/<error code="40"/);
    });

    it('takes POST forms (formPost) and answers unknown methods with a Subsonic error', async () => {
      const { text } = await raw('/rest/getLicense.view', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `apiKey=${apiKey}&f=json` });
      expect(JSON.parse(text)['subsonic-response'].license.valid).toBe(true);
      const unknown = await raw(`/rest/noSuchMethod.view?apiKey=${apiKey}&f=json`);
      expect(unknown.res.status).toBe(404);
      expect(JSON.parse(unknown.text)['subsonic-response'].status).toBe('failed');
    });
  });

  describe('browsing', () => {
    const api = () => client({ username: 'alice', password: SUB_PASSWORD });

    it('lists the implemented extensions and the root folders', async () => {
      const ext = (await api().getOpenSubsonicExtensions()) as Json;
      expect(ext.openSubsonicExtensions.map((e: Json) => e.name).sort()).toEqual(['apiKeyAuthentication', 'formPost', 'songLyrics']);
      expect(((await api().getMusicFolders()) as Json).musicFolders.musicFolder).toEqual([{ id: 1, name: 'lib' }]);
    });

    it('shows a work as an album with its audio files as songs in tree order, one disc per folder', async () => {
      const { album } = (await api().getAlbum({ id: `al-${WORK}` })) as Json;
      expect(album).toMatchObject({ id: `al-${WORK}`, name: '森の音 ASMR', artist: 'サークル鳥', artistId: 'ar-501', year: 2021, genre: '癒し', songCount: 3, coverArt: `al-${WORK}` });
      expect(album.song.map((s: Json) => [s.title, s.discNumber, s.track])).toEqual([
        ['01 夜', 1, 1],
        ['02 朝', 1, 2],
        ['01 雨', 2, 1],
      ]);
      expect(album.song[0]).toMatchObject({ suffix: 'flac', contentType: 'audio/flac', path: 'Disc 1/01 夜.flac', albumId: `al-${WORK}`, duration: 2 });
      expect(album.song[0].contributors).toEqual([{ role: 'performer', artist: { id: 'va-va-a', name: '声優A' } }]);
      const { song } = (await api().getSong({ id: album.song[2].id })) as Json;
      expect(song).toMatchObject({ title: '01 雨', album: '森の音 ASMR', track: 1, discNumber: 2 });
    });

    it('lists circles as artists and an artist with its works', async () => {
      const { artists } = (await api().getArtists()) as Json;
      const names = artists.index.flatMap((i: Json) => i.artist.map((a: Json) => a.name));
      expect(names).toEqual(['Alpha', 'サークル鳥']);
      const { artist } = (await api().getArtist({ id: 'ar-501' })) as Json;
      expect(artist.album.map((a: Json) => a.id)).toEqual([`al-${WORK}`]);
      expect(((await api().getArtist({ id: 'ar-999' })) as Json).error.code).toBe(70);
    });

    it('answers every album list type', async () => {
      const ids = async (type: string, extra: Json = {}) => ((await api().getAlbumList2({ type, size: 10, ...extra } as never)) as Json).albumList2.album.map((a: Json) => a.id);
      expect(await ids('alphabeticalByName')).toEqual([`al-${OTHER}`, `al-${WORK}`]);
      expect(await ids('alphabeticalByArtist')).toEqual([`al-${OTHER}`, `al-${WORK}`]);
      expect((await ids('random')).sort()).toEqual([`al-${WORK}`, `al-${OTHER}`].sort());
      expect(await ids('newest')).toHaveLength(2);
      expect(await ids('byYear', { fromYear: 2020, toYear: 2022 })).toEqual([`al-${WORK}`]);
      expect(await ids('byYear', { fromYear: 2022, toYear: 2018 })).toEqual([`al-${WORK}`, `al-${OTHER}`]);
      expect(await ids('byGenre', { genre: '癒し' })).toEqual([`al-${WORK}`]);
      for (const type of ['highest', 'frequent', 'recent', 'starred']) expect(await ids(type)).toEqual([]);
      expect(((await api().getAlbumList({ type: 'newest', size: 1, offset: 1 })) as Json).albumList.album).toHaveLength(1);
      expect(((await api().getAlbumList2({ type: 'bogus' } as never)) as Json).status).toBe('failed');
      expect((await json(`/rest/getAlbumList2?apiKey=${apiKey}&f=json`)).error.code).toBe(10);
    });

    it('pages the cached library orders, and follows a change of the library at once', async () => {
      const ids = async (type: string, extra: Json = {}) => ((await api().getAlbumList2({ type, size: 10, ...extra } as never)) as Json).albumList2.album.map((a: Json) => a.id);
      expect(await ids('alphabeticalByName', { size: 1, offset: 1 })).toEqual([`al-${WORK}`]);
      expect(await ids('alphabeticalByName', { offset: 2 })).toEqual([]);
      for (let i = 0; i < 5; i++) expect(new Set(await ids('random', { size: 1 })).size).toBe(1);
      try {
        // (a write is seen within a second: the library version is re-read at least once a second)
        await t.app.db.run("UPDATE works SET title = '龥 ' || title WHERE id = ?", [OTHER]);
        await expect.poll(() => ids('alphabeticalByName'), { timeout: 3000 }).toEqual([`al-${WORK}`, `al-${OTHER}`]);
        await t.app.db.run("UPDATE circles SET name = 'ワ' WHERE id = 502");
        await expect.poll(() => ids('alphabeticalByArtist'), { timeout: 3000 }).toEqual([`al-${WORK}`, `al-${OTHER}`]);
      } finally {
        await t.app.db.run("UPDATE works SET title = substr(title, 3) WHERE id = ? AND title LIKE '龥 %'", [OTHER]);
        await t.app.db.run("UPDATE circles SET name = 'Alpha' WHERE id = 502");
      }
      await expect.poll(() => ids('alphabeticalByName'), { timeout: 3000 }).toEqual([`al-${OTHER}`, `al-${WORK}`]);
      await expect.poll(() => ids('alphabeticalByArtist'), { timeout: 3000 }).toEqual([`al-${OTHER}`, `al-${WORK}`]);
    });

    it('searches like the web app (CJK substring), and lists everything for an empty query', async () => {
      const r = (await api().search3({ query: '森の' })) as Json;
      expect(r.searchResult3.album.map((a: Json) => a.id)).toEqual([`al-${WORK}`]);
      expect(r.searchResult3.song).toHaveLength(3);
      expect(((await api().search3({ query: 'サークル鳥' })) as Json).searchResult3.artist.map((a: Json) => a.id)).toEqual(['ar-501']);
      const all = (await api().search3({ query: '', songCount: 0 })) as Json;
      expect(all.searchResult3.album).toHaveLength(2);
      expect(((await api().search2({ query: 'Another' })) as Json).searchResult2.album[0].id).toBe(`al-${OTHER}`);
    });

    it('lists genres with counts, songs by genre and random songs', async () => {
      expect(((await api().getGenres()) as Json).genres.genre).toEqual([{ value: '癒し', songCount: 3, albumCount: 1 }]);
      expect(((await api().getSongsByGenre({ genre: '癒し' })) as Json).songsByGenre.song).toHaveLength(3);
      const random = ((await api().getRandomSongs({ size: 10 })) as Json).randomSongs.song;
      expect(random).toHaveLength(4);
    });
  });

  describe('media', () => {
    it('streams a song through the media service, Range → 206', async () => {
      const file = readFileSync(path.join(lib, 'RJ300001 森の音/Disc 1/02 朝.mp3'));
      const whole = await client({ apiKey }).stream({ id: `tr-${WORK}-1` });
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(file)).toBe(true);
      const part = await fetch(`${t.url}/rest/stream.view?apiKey=${apiKey}&id=tr-${WORK}-1`, { headers: { Range: 'bytes=10-19' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 10-19/${file.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(file.subarray(10, 20))).toBe(true);
      const dl = await client({ username: 'alice', password: SUB_PASSWORD }).download({ id: `tr-${WORK}-2` });
      expect(dl.headers.get('content-disposition')).toContain('attachment');
      const missing = await raw(`/rest/stream?apiKey=${apiKey}&id=tr-${WORK}-99&f=json`);
      expect(JSON.parse(missing.text)['subsonic-response'].error.code).toBe(70);
    });

    it('sends the cover art (with a size) for album, song and artist ids', async () => {
      for (const id of [`al-${WORK}`, `tr-${WORK}-1`, 'ar-501']) {
        const res = await client({ apiKey }).getCoverArt({ id, size: 200 });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/jpeg');
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
    });
  });

  describe('folders and lyrics', () => {
    const api = () => client({ apiKey });

    it('browses the folder tree: root folders, a work folder, a sub-folder with its songs', async () => {
      const { indexes } = (await api().getIndexes()) as Json;
      expect(indexes.index).toHaveLength(1);
      const tops = indexes.index[0].artist as Json[];
      expect(tops.map((a) => a.name)).toEqual(['RJ300001 森の音', 'RJ300002']);
      const work = ((await api().getMusicDirectory({ id: tops[0].id })) as Json).directory;
      expect(work.child.map((c: Json) => [c.title, c.isDir])).toEqual([
        ['Disc 1', true],
        ['Disc 2', true],
      ]);
      const disc = ((await api().getMusicDirectory({ id: work.child[0].id })) as Json).directory;
      expect(disc.parent).toBe(work.id);
      expect(disc.child.map((c: Json) => c.id)).toEqual([`tr-${WORK}-2`, `tr-${WORK}-1`]);
      // an id naming a path outside the index is simply not found
      const outside = `d-1-${Buffer.from('../etc').toString('base64url')}`;
      expect(((await api().getMusicDirectory({ id: outside })) as Json).error.code).toBe(70);
    });

    it('gives synced lyrics of the lyric file next to the audio (Shift-JIS), and plain lyrics by title', async () => {
      const { lyricsList } = (await api().getLyricsBySongId({ id: `tr-${WORK}-2` })) as Json;
      expect(lyricsList.structuredLyrics[0]).toMatchObject({ synced: true, displayTitle: '01 夜', displayArtist: 'サークル鳥' });
      expect(lyricsList.structuredLyrics[0].line).toEqual([
        { start: 1000, value: 'こんにちは' },
        { start: 2500, value: 'さようなら' },
      ]);
      expect(((await api().getLyricsBySongId({ id: `tr-${WORK}-3` })) as Json).lyricsList.structuredLyrics).toEqual([]);
      const { lyrics } = (await api().getLyrics({ artist: 'サークル鳥', title: '01 夜' })) as Json;
      expect(lyrics.value).toBe('こんにちは\nさようなら');
      // without the artist every file name is tested (through the costly-search gate); another circle finds nothing
      expect(((await api().getLyrics({ title: '01 夜' })) as Json).lyrics).toMatchObject({ artist: 'サークル鳥', value: 'こんにちは\nさようなら' });
      expect(((await api().getLyrics({ artist: 'Alpha', title: '01 夜' })) as Json).lyrics.value).toBeUndefined();
      expect(((await api().getLyrics({ title: '100%_夜' })) as Json).lyrics.value).toBeUndefined();
    });
  });

  describe('user data', () => {
    const api = () => client({ username: 'alice', password: SUB_PASSWORD });
    const guest = () => client({ username: 'guest1', password: 'guest-subsonic' });

    it('stars and unstars songs, albums and artists per user', async () => {
      expect(((await api().star({ id: `tr-${WORK}-1`, albumId: `al-${WORK}`, artistId: 'ar-502' })) as Json).status).toBe('ok');
      const { starred2 } = (await api().getStarred2()) as Json;
      expect(starred2.song.map((s: Json) => s.id)).toEqual([`tr-${WORK}-1`]);
      expect(starred2.album.map((a: Json) => a.id)).toEqual([`al-${WORK}`]);
      expect(starred2.artist.map((a: Json) => a.id)).toEqual(['ar-502']);
      // the client turns `starred` into a Date
      expect(starred2.album[0].starred).toBeInstanceOf(Date);
      expect(((await api().getAlbumList2({ type: 'starred' })) as Json).albumList2.album.map((a: Json) => a.id)).toEqual([`al-${WORK}`]);
      expect(((await client({ username: 'boss1', password: 'boss-subsonic' }).getStarred()) as Json).starred.album).toEqual([]);
      await api().unstar({ id: `tr-${WORK}-1`, albumId: `al-${WORK}`, artistId: 'ar-502' });
      expect(((await api().getStarred()) as Json).starred).toEqual({ artist: [], album: [], song: [] });
      expect(((await api().star({ id: 'tr-1-1' })) as Json).error.code).toBe(70);
    });

    it('answers album lists in JSON (from cached text) and XML with the same albums as getAlbum, star and rating included', async () => {
      const album = async () => {
        const { song, ...rest } = ((await api().getAlbum({ id: `al-${WORK}` })) as Json).album;
        expect(song.length).toBe(3);
        return rest;
      };
      const listed = async (type = 'alphabeticalByName') => ((await api().getAlbumList2({ type, size: 10 } as never)) as Json).albumList2.album.find((a: Json) => a.id === `al-${WORK}`);
      expect(await listed()).toEqual(await album());
      await api().star({ albumId: `al-${WORK}` });
      await api().setRating({ id: `al-${WORK}`, rating: 5 });
      try {
        const now = await album();
        expect(now).toMatchObject({ userRating: 5, starred: expect.any(Date) });
        expect(await listed()).toEqual(now);
        expect(await listed('starred')).toEqual(now);
        // the XML form carries the same fields as attributes
        const { text } = await raw(`/rest/getAlbumList2.view?apiKey=${apiKey}&type=starred&size=5`);
        expect(text).toMatch(new RegExp(`<album [^>]*id="al-${WORK}"[^>]*userRating="5"`));
        expect(text).toMatch(/<album [^>]*starred="\d{4}-/);
        expect(((await api().getAlbumList({ type: 'starred' })) as Json).albumList.album[0]).toEqual(now);
      } finally {
        await api().unstar({ albumId: `al-${WORK}` });
        await api().setRating({ id: `al-${WORK}`, rating: 0 });
      }
      expect(await listed()).toEqual(await album());
    });

    it("rates an album as the user's work rating (0 removes it)", async () => {
      await api().setRating({ id: `al-${WORK}`, rating: 4 });
      expect((await t.app.db.get<{ rating: number }>('SELECT rating FROM reviews WHERE user_id = ? AND work_id = ?', [alice.id, WORK]))!.rating).toBe(4);
      expect(((await api().getAlbum({ id: `al-${WORK}` })) as Json).album.userRating).toBe(4);
      expect(((await api().getAlbumList2({ type: 'highest' })) as Json).albumList2.album.map((a: Json) => a.id)).toEqual([`al-${WORK}`]);
      await api().setRating({ id: `al-${WORK}`, rating: 0 });
      expect(((await api().getAlbum({ id: `al-${WORK}` })) as Json).album.userRating).toBeUndefined();
      expect(((await api().setRating({ id: `al-${WORK}`, rating: 6 } as never)) as Json).status).toBe('failed');
    });

    it('records scrobbles in play history and shows what plays now', async () => {
      await api().scrobble({ id: `tr-${WORK}-3`, submission: false });
      const { nowPlaying } = (await api().getNowPlaying()) as Json;
      expect(nowPlaying.entry.map((e: Json) => [e.id, e.username])).toEqual([[`tr-${WORK}-3`, 'alice']]);
      await api().scrobble({ id: `tr-${WORK}-3` });
      const row = await t.app.services.userData.historyOf(alice, WORK);
      const state = JSON.parse(row!.state) as Json;
      expect(state.queue.map((e: Json) => e.hash)).toEqual([`${WORK}/2`, `${WORK}/1`, `${WORK}/3`]);
      expect(state.index).toBe(2);
      expect(((await api().getAlbumList2({ type: 'recent' })) as Json).albumList2.album.map((a: Json) => a.id)).toEqual([`al-${WORK}`]);
      expect(((await api().getAlbumList2({ type: 'frequent' })) as Json).albumList2.album.map((a: Json) => a.id)).toEqual([`al-${WORK}`]);
    });

    it('shares the play queue with the web player, both ways', async () => {
      await api().savePlayQueue({ id: [`tr-${WORK}-3`, `tr-${WORK}-2`], current: `tr-${WORK}-2`, position: 12500 } as never);
      const saved = JSON.parse((await t.app.services.userData.historyOf(alice, WORK))!.state) as Json;
      expect(saved).toMatchObject({ index: 1, seconds: 12.5 });
      expect(saved.queue[1]).toMatchObject({ hash: `${WORK}/2`, title: '01 夜.flac', subtitle: 'Disc 1', workId: WORK, workTitle: '森の音 ASMR' });
      let { playQueue } = (await api().getPlayQueue()) as Json;
      expect(playQueue.entry.map((e: Json) => e.id)).toEqual([`tr-${WORK}-3`, `tr-${WORK}-2`]);
      expect(playQueue).toMatchObject({ current: `tr-${WORK}-2`, position: 12500, username: 'alice' });
      // the web app saves a state: the native app resumes it
      const token = await t.login('alice', 'alice-login');
      const state = { queue: [{ hash: `${OTHER}/1`, title: 'a.mp3', subtitle: null, workTitle: 'Another Story', workId: OTHER }], index: 0, seconds: 3 };
      expect((await t.json('PUT', '/api/histroy', { token, body: { work_id: OTHER, state } })).status).toBe(200);
      ({ playQueue } = (await api().getPlayQueue()) as Json);
      expect(playQueue).toMatchObject({ current: `tr-${OTHER}-1`, position: 3000 });
    });

    it('keeps guests read-only (error 50 on every write) but lets them browse and play', async () => {
      expect(((await guest().getAlbum({ id: `al-${WORK}` })) as Json).status).toBe('ok');
      expect((await guest().stream({ id: `tr-${WORK}-1` })).status).toBe(200);
      const writes: Promise<unknown>[] = [
        guest().star({ id: `tr-${WORK}-1` }),
        guest().unstar({ id: `tr-${WORK}-1` }),
        guest().setRating({ id: `al-${WORK}`, rating: 3 }),
        guest().scrobble({ id: `tr-${WORK}-1` }),
        guest().savePlayQueue({ id: `tr-${WORK}-1` } as never),
      ];
      for (const r of await Promise.all(writes)) expect((r as Json).error.code).toBe(50);
      expect(await t.app.db.get('SELECT * FROM play_history WHERE user_id = (SELECT id FROM users WHERE name = ?)', ['guest1'])).toBeUndefined();
    });

    it('shows the user and their roles; other users and scans only to admins', async () => {
      const { user } = (await api().getUser({ username: 'alice' })) as Json;
      expect(user).toMatchObject({ username: 'alice', adminRole: false, streamRole: true, scrobblingEnabled: true, folder: [1] });
      expect(((await api().getUser({ username: 'boss1' })) as Json).error.code).toBe(50);
      const boss = client({ username: 'boss1', password: 'boss-subsonic' });
      expect(((await boss.getUser({ username: 'guest1' })) as Json).user).toMatchObject({ username: 'guest1', scrobblingEnabled: false });
      expect(((await api().getScanStatus()) as Json).error.code).toBe(50);
      expect(((await api().startScan()) as Json).error.code).toBe(50);
      expect(((await boss.getScanStatus()) as Json).scanStatus).toEqual({ scanning: false, count: 2 });
    });
  });

  describe('account routes (/api/auth/me/subsonic)', () => {
    it("manage the caller's own API keys and Subsonic password; guests may only look", async () => {
      const token = await t.login('boss1', 'boss-login');
      expect((await t.json('GET', '/api/auth/me/subsonic', { token })).body).toEqual({ keys: [], hasPassword: true });
      const made = await t.json<{ name: string; key: string }>('POST', '/api/auth/me/subsonic/keys', { token, body: { name: 'desktop' } });
      expect(made.status).toBe(201);
      expect(((await client({ apiKey: made.body.key }).getUser({ username: 'boss1' })) as Json).user.adminRole).toBe(true);
      const listed = await t.json<{ keys: Json[] }>('GET', '/api/auth/me/subsonic', { token });
      expect(listed.body.keys.map((k) => k.name)).toEqual(['desktop']);
      expect(JSON.stringify(listed.body)).not.toContain(made.body.key);
      expect((await t.json('POST', '/api/auth/me/subsonic/keys', { token, body: { name: 'desktop' } })).status).toBe(409);
      expect((await t.json('DELETE', '/api/auth/me/subsonic/keys/desktop', { token })).status).toBe(200);
      expect(((await client({ apiKey: made.body.key }).ping()) as Json).error.code).toBe(44);

      expect((await t.json('PUT', '/api/auth/me/subsonic/password', { token, body: { password: 'short' } })).status).toBe(400);
      expect((await t.json('PUT', '/api/auth/me/subsonic/password', { token, body: { password: 'new-boss-subsonic' } })).status).toBe(200);
      expect(((await client({ username: 'boss1', password: 'new-boss-subsonic' }).ping()) as Json).status).toBe('ok');
      expect((await t.json('DELETE', '/api/auth/me/subsonic/password', { token })).status).toBe(200);
      expect((await t.json('GET', '/api/auth/me/subsonic', { token })).body).toEqual({ keys: [], hasPassword: false });

      const guestToken = await t.login('guest1', 'guest-login');
      expect((await t.json('GET', '/api/auth/me/subsonic', { token: guestToken })).body).toEqual({ keys: [], hasPassword: true });
      const refused = await t.json<Json>('POST', '/api/auth/me/subsonic/keys', { token: guestToken, body: { name: 'x' } });
      expect([refused.status, refused.body.code]).toEqual([403, 'GUEST_READ_ONLY']);
      expect((await t.json('GET', '/api/auth/me/subsonic')).status).toBe(401);
    });
  });
});
