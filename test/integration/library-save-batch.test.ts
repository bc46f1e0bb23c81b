/**
 * Group commit of the scanner's work writes (LibraryRepo.saveLocalWork): works saved while another
 * transaction is being written go together in the next one. A batch mixing new works, a work whose
 * location another row holds, and an existing work must give each the result and rows it would get
 * alone, and one bad work must fail alone.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../server/db/connection.js';
import { LibraryRepo, type FileOnDisk, type SaveLocalWorkInput } from '../../server/db/repos/library-repo.js';
import { tempDir } from '../helpers/app.js';

const files = (names: string[], duration = 2): FileOnDisk[] =>
  names.map((p, i) => ({
    path: p,
    kind: p.endsWith('.mp3') ? 'audio' : p.endsWith('.lrc') ? 'text' : 'image',
    isLyric: p.endsWith('.lrc'),
    isMedia: p.endsWith('.mp3'),
    size: 100 + i,
    mtimeMs: 1000 + i,
    duration: p.endsWith('.mp3') ? duration : undefined,
  }));

const input = (id: number, dir: string, names: string[], extra: Partial<SaveLocalWorkInput> = {}): SaveLocalWorkInput => ({
  id,
  code: `RJ${id}`,
  folderTitle: `work ${id}`,
  rootFolder: 'main',
  dir,
  fingerprint: `fp-${id}-${names.length}`,
  files: files(names),
  ...extra,
});

describe('library writes in group-commit batches', () => {
  let db: Database;
  let repo: LibraryRepo;
  beforeEach(async () => {
    db = await Database.open(path.join(tempDir(), 'k.db'));
    repo = new LibraryRepo(db);
  });
  afterEach(() => db.close());

  it('gives every work of a mixed batch the rows and result it gets when saved alone', async () => {
    // before: work 1 lives at a/1, work 2 at b/2
    await repo.saveLocalWork(input(100001, 'a/1', ['01.mp3', '01.lrc']));
    await repo.saveLocalWork(input(100002, 'b/2', ['01.mp3']));
    const commitsBefore = (await db.get<{ version: number }>('SELECT version FROM library_state'))!.version;

    // all at once (one batch after the first): three new works, work 1 changed, and a new work taking
    // work 2's place (work 2 moved away in the same scan)
    const results = await Promise.all([
      repo.saveLocalWork(input(100010, 'c/10', ['01.mp3', '02.mp3', 'cover.jpg'], { coverSource: 'local' })),
      repo.saveLocalWork(input(100011, 'c/11', ['01.mp3', '01.lrc'])),
      repo.saveLocalWork(input(100001, 'a/1', ['01.mp3', '02.mp3'])),
      repo.saveLocalWork(input(100020, 'b/2', ['x.mp3', 'x.lrc'])),
      repo.saveLocalWork(input(100002, 'd/2', ['01.mp3'])),
      repo.saveLocalWork(input(100012, 'c/12', [])),
    ]);
    expect(results.map((r) => [r.created, r.moved, r.filesAdded, r.filesRemoved, r.hasLocalLyric, r.totalDuration])).toEqual([
      [true, false, 3, 0, false, 4],
      [true, false, 2, 0, true, 2],
      [false, false, 1, 1, false, 4],
      [true, false, 2, 0, true, 2],
      [false, true, 0, 0, false, 2],
      [true, false, 0, 0, false, 0],
    ]);
    const works = await db.all<{ id: number; dir: string; next_file_n: number; has_local_lyric: number; total_duration: number; cover_source: string | null; missing: number }>(
      'SELECT id, dir, next_file_n, has_local_lyric, total_duration, cover_source, missing FROM works ORDER BY id',
    );
    expect(works).toEqual([
      { id: 100001, dir: 'a/1', next_file_n: 3, has_local_lyric: 0, total_duration: 4, cover_source: null, missing: 0 },
      { id: 100002, dir: 'd/2', next_file_n: 1, has_local_lyric: 0, total_duration: 2, cover_source: null, missing: 0 },
      { id: 100010, dir: 'c/10', next_file_n: 3, has_local_lyric: 0, total_duration: 4, cover_source: 'local', missing: 0 },
      { id: 100011, dir: 'c/11', next_file_n: 2, has_local_lyric: 1, total_duration: 2, cover_source: null, missing: 0 },
      { id: 100012, dir: 'c/12', next_file_n: 0, has_local_lyric: 0, total_duration: 0, cover_source: null, missing: 0 },
      { id: 100020, dir: 'b/2', next_file_n: 2, has_local_lyric: 1, total_duration: 2, cover_source: null, missing: 0 },
    ]);
    // stable file numbers: work 1 keeps 0 for 01.mp3, gets 2 for 02.mp3 (1 was 01.lrc, never reused)
    expect(await db.all('SELECT n, path, duration FROM files WHERE work_id = 100001 ORDER BY n')).toEqual([
      { n: 0, path: '01.mp3', duration: 2 },
      { n: 2, path: '02.mp3', duration: 2 },
    ]);
    expect(await db.all('SELECT n, path, kind, is_lyric FROM files WHERE work_id = 100010 ORDER BY n')).toEqual([
      { n: 0, path: '01.mp3', kind: 'audio', is_lyric: 0 },
      { n: 1, path: '02.mp3', kind: 'audio', is_lyric: 0 },
      { n: 2, path: 'cover.jpg', kind: 'image', is_lyric: 0 },
    ]);
    // every new work is searchable
    const hits = await db.all<{ rowid: number }>('SELECT rowid FROM works_fts WHERE works_fts MATCH \'"work 10001"\' ORDER BY rowid');
    expect(hits.map((h) => h.rowid)).toEqual([100010, 100011, 100012]);
    expect((await db.get<{ version: number }>('SELECT version FROM library_state'))!.version).toBeGreaterThan(commitsBefore);
    expect((await db.get<{ integrity_check: string }>('PRAGMA integrity_check'))!.integrity_check).toBe('ok');
  });

  it('fails a bad work alone and stores the rest of its batch', async () => {
    await repo.saveLocalWork(input(100001, 'a/1', ['01.mp3']));
    const saves = [
      repo.saveLocalWork(input(100030, 'e/30', ['01.mp3'])),
      // the same path twice breaks UNIQUE (work_id, path)
      repo.saveLocalWork(input(100031, 'e/31', ['01.mp3', '01.mp3'])),
      repo.saveLocalWork(input(100032, 'e/32', ['01.mp3', '02.mp3'])),
    ];
    const settled = await Promise.allSettled(saves);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    const ids = (await db.all<{ id: number }>('SELECT id FROM works ORDER BY id')).map((w) => w.id);
    expect(ids).toEqual([100001, 100030, 100032]);
    expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM files WHERE work_id = 100031'))!.n).toBe(0);
    expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM works_fts WHERE rowid = 100031'))!.n).toBe(0);
  });
});
