/**
 * Library files served outside the browse API: cover images (`GET /api/cover/:id?type=`).
 * The type is whitelisted (no path ever comes from the request); a work without a cover gets the
 * bundled default image.
 */
import { promises as fsp } from 'node:fs';
import { badRequest, notFound } from '../domain/errors.js';
import type { ConfigStore } from '../config/config-store.js';
import type { LibraryRepo } from '../db/repos/library-repo.js';
import { SERVED_COVER_TYPES, coverPath, defaultCoverPath, type ServedCoverType } from '../media/covers.js';

export interface CoverFile {
  file: string;
  size: number;
  mtime: Date;
  etag: string;
  isDefault: boolean;
}

export class LibraryService {
  constructor(
    private readonly library: LibraryRepo,
    private readonly store: ConfigStore,
  ) {}

  static parseCoverType(type: unknown): ServedCoverType {
    if (type === undefined || type === '') return 'main';
    if (typeof type !== 'string' || !(SERVED_COVER_TYPES as readonly string[]).includes(type)) {
      throw badRequest(`参数 type 无效: 只能是 ${SERVED_COVER_TYPES.join(', ')}`);
    }
    return type as ServedCoverType;
  }

  async cover(workId: number, typeParam: unknown): Promise<CoverFile> {
    const type = LibraryService.parseCoverType(typeParam);
    const work = await this.library.work(workId);
    if (!work) throw notFound(`There is no work with id ${workId} in the database.`);
    const candidates = [coverPath(this.store.paths().coverDir, workId, type)];
    for (const file of candidates) {
      try {
        const st = await fsp.stat(file);
        if (st.isFile() && st.size > 0) return { file, size: st.size, mtime: st.mtime, etag: `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`, isDefault: false };
      } catch {
        /* not there: next candidate */
      }
    }
    const file = defaultCoverPath();
    const st = await fsp.stat(file);
    return { file, size: st.size, mtime: st.mtime, etag: `W/"default-${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`, isDefault: true };
  }
}
