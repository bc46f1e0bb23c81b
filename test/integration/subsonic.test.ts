/**
 * The Subsonic API (/rest, docs/API.md#subsonic-api) driven by a third-party Subsonic client
 * (`subsonic-api` from npm) with both kinds of authentication, plus raw checks of the XML form,
 * the error codes and the credentials' storage.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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
        ],
      },
      { id: OTHER, title: 'Another Story', dir: 'RJ300002', release: '2019-01-01', circle: { id: 502, name: 'Alpha' }, files: [{ path: 'a.mp3', n: 1, duration: 60 }] },
    ]);
    await t.app.services.subsonicAuth.setPassword(alice, SUB_PASSWORD);
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

    it('declares every /rest route with Subsonic access, GET and POST, name and name.view', () => {
      const deps = { users: t.app.services.users, authEnabled: () => true, workers: t.app.services.workerTokens } as unknown as GuardDeps;
      const router = createSubsonicRoutes(t.app, deps);
      expect(router.stack.length).toBeGreaterThan(40);
      for (const layer of router.stack) expect(routePolicyOf(layer)?.access).toBe('subsonic');
      const paths = new Set(router.stack.map((l) => `${l.methods.filter((m) => m !== 'HEAD').join(',')} ${l.path}`));
      expect(paths).toContain('GET /rest/getAlbum.view');
      expect(paths).toContain('POST /rest/getAlbum');
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
      expect(ext.openSubsonicExtensions.map((e: Json) => e.name).sort()).toEqual(['apiKeyAuthentication', 'formPost']);
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
});
