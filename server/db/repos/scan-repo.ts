/**
 * scan_runs / scan_events: every scan job's events, persisted so that a run started in another
 * process (`kikoplay scan`, cron) can be followed by the server, and the last run can be shown.
 */
import type { Database } from '../connection.js';
import { sqlNow } from '../../domain/time.js';

export interface ScanRunRow {
  id: number;
  kind: string;
  pid: number;
  status: 'running' | 'finished' | 'error' | 'cancelled';
  summary: string | null;
  started_at: string;
  finished_at: string | null;
}

export interface ScanEventRow {
  id: number;
  run_id: number;
  event: string;
}

/** How many finished runs (with their events) are kept. */
const KEEP_RUNS = 20;

export class ScanRepo {
  constructor(private readonly db: Database) {}

  async createRun(kind: string, pid: number): Promise<number> {
    const r = await this.db.run('INSERT INTO scan_runs (kind, pid, started_at) VALUES (?, ?, ?)', [kind, pid, sqlNow()]);
    return r.lastID;
  }

  async appendEvents(runId: number, events: string[]): Promise<void> {
    if (!events.length) return;
    await this.db.tx(async (w) => {
      for (let i = 0; i < events.length; i += 200) {
        const chunk = events.slice(i, i + 200);
        await w.run(
          `INSERT INTO scan_events (run_id, event) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
          chunk.flatMap((e) => [runId, e]),
        );
      }
    });
  }

  async finishRun(runId: number, status: ScanRunRow['status'], summary: unknown): Promise<void> {
    await this.db.run('UPDATE scan_runs SET status = ?, summary = ?, finished_at = ? WHERE id = ?', [status, JSON.stringify(summary), sqlNow(), runId]);
  }

  /** Runs still marked running whose process is gone (killed) become 'error'. */
  async closeDeadRuns(isAlive: (pid: number) => boolean): Promise<number> {
    const running = await this.db.all<ScanRunRow>("SELECT * FROM scan_runs WHERE status = 'running'");
    let n = 0;
    for (const run of running) {
      if (run.pid === process.pid || isAlive(run.pid)) continue;
      n += (await this.db.run("UPDATE scan_runs SET status = 'error', finished_at = ? WHERE id = ? AND status = 'running'", [sqlNow(), run.id])).changes;
    }
    return n;
  }

  latestRun(): Promise<ScanRunRow | undefined> {
    return this.db.get<ScanRunRow>('SELECT * FROM scan_runs ORDER BY id DESC LIMIT 1');
  }

  run(id: number): Promise<ScanRunRow | undefined> {
    return this.db.get<ScanRunRow>('SELECT * FROM scan_runs WHERE id = ?', [id]);
  }

  eventsAfter(runId: number, afterId: number, limit = 5000): Promise<ScanEventRow[]> {
    return this.db.all<ScanEventRow>('SELECT id, run_id, event FROM scan_events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?', [runId, afterId, limit]);
  }

  async pruneOldRuns(): Promise<void> {
    await this.db.run(`DELETE FROM scan_runs WHERE status != 'running' AND id NOT IN (SELECT id FROM scan_runs ORDER BY id DESC LIMIT ${KEEP_RUNS})`);
  }
}
