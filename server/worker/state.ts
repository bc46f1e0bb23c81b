import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TimedText } from './lrc.js';
import { ensureDir } from '../config/ensure-dir.js';

/** A task this worker holds, as saved in `<state-dir>/task.json` (resumed after a restart). */
export interface SavedTask {
  server: string;
  id: number;
  secret: string;
  audio_ext: string;
  /** The download finished (its size), so a resume does not fetch it again. */
  downloadedBytes?: number;
  /** The chunk plan of the transcription and the lines of each finished chunk (offsets applied). */
  plan?: string;
  chunks?: (TimedText[] | null)[];
}

/**
 * The worker's state directory: `token` (a login token, when logging in with user/password),
 * `task.json` (the task in progress) and `work/` (its audio and chunks).
 */
export class WorkerState {
  constructor(readonly dir: string) {
    ensureDir(dir, 0o700);
  }

  private get taskFile() {
    return path.join(this.dir, 'task.json');
  }

  private get tokenFile() {
    return path.join(this.dir, 'token');
  }

  private writeAtomic(file: string, text: string, mode = 0o600) {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode });
    renameSync(tmp, file);
  }

  loadTask(): SavedTask | null {
    if (!existsSync(this.taskFile)) return null;
    try {
      const t = JSON.parse(readFileSync(this.taskFile, 'utf8')) as SavedTask;
      return typeof t.id === 'number' && typeof t.secret === 'string' && typeof t.server === 'string' ? t : null;
    } catch {
      return null;
    }
  }

  saveTask(task: SavedTask): void {
    this.writeAtomic(this.taskFile, JSON.stringify(task, null, 2));
  }

  /** Forget the task and delete its files. */
  clearTask(): void {
    rmSync(this.taskFile, { force: true });
    rmSync(this.workDir(), { recursive: true, force: true });
  }

  /** Where a task's audio and chunks live. */
  workDir(): string {
    return path.join(this.dir, 'work');
  }

  /** The downloaded audio of a task: `<id><ext>` with a safe extension. */
  audioFile(task: Pick<SavedTask, 'id' | 'audio_ext'>): string {
    const ext = /^\.[A-Za-z0-9]{1,10}$/.test(task.audio_ext) ? task.audio_ext : '.bin';
    return path.join(this.workDir(), `${task.id}${ext}`);
  }

  loadToken(): string | null {
    if (!existsSync(this.tokenFile)) return null;
    const t = readFileSync(this.tokenFile, 'utf8').trim();
    return t || null;
  }

  saveToken(token: string): void {
    this.writeAtomic(this.tokenFile, token + '\n');
  }
}
