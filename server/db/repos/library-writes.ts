/**
 * Write steps shared by the repositories that change a work's labels (the scanner's library-repo and the
 * metadata editor's edit-repo), so the search row and the label counts are kept the same way everywhere.
 * Run inside a write transaction.
 */
import type { WriteHandle } from '../connection.js';
import { searchBody } from '../../domain/normalize.js';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Rewrite the FTS row of a work from its current title, circle, tags and voice actors. */
export async function writeWorkFts(w: WriteHandle, id: number): Promise<void> {
  const work = await w.get<{ code: string; title: string; circle: string | null }>('SELECT w.code, w.title, c.name AS circle FROM works w LEFT JOIN circles c ON c.id = w.circle_id WHERE w.id = ?', [
    id,
  ]);
  if (!work) return;
  const tags = (await w.all<{ name: string }>('SELECT t.name FROM work_tags wt JOIN tags t ON t.id = wt.tag_id WHERE wt.work_id = ? ORDER BY t.id', [id])).map((r) => r.name);
  const vas = (await w.all<{ name: string }>('SELECT v.name FROM work_vas wv JOIN vas v ON v.id = wv.va_id WHERE wv.work_id = ? ORDER BY wv.position', [id])).map((r) => r.name);
  await w.run('DELETE FROM works_fts WHERE rowid = ?', [id]);
  await w.run('INSERT INTO works_fts (rowid, body) VALUES (?, ?)', [id, searchBody({ code: work.code, title: work.title, circle: work.circle, tags, vas })]);
}

/**
 * The search rows of works just inserted from their folders: no circle, tags or voice actors yet. The
 * rows travel as one JSON parameter (a scan inserts works by the batch); a row left behind by a purged
 * work with the same id is replaced.
 */
export async function writeNewWorksFts(w: WriteHandle, works: { id: number; code: string; title: string }[]): Promise<void> {
  if (!works.length) return;
  const rows = JSON.stringify(works.map((work) => [work.id, searchBody({ code: work.code, title: work.title, circle: null, tags: [], vas: [] })]));
  await w.run('DELETE FROM works_fts WHERE rowid IN (SELECT value ->> 0 FROM json_each(?))', [rows]);
  await w.run('INSERT INTO works_fts (rowid, body) SELECT value ->> 0, value ->> 1 FROM json_each(?)', [rows]);
}

/** Recount the given circles, tags and voice actors (number of non-missing works linked). */
export async function recountLabels(w: WriteHandle, ids: { circles: number[]; tags: number[]; vas: string[] }): Promise<void> {
  const circles = [...new Set(ids.circles)];
  const tags = [...new Set(ids.tags)];
  const vas = [...new Set(ids.vas)];
  if (circles.length) await w.run(`UPDATE circles SET work_count = (SELECT COUNT(*) FROM works w WHERE w.circle_id = circles.id AND w.missing = 0) WHERE id IN (${marks(circles.length)})`, circles);
  if (tags.length)
    await w.run(
      `UPDATE tags SET work_count = (SELECT COUNT(*) FROM work_tags wt JOIN works w ON w.id = wt.work_id WHERE wt.tag_id = tags.id AND w.missing = 0) WHERE id IN (${marks(tags.length)})`,
      tags,
    );
  if (vas.length)
    await w.run(`UPDATE vas SET work_count = (SELECT COUNT(*) FROM work_vas wv JOIN works w ON w.id = wv.work_id WHERE wv.va_id = vas.id AND w.missing = 0) WHERE id IN (${marks(vas.length)})`, vas);
}
