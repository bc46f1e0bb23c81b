/**
 * SQL of an admin's corrections to the library: a work's title, circle, tags and voice actors (with
 * `works.edited_fields`, which the scanner's metadata refresh honours), editor candidates, tag names
 * restored by "uncensor tags", lyric files written by save-lrc, and file renames of the GBK fix.
 * Same tables as library-repo; every change keeps label work counts, the FTS row and the library
 * version (migration 003) in step.
 */
import type { Database, SqlValue, WriteHandle } from '../connection.js';
import { recountLabels, writeWorkFts } from './library-writes.js';
import { sqlNow } from '../../domain/time.js';

/** Ids of circles and tags made in the metadata editor: above DLsite (< 1e6) and asmr.one (800000000+). */
export const CUSTOM_ID_MIN = 900_000_000;
export const CUSTOM_ID_MAX = 999_999_999;

export type EditableField = 'title' | 'circle' | 'tags' | 'vas';

export interface EditWorkRow {
  id: number;
  code: string;
  title: string;
  circle_id: number;
  edited_fields: string;
  missing: number;
}

export interface LabelRow<Id extends number | string> {
  id: Id;
  name: string;
}

/** A label as the editor chose it: an existing id, or a new custom item by name. */
export type LabelChoice = { id: number } | { newName: string };

export interface WorkEdit {
  title?: string;
  circle?: LabelChoice;
  tags?: LabelChoice[];
  /** Voice actors in credit order; ids are uuidv5(name) (or '0' for the N/A placeholder). */
  vas?: LabelRow<string>[];
  /** The work's whole edited_fields list after this edit (fields the scanner's refresh must keep). */
  editedFields: string[];
}

export type CandidateKind = 'circle' | 'tag' | 'va';

export interface CandidateRow {
  id: number | string;
  name: string;
  count: number;
}

const TABLE: Record<CandidateKind, string> = { circle: 'circles', tag: 'tags', va: 'vas' };

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

export class EditRepo {
  constructor(private readonly db: Database) {}

  work(id: number): Promise<EditWorkRow | undefined> {
    return this.db.get<EditWorkRow>('SELECT id, code, title, circle_id, edited_fields, missing FROM works WHERE id = ?', [id]);
  }

  async tagIdsOf(workId: number): Promise<number[]> {
    return (await this.db.all<{ id: number }>('SELECT tag_id AS id FROM work_tags WHERE work_id = ? ORDER BY tag_id', [workId])).map((r) => r.id);
  }

  async vaIdsOf(workId: number): Promise<string[]> {
    return (await this.db.all<{ id: string }>('SELECT va_id AS id FROM work_vas WHERE work_id = ? ORDER BY position, va_id', [workId])).map((r) => r.id);
  }

  circle(id: number): Promise<LabelRow<number> | undefined> {
    return this.db.get<LabelRow<number>>('SELECT id, name FROM circles WHERE id = ?', [id]);
  }

  tags(ids: number[]): Promise<LabelRow<number>[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.all<LabelRow<number>>(`SELECT id, name FROM tags WHERE id IN (${marks(ids.length)})`, ids);
  }

  vas(ids: string[]): Promise<LabelRow<string>[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.all<LabelRow<string>>(`SELECT id, name FROM vas WHERE id IN (${marks(ids.length)})`, ids);
  }

  /**
   * Editor candidates: every circle, tag or voice actor (unused and custom ones too) whose name contains
   * `q` (any case), most used first. The unknown circle (id 0) is never offered.
   */
  candidates(kind: CandidateKind, q: string, limit: number): Promise<CandidateRow[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    if (kind === 'circle') where.push('id != 0');
    if (q) {
      where.push("name LIKE ? ESCAPE '\\'");
      params.push(`%${likeEscape(q)}%`);
    }
    return this.db.all<CandidateRow>(
      `SELECT id, name, work_count AS count FROM ${TABLE[kind]} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY work_count DESC, name, id LIMIT ?`,
      [...params, limit],
    );
  }

  /**
   * Apply an edit in one transaction: new custom circles/tags are created (an existing label of the same
   * name is reused instead), links are replaced, counts, the FTS row and the library version follow.
   * Returns the resolved circle and tag ids.
   */
  saveWorkEdit(workId: number, edit: WorkEdit): Promise<{ circleId: number; tagIds: number[] }> {
    return this.db.tx(async (w) => {
      const before = await w.get<{ circle_id: number }>('SELECT circle_id FROM works WHERE id = ?', [workId]);
      if (!before) throw new Error(`work ${workId} vanished during the edit`);
      const oldTags = (await w.all<{ id: number }>('SELECT tag_id AS id FROM work_tags WHERE work_id = ?', [workId])).map((r) => r.id);
      const oldVas = (await w.all<{ id: string }>('SELECT va_id AS id FROM work_vas WHERE work_id = ?', [workId])).map((r) => r.id);

      const sets: string[] = ['edited_fields = ?', 'updated_at = ?'];
      const params: SqlValue[] = [JSON.stringify(edit.editedFields), sqlNow()];
      if (edit.title !== undefined) {
        sets.push('title = ?');
        params.push(edit.title);
      }
      let circleId = before.circle_id;
      if (edit.circle) {
        circleId = await this.resolveLabel(w, 'circles', edit.circle);
        sets.push('circle_id = ?');
        params.push(circleId);
      }
      await w.run(`UPDATE works SET ${sets.join(', ')} WHERE id = ?`, [...params, workId]);

      let tagIds = oldTags;
      if (edit.tags) {
        tagIds = [];
        for (const choice of edit.tags) tagIds.push(await this.resolveLabel(w, 'tags', choice));
        await w.run('DELETE FROM work_tags WHERE work_id = ?', [workId]);
        for (const id of new Set(tagIds)) await w.run('INSERT INTO work_tags (work_id, tag_id) VALUES (?, ?)', [workId, id]);
      }
      if (edit.vas) {
        for (const va of edit.vas) await w.run('INSERT INTO vas (id, name) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', [va.id, va.name]);
        await w.run('DELETE FROM work_vas WHERE work_id = ?', [workId]);
        for (const [i, va] of edit.vas.entries()) await w.run('INSERT INTO work_vas (work_id, va_id, position) VALUES (?, ?, ?)', [workId, va.id, i]);
      }
      await writeWorkFts(w, workId);
      await recountLabels(w, {
        circles: [before.circle_id, circleId],
        tags: [...oldTags, ...tagIds],
        vas: [...oldVas, ...(edit.vas ?? []).map((v) => v.id)],
      });
      await bumpVersion(w);
      return { circleId, tagIds };
    });
  }

  /** An existing id as is; a new name → the label of that name (a custom one first), else a new custom id. */
  private async resolveLabel(w: WriteHandle, table: 'circles' | 'tags', choice: LabelChoice): Promise<number> {
    if ('id' in choice) return choice.id;
    const existing = await w.get<{ id: number }>(
      `SELECT id FROM ${table} WHERE name = ? ${table === 'circles' ? 'AND id != 0' : ''}
        ORDER BY (id BETWEEN ? AND ?) DESC, work_count DESC, id LIMIT 1`,
      [choice.newName, CUSTOM_ID_MIN, CUSTOM_ID_MAX],
    );
    if (existing) return existing.id;
    const top = await w.get<{ id: number | null }>(`SELECT MAX(id) AS id FROM ${table} WHERE id BETWEEN ? AND ?`, [CUSTOM_ID_MIN, CUSTOM_ID_MAX]);
    const id = top?.id == null ? CUSTOM_ID_MIN : top.id + 1;
    if (id > CUSTOM_ID_MAX) throw new Error(`no custom ${table} id left`);
    await w.run(`INSERT INTO ${table} (id, name) VALUES (?, ?)`, [id, choice.newName]);
    return id;
  }

  // ---- uncensor tags ----------------------------------------------------------------------------

  /**
   * Rename tags whose name is a censored one (and that were not renamed before), keeping DLsite's name in
   * `original_name`. Returns the number of tags renamed.
   */
  restoreTagNames(mapping: Map<string, string>): Promise<number> {
    return this.db.tx(async (w) => {
      const names = [...mapping.keys()];
      const rows: { id: number; name: string }[] = [];
      for (let i = 0; i < names.length; i += 500) {
        const chunk = names.slice(i, i + 500);
        rows.push(...(await w.all<{ id: number; name: string }>(`SELECT id, name FROM tags WHERE original_name IS NULL AND name IN (${marks(chunk.length)})`, chunk)));
      }
      for (const row of rows) await w.run('UPDATE tags SET original_name = name, name = ? WHERE id = ?', [mapping.get(row.name)!, row.id]);
      await this.refreshFtsOfTags(
        w,
        rows.map((r) => r.id),
      );
      return rows.length;
    });
  }

  /** Undo {@link restoreTagNames}: every renamed tag gets DLsite's name back. Returns how many. */
  undoTagNames(): Promise<number> {
    return this.db.tx(async (w) => {
      const rows = await w.all<{ id: number }>('SELECT id FROM tags WHERE original_name IS NOT NULL');
      await w.run('UPDATE tags SET name = original_name, original_name = NULL WHERE original_name IS NOT NULL');
      await this.refreshFtsOfTags(
        w,
        rows.map((r) => r.id),
      );
      return rows.length;
    });
  }

  private async refreshFtsOfTags(w: WriteHandle, tagIds: number[]): Promise<void> {
    if (!tagIds.length) return;
    const works = new Set<number>();
    for (let i = 0; i < tagIds.length; i += 500) {
      const chunk = tagIds.slice(i, i + 500);
      for (const r of await w.all<{ id: number }>(`SELECT DISTINCT work_id AS id FROM work_tags WHERE tag_id IN (${marks(chunk.length)})`, chunk)) works.add(r.id);
    }
    for (const id of works) await writeWorkFts(w, id);
    await bumpVersion(w);
  }

  // ---- files --------------------------------------------------------------------------------------

  /** The stored file at a path of a work, if any. */
  fileAt(workId: number, relPath: string): Promise<{ n: number; is_lyric: number; kind: string } | undefined> {
    return this.db.get('SELECT n, is_lyric, kind FROM files WHERE work_id = ? AND path = ?', [workId, relPath]);
  }

  /**
   * Record a lyric file written into a work folder: an existing row keeps its number, a new file gets the
   * work's next one (numbers are never reused). The work's local lyric flag is set.
   */
  recordLyricFile(workId: number, relPath: string, size: number, mtimeMs: number): Promise<{ n: number; created: boolean }> {
    return this.db.tx(async (w) => {
      const existing = await w.get<{ n: number }>('SELECT n FROM files WHERE work_id = ? AND path = ?', [workId, relPath]);
      const now = sqlNow();
      if (existing) {
        await w.run("UPDATE files SET kind = 'text', is_lyric = 1, size = ?, mtime_ms = ?, duration = NULL WHERE work_id = ? AND n = ?", [size, mtimeMs, workId, existing.n]);
        await w.run('UPDATE works SET has_local_lyric = 1, updated_at = ? WHERE id = ?', [now, workId]);
        return { n: existing.n, created: false };
      }
      const work = await w.get<{ next_file_n: number }>('SELECT next_file_n FROM works WHERE id = ?', [workId]);
      if (!work) throw new Error(`work ${workId} vanished while saving a lyric file`);
      const n = work.next_file_n;
      await w.run("INSERT INTO files (work_id, n, path, kind, is_lyric, size, mtime_ms, duration) VALUES (?, ?, ?, 'text', 1, ?, ?, NULL)", [workId, n, relPath, size, mtimeMs]);
      await w.run('UPDATE works SET next_file_n = ?, has_local_lyric = 1, updated_at = ? WHERE id = ?', [n + 1, now, workId]);
      return { n, created: true };
    });
  }

  /** Every stored file path of a work with its number. */
  filePaths(workId: number): Promise<{ n: number; path: string }[]> {
    return this.db.all('SELECT n, path FROM files WHERE work_id = ? ORDER BY n', [workId]);
  }

  /**
   * Follow renames on disk: files keep their numbers (only `path` changes), AI tasks follow their audio.
   * A row that already holds a new path is stale (the name was free on disk) and is dropped.
   */
  renamePaths(workId: number, renames: { from: string; to: string }[]): Promise<number> {
    if (!renames.length) return Promise.resolve(0);
    return this.db.tx(async (w) => {
      const rows: { n: number; to: string }[] = [];
      for (const r of renames) {
        const row = await w.get<{ n: number }>('SELECT n FROM files WHERE work_id = ? AND path = ?', [workId, r.from]);
        if (row) rows.push({ n: row.n, to: r.to });
      }
      // two steps, so that swaps and chains never trip the (work_id, path) uniqueness
      for (const r of rows) await w.run('UPDATE files SET path = ? WHERE work_id = ? AND n = ?', [`\u0000renaming/${r.n}`, workId, r.n]);
      for (const r of rows) {
        await w.run('DELETE FROM files WHERE work_id = ? AND path = ?', [workId, r.to]);
        await w.run('UPDATE files SET path = ? WHERE work_id = ? AND n = ?', [r.to, workId, r.n]);
      }
      for (const r of renames) await w.run('UPDATE OR IGNORE ai_tasks SET audio_path = ? WHERE work_id = ? AND audio_path = ?', [r.to, workId, r.from]);
      return rows.length;
    });
  }
}

/** The library version every list cache keys on; bumped when FTS rows change (no triggers there). */
async function bumpVersion(w: WriteHandle): Promise<void> {
  await w.run('UPDATE library_state SET version = version + 1 WHERE id = 1');
}
