import type { ReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppError, badRequest, conflict, forbidden, notFound } from '../domain/errors.js';
import { lyricLimitText, MAX_LYRIC_BYTES } from '../domain/lyrics/limits.js';
import { sqlNow } from '../domain/time.js';
import { formatWorkCode } from '../domain/work-code.js';
import { canWrite, isAdmin, type Actor } from '../auth/roles.js';
import type { Config } from '../config/schema.js';
import { AiStatus, aiStatusName, type AiStatusName } from '../domain/ai-status.js';
import type { AiTaskRow, AiTasksRepo, TaskAccount, TaskFilter } from '../db/repos/ai-tasks-repo.js';
import { isWithin, LibraryPathError, openLibraryFile, resolveLibraryPath } from '../media/library-path.js';

/** A task as the queue API returns it (docs/API.md#ai-lyric-tasks). */
export interface AiTaskDto {
  id: number;
  work_id: number;
  audio_path: string;
  status: number;
  status_text: AiStatusName;
  worker_name: string;
  worker_status: string;
  /** The account that acquired the task (a user or a worker token), beside the self-chosen worker_name; null until acquired. */
  acquired_by: TaskAccount | null;
  /** The account that finished it (SUCCESS or ERROR); null until finished. */
  finished_by: TaskAccount | null;
  title: string | null;
  created_at: string;
  updated_at: string;
  /** In the AI centre's list: whether the viewer may retry and delete it (an admin any task, a user their own). */
  can_change?: boolean;
}

export interface TaskListQuery {
  page: number;
  statuses: number[];
  workId?: number;
  fileName?: string;
}

export interface TaskList {
  pagination: { currentPage: number; pageSize: number; totalCount: number };
  tasks: AiTaskDto[];
  /** Whether waiting tasks have a worker to take them (beside the kikoeru fields; the AI centre shows how to start one). */
  workers?: WorkerPresence;
}

/** The queue's side of the workers: tasks waiting, and whether a worker called recently. */
export interface WorkerPresence {
  /** PENDING tasks (all users'). */
  waiting: number;
  /** A worker called a worker endpoint within WORKER_ACTIVE_MS. */
  active: boolean;
  /** When a worker last called (admins only; null: none since the server started). */
  lastSeenAt?: string | null;
}

/**
 * A worker counts as running while it called within this: it polls every few seconds when idle
 * (`--poll`, 5 s) and sends a heartbeat while it works (`--heartbeat`, 30 s).
 */
export const WORKER_ACTIVE_MS = 2 * 60_000;

/** Who calls a worker endpoint: a worker token or a (non-guest) user, by name. Recorded on the task. */
export type WorkerCaller = TaskAccount;

export interface TaskDownload {
  stream: ReadStream;
  size: number;
  fileName: string;
}

/** Tasks one (non-admin) user may have waiting in the queue at once. */
export const MAX_PENDING_TASKS_PER_USER = 100;

/** Task ids named in a refusal: the first few and how many (a request may send 10,000). */
const LISTED_IDS = 5;
const idList = (ids: number[]) => (ids.length <= LISTED_IDS ? ids.join(', ') : `${ids.slice(0, LISTED_IDS).join(', ')} 等 ${ids.length} 个`);

export const MSG = {
  tooManyPending: `你已有 ${MAX_PENDING_TASKS_PER_USER} 个等待中的转写任务，请等它们完成后再添加.`,
  emptyQueue: '无待认领的翻译任务',
  notHeld: '没有找到指定的任务',
  guest: '游客账号只能浏览和播放，不能进行此操作.',
  guestWorker: '游客账号不能领取或提交转写任务.',
  notOwner: (verb: string, ids: number[]) => `只能${verb}自己创建的转写任务（任务 id=${idList(ids)} 由其他用户创建），管理员可以${verb}任何任务.`,
} as const;

const account = (kind: string | null, name: string | null): TaskAccount | null => ((kind === 'user' || kind === 'token') && name !== null ? { kind, name } : null);

export const toTaskDto = (r: AiTaskRow): AiTaskDto => ({
  id: r.id,
  work_id: r.work_id,
  audio_path: r.audio_path,
  status: r.status,
  status_text: aiStatusName(r.status),
  worker_name: r.worker_name,
  worker_status: r.worker_status,
  acquired_by: account(r.acquired_by_kind, r.acquired_by_name),
  finished_by: account(r.finished_by_kind, r.finished_by_name),
  title: r.title ?? null,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/**
 * The AI transcription queue (docs/API.md#ai-lyric-tasks, docs/API.md#ai-worker-protocol):
 * tasks by track hash, worker acquisition with a secret and a lease, progress, results as LRC.
 */
export class AiTasksService {
  /** When a worker last called the worker protocol (in memory: since this server started). */
  private workerSeenAt: Date | null = null;

  constructor(
    private readonly repo: AiTasksRepo,
    private readonly config: () => Config,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private now(): string {
    return sqlNow(this.clock());
  }

  private leaseUntil(): string {
    return sqlNow(new Date(this.clock().getTime() + this.config().aiTaskLeaseMinutes * 60_000));
  }

  /**
   * The audio file of a task or track, opened through library-path.ts: its real path must stay inside
   * the real root folder, and that real path is what is opened. No absolute path reaches a message.
   */
  private async openAudio(rootAlias: string, dir: string, relPath: string, failPrefix = ''): Promise<{ handle: FileHandle; size: number }> {
    const root = this.config().rootFolders.find((f) => f.name === rootAlias);
    if (!root) throw notFound(`${failPrefix}找不到文件夹: "${rootAlias}"，请检查媒体库文件夹设置`, { code: 'ROOT_FOLDER_MISSING', params: { folder: rootAlias } });
    const base = path.resolve(root.path);
    const abs = path.resolve(base, ...dir.split('/'), ...relPath.split('/'));
    if (abs === base || !isWithin(base, abs)) throw notFound(`${failPrefix}找不到具体的音频文件: "${relPath}"`, { code: 'FILE_GONE' });
    try {
      const { handle, stat } = await openLibraryFile(await resolveLibraryPath(base, abs));
      return { handle, size: stat.size };
    } catch (err) {
      if (err instanceof LibraryPathError && err.problem === 'outside') throw forbidden(`${failPrefix}拒绝访问：音频文件链接到了媒体库文件夹之外`, { code: 'PATH_OUTSIDE_LIBRARY' });
      if (err instanceof LibraryPathError) throw notFound(`${failPrefix}找不到具体的音频文件: "${relPath}"，请重新扫描该作品`, { code: 'FILE_GONE' });
      throw err;
    }
  }

  // ---- UI side -------------------------------------------------------------------------------

  /** A worker endpoint was called (acquire, status, get, download, finish). */
  private sawWorker(): void {
    this.workerSeenAt = this.clock();
  }

  /** Waiting tasks and whether a worker is around; the last call's time only for admins. */
  async workerPresence(viewer: Actor | null): Promise<WorkerPresence> {
    const { total } = await this.repo.page({ statuses: [AiStatus.PENDING] }, 0, 0);
    const seen = this.workerSeenAt;
    const presence: WorkerPresence = { waiting: total, active: seen !== null && this.clock().getTime() - seen.getTime() < WORKER_ACTIVE_MS };
    if (isAdmin(viewer)) presence.lastSeenAt = seen ? seen.toISOString() : null;
    return presence;
  }

  /** GET /api/lyric/translate with `workers` for the viewer (the AI centre). */
  async listFor(viewer: Actor | null, q: TaskListQuery): Promise<TaskList> {
    const [list, workers] = await Promise.all([this.list(q), this.workerPresence(viewer)]);
    // the same rule as ownedIds(): the page offers retry and delete only where the server allows them
    const creators = isAdmin(viewer) || !canWrite(viewer) ? null : await this.repo.creators(list.tasks.map((task) => task.id));
    const canChange = (id: number) => isAdmin(viewer) || (creators !== null && viewer !== null && creators.get(id) === viewer.id);
    return { ...list, tasks: list.tasks.map((task) => ({ ...task, can_change: canChange(task.id) })), workers };
  }

  /** GET /api/lyric/translate. `page = -1` with a work: all of its tasks; without: the first page. */
  async list(q: TaskListQuery): Promise<TaskList> {
    const filter: TaskFilter = { statuses: q.statuses, workId: q.workId || undefined, fileName: q.fileName || undefined };
    const pageSize = this.config().pageSize;
    if (q.page === -1 && filter.workId) {
      const { rows, total } = await this.repo.page(filter, -1, 0);
      return { pagination: { currentPage: q.page, pageSize: total, totalCount: total }, tasks: rows.map(toTaskDto) };
    }
    const offset = q.page === -1 ? 0 : (q.page - 1) * pageSize;
    const { rows, total } = await this.repo.page(filter, pageSize, offset);
    return { pagination: { currentPage: q.page, pageSize, totalCount: total }, tasks: rows.map(toTaskDto) };
  }

  /** Tasks of one work, oldest first (tree badges, the player's AI lyric options). */
  async ofWork(workId: number): Promise<AiTaskDto[]> {
    return (await this.repo.ofWork(workId)).map(toTaskDto);
  }

  /** The LRC text of a successful task, or undefined (for fetch-lrc's AI form). */
  successfulLrc(id: number): Promise<string | undefined> {
    return this.repo.successfulLrc(id);
  }

  /** PUT /api/lyric/translate/:workId/:n — queue the audio file behind a track hash. */
  async create(actor: Actor, workId: number, n: number): Promise<{ id: number }> {
    if (!canWrite(actor)) throw forbidden(MSG.guest, { code: 'GUEST_READ_ONLY' });
    const track = await this.repo.track(workId, n);
    if (!track) {
      if (!(await this.repo.workExists(workId))) throw notFound(`作品 ${formatWorkCode(workId)} 不存在`, { code: 'WORK_NOT_FOUND', params: { work: formatWorkCode(workId) } });
      throw notFound(`作品 ${formatWorkCode(workId)} 中没有编号为 ${n} 的文件（${workId}/${n}）`, { code: 'FILE_NOT_FOUND', params: { file: `${workId}/${n}` } });
    }
    if (track.kind !== 'audio') throw badRequest(`只能为音频文件创建转写任务: "${track.path}" 不是音频文件`, { code: 'AI_AUDIO_ONLY' });
    await (await this.openAudio(track.root_folder, track.dir, track.path)).handle.close();
    // admins (and the terminal) queue as much as they like; a user's waiting tasks are capped
    const cap = isAdmin(actor) ? Infinity : MAX_PENDING_TASKS_PER_USER;
    const created = await this.repo.create(workId, track.path, actor.id > 0 ? actor.id : null, this.now(), cap);
    if ('duplicate' in created) {
      throw conflict(`${formatWorkCode(workId)} already contain translation task[${track.path}] in the database.（已有转写任务 id=${created.duplicate}）`, {
        code: 'AI_TASK_DUPLICATE',
        params: { id: created.duplicate },
      });
    }
    if ('pendingOfCreator' in created) throw new AppError('too_many_requests', MSG.tooManyPending, { code: 'AI_TASK_LIMIT', params: { max: MAX_PENDING_TASKS_PER_USER } });
    return { id: created.id };
  }

  /**
   * The distinct ids, when every one exists (404 otherwise) and the actor may change every one (403
   * otherwise): an admin any task, a user only the tasks they created. Nothing is changed on a refusal.
   */
  private async ownedIds(actor: Actor, ids: number[], verb: string): Promise<number[]> {
    if (!canWrite(actor)) throw forbidden(MSG.guest, { code: 'GUEST_READ_ONLY' });
    const unique = [...new Set(ids)];
    const creators = await this.repo.creators(unique);
    const missing = unique.filter((id) => !creators.has(id));
    if (missing.length) throw notFound(`没有找到翻译任务 id=${idList(missing)}`, { code: 'AI_TASK_NOT_FOUND' });
    if (!isAdmin(actor)) {
      const others = unique.filter((id) => creators.get(id) !== actor.id);
      if (others.length) throw forbidden(MSG.notOwner(verb, others), { code: 'AI_TASK_NOT_OWNER' });
    }
    return unique;
  }

  /** DELETE /api/lyric/translate/:id (+ idArr). Only the requester or an admin; all ids must exist; otherwise nothing is deleted. */
  async remove(actor: Actor, ids: number[]): Promise<{ counts: number }> {
    return { counts: await this.repo.delete(await this.ownedIds(actor, ids, '删除')) };
  }

  /** POST /api/lyric/translate/redo/:id (+ idArr): back to PENDING, the old secret no longer works. Only the requester or an admin. */
  async redo(actor: Actor, ids: number[]): Promise<{ counts: number }> {
    return { counts: await this.repo.redo(await this.ownedIds(actor, ids, '重做'), this.now()) };
  }

  /** GET /api/lyric/translate/lrc?id= */
  async lrc(id: number): Promise<{ lrcContent: string }> {
    const lrc = await this.repo.successfulLrc(id);
    if (lrc === undefined) throw notFound(`没有找到指定成功的任务id=${id}`, { code: 'AI_TASK_NOT_FOUND' });
    return { lrcContent: lrc };
  }

  // ---- worker protocol ------------------------------------------------------------------------

  /** POST /acquire: the oldest pending task, with a fresh 64-hex secret and a lease. */
  async acquire(caller: WorkerCaller, workerName: string | undefined): Promise<{ id: number; secret: string; audio_ext: string }> {
    this.sawWorker();
    const secret = randomBytes(32).toString('hex');
    const task = await this.repo.acquire(workerName || caller.name, caller, secret, this.now(), this.leaseUntil());
    if (!task) throw notFound(MSG.emptyQueue, { code: 'AI_QUEUE_EMPTY' });
    return { id: task.id, secret, audio_ext: path.posix.extname(task.audio_path) };
  }

  /** POST /status: progress text + heartbeat. `success: false` when the task is not held with this secret. */
  async report(id: number, secret: string, workerStatus: string | undefined): Promise<{ success: boolean }> {
    this.sawWorker();
    return { success: await this.repo.report(id, secret, workerStatus, this.now(), this.leaseUntil()) };
  }

  /** GET /get: the task while held with this secret (heartbeat), else `{}`. */
  async held(id: number, secret: string): Promise<{ task?: { id: number; worker_status: string; work_id: number; audio_path: string } }> {
    this.sawWorker();
    const t = await this.repo.held(id, secret, this.leaseUntil());
    return t ? { task: { id: t.id, worker_status: t.worker_status, work_id: t.work_id, audio_path: t.audio_path } } : {};
  }

  /** GET /download: the audio of a held task (heartbeat). */
  async download(id: number, secret: string): Promise<TaskDownload> {
    this.sawWorker();
    const fail = '下载翻译音频文件失败 ';
    const t = await this.repo.held(id, secret, this.leaseUntil());
    if (!t) throw notFound(`${fail}${MSG.notHeld}`, { code: 'AI_TASK_NOT_HELD' });
    if (t.root_folder === null || t.dir === null) throw notFound(`${fail}作品不存在`, { code: 'WORK_NOT_FOUND' });
    const { handle, size } = await this.openAudio(t.root_folder, t.dir, t.audio_path, fail);
    // the stream reads the checked descriptor and closes it when it ends or is destroyed
    return { stream: handle.createReadStream(), size, fileName: path.posix.basename(t.audio_path) };
  }

  /** POST /finish: SUCCESS with the LRC or ERROR; the secret is cleared and the caller recorded. A second finish is a 404. */
  async finish(caller: WorkerCaller, id: number, secret: string, success: boolean, lrc: string): Promise<Record<string, never>> {
    this.sawWorker();
    // a lyric everyone may load is kept within what the lyric parser reads (the task stays held: a retry can send less)
    if (success && (lrc.length > MAX_LYRIC_BYTES || Buffer.byteLength(lrc) > MAX_LYRIC_BYTES)) {
      throw new AppError('payload_too_large', `lrc_content 过大（超过 ${lyricLimitText()}），不予保存`, { code: 'LYRIC_TOO_LARGE', field: 'lrc_content', params: { limit: lyricLimitText() } });
    }
    if (!(await this.repo.finish(id, secret, success, lrc, caller, this.now()))) throw notFound(MSG.notHeld, { code: 'AI_TASK_NOT_HELD' });
    return {};
  }

  /** Re-queue tasks whose worker stopped reporting (run by a timer, and lazily at acquire). */
  requeueExpired(at: Date = this.clock()): Promise<number> {
    return this.repo.requeueExpired(sqlNow(at));
  }
}
