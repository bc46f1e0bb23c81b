/**
 * Library files served outside the browse API: cover images (`GET /api/cover/:id?type=`).
 * The type is whitelisted (no path ever comes from the request); a work without a cover gets the
 * bundled default image. Local covers (cover_source 'local': the work's own image) are made with
 * sharp on the first request rather than during the scan, which would otherwise spend most of a
 * first scan resizing images nobody may ever look at.
 */
import { promises as fsp } from 'node:fs';
import { badRequest, notFound } from '../domain/errors.js';
import { formatWorkCode } from '../domain/work-code.js';
import type { ConfigStore } from '../config/config-store.js';
import type { LibraryRepo } from '../db/repos/library-repo.js';
import {
  SERVED_COVER_TYPES,
  coverPath,
  defaultCoverPath,
  isDerivedCoverType,
  makeCoversFromImage,
  makeDerivedCover,
  pickCoverImage,
  type DerivedCoverType,
  type ServedCoverType,
} from '../media/covers.js';
import { readLibraryFile, resolveLibraryPath } from '../media/library-path.js';

/** Largest image of a work a local cover is made from. */
const COVER_SOURCE_MAX_BYTES = 64 * 1024 * 1024;

export interface CoverFile {
  file: string;
  size: number;
  mtime: Date;
  etag: string;
  isDefault: boolean;
}

export class LibraryService {
  /** Local covers made from a work's own image, by work id. */
  private readonly localCovers = new MadeOnRequest();
  /** Derived sizes made from main, by `<work id>:<type>`. */
  private readonly derivedCovers = new MadeOnRequest();

  constructor(
    private readonly library: LibraryRepo,
    private readonly store: ConfigStore,
  ) {}

  static parseCoverType(type: unknown): ServedCoverType {
    if (type === undefined || type === '') return 'main';
    if (typeof type !== 'string' || !(SERVED_COVER_TYPES as readonly string[]).includes(type)) {
      throw badRequest(`参数 type 无效: 只能是 ${SERVED_COVER_TYPES.join(', ')}`, { code: 'FIELD_INVALID', field: 'type' });
    }
    return type as ServedCoverType;
  }

  async cover(workId: number, typeParam: unknown): Promise<CoverFile> {
    const type = LibraryService.parseCoverType(typeParam);
    const work = await this.library.work(workId);
    if (!work) throw notFound(`There is no work with id ${workId} in the database.`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });
    if (isDerivedCoverType(type)) return this.derivedCover(work, type);
    return (await this.storedCover(work, type)) ?? defaultCover(type);
  }

  /** A size the scanner (or the first request, for a local cover) stores; null when the work has none. */
  private async storedCover(work: CoverWork, type: ServedCoverType): Promise<CoverFile | null> {
    const coverDir = this.store.paths().coverDir;
    const made = await statCover(coverPath(coverDir, work.id, type));
    if (made) return made;
    if (work.cover_source === 'local' && !work.missing && (await this.makeLocalCover(work))) return statCover(coverPath(coverDir, work.id, type));
    return null;
  }

  /**
   * A size made from main on first request, and again when main changes (e.g. a metadata refresh:
   * the derived file carries main's modification time); the bundled default in that size when the
   * work has no cover, and main itself when main cannot be read.
   */
  private async derivedCover(work: CoverWork, type: DerivedCoverType): Promise<CoverFile> {
    const main = await this.storedCover(work, 'main');
    if (!main) return defaultCover(type);
    const file = coverPath(this.store.paths().coverDir, work.id, type);
    const current = await statCover(file);
    if (current && current.mtime.getTime() === main.mtime.getTime()) return current;
    // main cannot be read: main itself, until it changes
    const made = await this.derivedCovers.attempt(`${work.id}:${type}`, main.etag, () => makeDerivedCover(this.store.paths().coverDir, work.id, type));
    return (made && (await statCover(file))) || main;
  }

  /** Make the cover sizes from the work's own image; false when it has none usable. */
  private async makeLocalCover(work: CoverWork): Promise<boolean> {
    const root = this.store.get().rootFolders.find((r) => r.name === work.root_folder);
    if (!root) return false;
    const images = (await this.library.files(work.id)).filter((f) => f.kind === 'image');
    const chosen = pickCoverImage(images.map((f) => f.path));
    if (!chosen) return false;
    const chosenRow = images.find((f) => f.path === chosen)!;
    // an image sharp cannot read, or one that links out of the root folder: the default cover until the file changes
    return this.localCovers.attempt(String(work.id), `${chosen}|${chosenRow.size}|${chosenRow.mtime_ms}`, async () => {
      const image = await readLibraryFile(await resolveLibraryPath(root.path, work.dir, chosen), COVER_SOURCE_MAX_BYTES);
      if (!image) throw new Error('cover image too large');
      await makeCoversFromImage(this.store.paths().coverDir, work.id, image);
    });
  }
}

/**
 * Cover files made on request: concurrent requests for one key share a single run, and a run that
 * failed is not tried again while its input is in the same state.
 */
class MadeOnRequest {
  private readonly running = new Map<string, Promise<boolean>>();
  /** Keys whose last run failed, with the input state it had (bounded: cleared past 10,000). */
  private readonly failed = new Map<string, string>();

  /** Whether the file is made: by this run, or by the one this request joined. */
  attempt(key: string, state: string, make: () => Promise<void>): Promise<boolean> {
    const running = this.running.get(key);
    if (running) return running;
    if (this.failed.get(key) === state) return Promise.resolve(false);
    const job = make()
      .then(
        () => {
          this.failed.delete(key);
          return true;
        },
        () => {
          if (this.failed.size > 10_000) this.failed.clear();
          this.failed.set(key, state);
          return false;
        },
      )
      .finally(() => this.running.delete(key));
    this.running.set(key, job);
    return job;
  }
}

/** What the cover route needs to know of a work. */
interface CoverWork {
  id: number;
  root_folder: string;
  dir: string;
  cover_source: string | null;
  missing: number | boolean;
}

async function defaultCover(type: ServedCoverType): Promise<CoverFile> {
  const file = defaultCoverPath(type);
  const st = await fsp.stat(file);
  return { file, size: st.size, mtime: st.mtime, etag: `W/"default-${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`, isDefault: true };
}

async function statCover(file: string): Promise<CoverFile | null> {
  try {
    const st = await fsp.stat(file);
    if (st.isFile() && st.size > 0) return { file, size: st.size, mtime: st.mtime, etag: `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`, isDefault: false };
  } catch {
    /* not there */
  }
  return null;
}
