/**
 * An admin's corrections (docs/API.md#admin-corrections): a work's title, circle, tags and
 * voice actors (kept by every later metadata refresh through `works.edited_fields`), the editor's
 * candidate lists, repairing garbled file names inside a work folder (`fix/gbk`), and restoring censored
 * DLsite tag names (reversibly).
 */
import { promises as fsp, type Dirent } from 'node:fs';
import { v5 as uuidv5 } from 'uuid';
import type { ConfigStore } from '../config/config-store.js';
import { isAdmin, type Actor } from '../auth/roles.js';
import { badRequest, conflict, forbidden, notFound } from '../domain/errors.js';
import { formatWorkCode } from '../domain/work-code.js';
import type { EditWorkBody } from '../contract/requests/edit.js';
import { uncensorMapping } from '../domain/uncensor-tags.js';
import { repairName } from '../media/mojibake.js';
import { strictUtf8 } from '../media/charset.js';
import { VA_NAMESPACE } from '../domain/work-metadata.js';
import { isSkippedFolder } from '../library/files/fs-walk.js';
import type { WorkMemo } from '../library/scan/run-context.js';
import type { FilesRepo } from '../db/repos/files-repo.js';
import type { CandidateKind, EditableField, EditRepo, LabelChoice, LabelRow, WorkEdit } from '../db/repos/edit-repo.js';
import type { ScanService } from './scan-service.js';
import { resolveWorkFolder } from './lyrics-service.js';

export const DUPLICATE_ITEM = '项目已存在，无需重复添加';
/** The placeholder voice actor of a work without one. */
export const NA_VA: LabelRow<string> = { id: '0', name: 'N/A' };

export interface Candidate {
  id: number | string;
  name: string;
  count: number;
  type: CandidateKind;
  /** Search condition type of the advanced search (2 va, 3 tag, 4 circle) and its value. */
  t: number;
  d: number | string;
}

const CONDITION_TYPE: Record<CandidateKind, number> = { va: 2, tag: 3, circle: 4 };

export interface FixGbkResult {
  memo: WorkMemo;
  /** Renamed entries, relative to the work folder (old → new). */
  renamed: { from: string; to: string }[];
  /** Entries that could not be renamed (the repaired name is taken, or the rename failed). */
  skipped: { path: string; reason: string }[];
}

/** Names compare after NFKC, case folding and trimming (`ＡＳＭＲ` = `asmr`). */
const sameName = (s: string) => s.normalize('NFKC').toLowerCase().trim();

function parseEdited(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export class EditService {
  constructor(
    private readonly repo: EditRepo,
    private readonly files: FilesRepo,
    private readonly scan: ScanService,
    private readonly store: ConfigStore,
  ) {}

  private admin(actor: Actor): void {
    if (!isAdmin(actor)) throw forbidden('只有管理员能进行此操作.', { code: 'ADMIN_ONLY' });
  }

  // ---- metadata ---------------------------------------------------------------------------------

  /** POST /api/edit/work/:id */
  async editWork(actor: Actor, workId: number, body: EditWorkBody): Promise<{ result: true; message: string; edited_fields: string[] }> {
    this.admin(actor);
    const work = await this.repo.work(workId);
    if (!work) throw notFound(`作品 ${formatWorkCode(workId)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });

    const edit: WorkEdit = { editedFields: [] };
    const changed = new Set<EditableField>();

    if (body.title !== undefined && body.title !== work.title) {
      edit.title = body.title;
      changed.add('title');
    }

    if (body.circle) {
      const choice = await this.circleChoice(body.circle);
      const same = 'id' in choice ? choice.id === work.circle_id : sameName((await this.repo.circle(work.circle_id))?.name ?? '') === sameName(choice.newName);
      if (!same) {
        edit.circle = choice;
        changed.add('circle');
      }
    }

    if (body.tags) {
      const choices = await this.tagChoices(body.tags);
      const current = await this.repo.tagIdsOf(workId);
      const ids = choices.filter((c): c is { id: number } => 'id' in c).map((c) => c.id);
      const same = choices.length === ids.length && ids.length === current.length && [...ids].sort((a, b) => a - b).every((id, i) => id === current[i]);
      if (!same) {
        edit.tags = choices;
        changed.add('tags');
      }
    }

    if (body.vas) {
      const vas = await this.vaList(body.vas);
      const current = await this.repo.vaIdsOf(workId);
      if (vas.length !== current.length || vas.some((v, i) => v.id !== current[i])) {
        edit.vas = vas;
        changed.add('vas');
      }
    }

    const edited = parseEdited(work.edited_fields);
    for (const f of changed) if (!edited.includes(f)) edited.push(f);
    if (changed.size) {
      edit.editedFields = edited;
      await this.repo.saveWorkEdit(workId, edit);
    }
    return { result: true, message: changed.size ? '修改成功' : '没有需要修改的内容', edited_fields: edited };
  }

  private async circleChoice(input: { id: number; name: string }): Promise<LabelChoice> {
    if (input.id === 0) {
      if (!input.name) throw badRequest('参数 circle 无效: 新社团的名称不能为空', { code: 'NAME_REQUIRED', field: 'circle' });
      return { newName: input.name };
    }
    if (!(await this.repo.circle(input.id))) throw badRequest(`参数 circle 无效: 社团 ${input.id} 不存在`, { code: 'LABEL_NOT_FOUND', field: 'circle', params: { kind: 'circles' } });
    return { id: input.id };
  }

  /** Tags as chosen: existing ids must exist; id 0 = new by name; duplicates (by id or name) are a 400. */
  private async tagChoices(input: { id: number; name: string }[]): Promise<LabelChoice[]> {
    const ids = input.filter((t) => t.id !== 0).map((t) => t.id);
    const known = new Map((await this.repo.tags([...new Set(ids)])).map((t) => [t.id, t.name]));
    const seenIds = new Set<number>();
    const seenNames = new Set<string>();
    const out: LabelChoice[] = [];
    for (const [i, t] of input.entries()) {
      let label: string;
      if (t.id === 0) {
        if (!t.name) throw badRequest(`参数 tags.${i} 无效: 新标签的名称不能为空`, { code: 'NAME_REQUIRED', field: `tags.${i}` });
        label = t.name;
        out.push({ newName: t.name });
      } else {
        const stored = known.get(t.id);
        if (stored === undefined) throw badRequest(`参数 tags.${i} 无效: 标签 ${t.id} 不存在`, { code: 'LABEL_NOT_FOUND', field: `tags.${i}`, params: { kind: 'tags' } });
        if (seenIds.has(t.id)) throw badRequest(DUPLICATE_ITEM, { code: 'DUPLICATE_ITEM' });
        seenIds.add(t.id);
        label = stored;
        out.push({ id: t.id });
      }
      if (seenNames.has(sameName(label))) throw badRequest(DUPLICATE_ITEM, { code: 'DUPLICATE_ITEM' });
      seenNames.add(sameName(label));
    }
    return out;
  }

  /**
   * Voice actors in credit order: id = uuidv5(name) for new ones; at least one, else the N/A placeholder
   * (which is dropped when real voice actors are given); duplicates are a 400.
   */
  private async vaList(input: { id: string | 0; name: string }[]): Promise<LabelRow<string>[]> {
    const isPlaceholder = (v: { id: string | 0; name: string }) => (v.id === 0 || v.id === '0') && (v.name === '' || v.name === NA_VA.name);
    const real = input.filter((v) => !isPlaceholder(v));
    if (!real.length) return [NA_VA];
    const given = real.filter((v) => v.id !== 0 && v.id !== '0').map((v) => String(v.id));
    const known = new Map((await this.repo.vas([...new Set(given)])).map((v) => [v.id, v.name]));
    const out: LabelRow<string>[] = [];
    const seen = new Set<string>();
    for (const [i, v] of input.entries()) {
      if (isPlaceholder(v)) continue;
      let row: LabelRow<string>;
      if (v.id === 0 || v.id === '0') {
        if (!v.name) throw badRequest(`参数 vas.${i} 无效: 新声优的名称不能为空`, { code: 'NAME_REQUIRED', field: `vas.${i}` });
        row = { id: uuidv5(v.name, VA_NAMESPACE), name: v.name };
      } else {
        const stored = known.get(v.id);
        if (stored !== undefined) row = { id: v.id, name: stored };
        else if (v.name && uuidv5(v.name, VA_NAMESPACE) === v.id) row = { id: v.id, name: v.name };
        else throw badRequest(`参数 vas.${i} 无效: 声优不存在`, { code: 'LABEL_NOT_FOUND', field: `vas.${i}`, params: { kind: 'vas' } });
      }
      if (seen.has(row.id)) throw badRequest(DUPLICATE_ITEM, { code: 'DUPLICATE_ITEM' });
      seen.add(row.id);
      out.push(row);
    }
    return out;
  }

  /** GET /api/edit/candidates?type=tag|va|circle&q=&limit= */
  async candidates(actor: Actor, kind: CandidateKind, q: string, limit: number): Promise<Candidate[]> {
    this.admin(actor);
    const rows = await this.repo.candidates(kind, q.trim(), limit);
    return rows.map((r) => ({ id: r.id, name: r.name, count: r.count, type: kind, t: CONDITION_TYPE[kind], d: r.id }));
  }

  // ---- uncensor tags ----------------------------------------------------------------------------

  /** POST /api/uncensor/tags (`?undo=1` restores DLsite's names). */
  async uncensorTags(actor: Actor, opts: { undo: boolean; mapping?: Record<string, string> }): Promise<{ result: 'finished'; changed: number }> {
    this.admin(actor);
    const changed = opts.undo ? await this.repo.undoTagNames() : await this.repo.restoreTagNames(uncensorMapping(opts.mapping));
    return { result: 'finished', changed };
  }

  // ---- fix GBK / Shift-JIS names ----------------------------------------------------------------

  /**
   * POST /api/work/fix/gbk/:id — rename garbled names inside the work folder (never the folder itself,
   * never through a symlink), keep every file's stable number by renaming its row, then rescan the
   * work's files and answer its memo. Running it again changes nothing.
   */
  async fixGbk(actor: Actor, workId: number): Promise<FixGbkResult> {
    this.admin(actor);
    const loc = await this.files.location(workId);
    if (!loc) throw notFound(`作品 ${formatWorkCode(workId)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });
    if (loc.missing) throw conflict(`${formatWorkCode(workId)} 的文件夹已不在媒体库中，无法修复文件名`, { code: 'WORK_FOLDER_MISSING', params: { work: formatWorkCode(workId) } });
    if (await this.scan.isRunning()) throw conflict('正在扫描媒体库，请等扫描结束后再修复文件名', { code: 'SCAN_RUNNING' });
    const workDir = await resolveWorkFolder(this.store.get(), loc);

    const renamed: FixGbkResult['renamed'] = [];
    const skipped: FixGbkResult['skipped'] = [];
    const fileRenames: { from: string; to: string }[] = [];
    await repairTree(Buffer.from(workDir), { old: '', now: '' }, { renamed, skipped, fileRenames });
    await this.repo.renamePaths(workId, fileRenames);
    const { memo } = await this.scan.scanWork(actor, workId);
    return { memo, renamed, skipped };
  }
}

interface RepairLog {
  renamed: FixGbkResult['renamed'];
  skipped: FixGbkResult['skipped'];
  /** Files whose indexed path changed (old → new), for the file index. */
  fileRenames: { from: string; to: string }[];
}

/** Relative path of a folder before and after repair; `old` is null when it was not valid UTF-8. */
interface RelPair {
  old: string | null;
  now: string;
}

const SEP = Buffer.from('/');
const join = (rel: string, name: string) => (rel ? `${rel}/${name}` : name);

/**
 * Walk a folder (as bytes: names that are not valid UTF-8 are legacy bytes written verbatim by an unzip
 * tool) and rename every entry whose name repairs, top-down; symlinked folders are not entered.
 */
async function repairTree(dir: Buffer, rel: RelPair, log: RepairLog): Promise<void> {
  let entries: Dirent<Buffer>[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (err) {
    log.skipped.push({ path: rel.now || '.', reason: `无法读取文件夹: ${(err as NodeJS.ErrnoException).code ?? 'error'}` });
    return;
  }
  for (const entry of entries) {
    const raw = entry.name;
    const utf8 = strictUtf8(raw);
    // Raw legacy bytes read as Latin-1 are exactly the garbled form repairName undoes.
    const repaired = repairName(utf8 ?? raw.toString('latin1'));
    const shown = utf8 ?? raw.toString('latin1');
    let name: Buffer = raw;
    let nowName = shown;
    if (repaired !== null && repaired !== utf8) {
      const target = Buffer.concat([dir, SEP, Buffer.from(repaired)]);
      const taken = await fsp.lstat(target).then(
        () => true,
        () => false,
      );
      if (taken) {
        log.skipped.push({ path: join(rel.now, shown), reason: `修复后的名称 "${repaired}" 已存在` });
      } else {
        try {
          await fsp.rename(Buffer.concat([dir, SEP, raw]), target);
          name = Buffer.from(repaired);
          nowName = repaired;
          log.renamed.push({ from: join(rel.now, shown), to: join(rel.now, repaired) });
        } catch (err) {
          log.skipped.push({ path: join(rel.now, shown), reason: `重命名失败: ${(err as NodeJS.ErrnoException).code ?? 'error'}` });
        }
      }
    }
    const child: RelPair = { old: rel.old !== null && utf8 !== null ? join(rel.old, utf8) : null, now: join(rel.now, nowName) };
    // system folders ($RECYCLE.BIN, dot-folders …) are not the work's content
    if (entry.isDirectory() && !(utf8 !== null && isSkippedFolder(utf8))) await repairTree(Buffer.concat([dir, SEP, name]), child, log);
    else if (child.old !== null && child.old !== child.now) log.fileRenames.push({ from: child.old, to: child.now });
  }
}
