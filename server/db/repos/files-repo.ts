import type { Database } from '../connection.js';
import type { FileKind, TrackFile } from '../../contract/tracks.js';

/** Where a work lives on disk (the folder is `rootFolders[root_folder].path + '/' + dir`). */
export interface WorkLocationRow {
  id: number;
  code: string;
  title: string;
  root_folder: string;
  dir: string;
  missing: number;
}

/** One file of a work with its work's location. */
export interface MediaFileRow extends WorkLocationRow {
  n: number;
  path: string;
  kind: FileKind;
  size: number;
  mtime_ms: number;
}

/**
 * The stored file index of works, read side (the scanner writes it). Media requests look files up here
 * by their stable number instead of listing the work folder.
 */
export class FilesRepo {
  constructor(private readonly db: Database) {}

  location(workId: number): Promise<WorkLocationRow | undefined> {
    return this.db.get<WorkLocationRow>('SELECT id, code, title, root_folder, dir, missing FROM works WHERE id = ?', [workId]);
  }

  /** A work's location and every listed file (unordered; the tree sorts) in one read. */
  async workWithFiles(workId: number): Promise<{ work: WorkLocationRow; files: TrackFile[] } | undefined> {
    const rows = await this.db.all<WorkLocationRow & { n: number | null; path: string | null; kind: FileKind | null; duration: number | null }>(
      `SELECT w.id, w.code, w.title, w.root_folder, w.dir, w.missing, f.n, f.path, f.kind, f.duration
         FROM works w LEFT JOIN files f ON f.work_id = w.id
        WHERE w.id = ?`,
      [workId],
    );
    if (!rows.length) return undefined;
    const { id, code, title, root_folder, dir, missing } = rows[0];
    const files: TrackFile[] = [];
    for (const r of rows) if (r.n !== null && r.path !== null && r.kind !== null) files.push({ n: r.n, path: r.path, kind: r.kind, duration: r.duration });
    return { work: { id, code, title, root_folder, dir, missing }, files };
  }

  /** A file and its work in one read, or undefined when either is unknown. */
  file(workId: number, n: number): Promise<MediaFileRow | undefined> {
    return this.db.get<MediaFileRow>(
      `SELECT w.id, w.code, w.title, w.root_folder, w.dir, w.missing, f.n, f.path, f.kind, f.size, f.mtime_ms
         FROM files f JOIN works w ON w.id = f.work_id
        WHERE f.work_id = ? AND f.n = ?`,
      [workId, n],
    );
  }
}
