import { AsyncLocalStorage } from 'node:async_hooks';
import { closeSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { open, type Database as SqliteDb } from 'sqlite';
import { ensureDir } from '../config/ensure-dir.js';
import { DataDirError, databaseFiles, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, restrictMode } from '../config/private-files.js';
import { DatabaseTooNewError, migrationLevel, MIGRATIONS_DIR, type MigrationId } from './migration-level.js';
import { damagedCode, DatabaseDamagedError } from './open-errors.js';

export type SqlValue = string | number | bigint | null | Buffer | boolean;
export type Params = SqlValue[] | Record<string, SqlValue>;

export class MigrationError extends Error {}

/** A costly read ran past its time limit and was interrupted (see Database.costly). */
export class QueryTimeoutError extends Error {
  override readonly name = 'QueryTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`query interrupted after ${timeoutMs} ms`);
  }
}

/** A costly call whose turn did not come within its wait (see Database.costly). */
export class CostlyBusyError extends Error {
  override readonly name = 'CostlyBusyError';
  constructor(readonly waitMs: number) {
    super(`no turn on the costly connection within ${waitMs} ms`);
  }
}

/** The costly read the current async call chain belongs to: its reads go to the costly connection. */
interface CostlyScope {
  expired: boolean;
  /** Taking the costly connection: started by the scope's first read (answers from caches need none). */
  turn: Promise<void> | null;
  /** Gives the costly connection to the next call; set once the turn came. */
  release: (() => void) | null;
  timer: NodeJS.Timeout | null;
}
const costlyScope = new AsyncLocalStorage<CostlyScope>();

async function openConnection(file: string, busyTimeoutMs: number, readonly: boolean): Promise<SqliteDb> {
  const mode = readonly ? sqlite3.OPEN_READONLY : sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE;
  const db = await open({ filename: file, driver: sqlite3.Database, mode });
  try {
    await db.exec(`PRAGMA busy_timeout = ${Math.floor(busyTimeoutMs)}`);
    if (!readonly) await db.exec('PRAGMA journal_mode = WAL');
  } catch (err) {
    // the first statements that read the file: a file that is not a database fails here
    await db.close().catch(() => undefined);
    throw err;
  }
  await db.exec('PRAGMA synchronous = NORMAL');
  await db.exec('PRAGMA foreign_keys = ON');
  await db.exec('PRAGMA temp_store = MEMORY');
  // page cache per connection (KiB): the OS caches the file as well, so a reader's own cache only needs
  // the hot index pages; the writer's larger one serves the scanner's bulk index updates
  await db.exec(`PRAGMA cache_size = ${readonly ? -8000 : -16000}`);
  return db;
}

const lastMigration = async (db: SqliteDb): Promise<number> => (await db.get<{ id: number | null }>('SELECT MAX(id) AS id FROM migrations').catch(() => undefined))?.id ?? 0;

/**
 * Apply pending migrations with foreign keys off, as SQLite prescribes for rebuilding a table (each
 * migration runs in a transaction, where the pragma cannot be changed): dropping a parent table being
 * rebuilt must not cascade into its children. When anything was applied, the references are checked
 * before foreign keys are on again; a violation fails the migration.
 */
async function migrate(writer: SqliteDb, file: string): Promise<void> {
  // migrate() rolls back migrations it has no file for: a newer kikoplay's database would lose its data
  const rows = await writer.all<MigrationId[]>('SELECT id, name FROM migrations').catch(() => []);
  const { unknown } = migrationLevel(rows);
  if (unknown.length) throw new DatabaseTooNewError(file, unknown);
  const before = await lastMigration(writer);
  await writer.exec('PRAGMA foreign_keys = OFF');
  try {
    await writer.migrate({ migrationsPath: MIGRATIONS_DIR });
    if ((await lastMigration(writer)) !== before) {
      const broken = await writer.all<{ table: string; parent: string }[]>('PRAGMA foreign_key_check');
      if (broken.length) throw new Error(`foreign key check failed: ${broken.length} rows of ${[...new Set(broken.map((b) => `${b.table} → ${b.parent}`))].join(', ')}`);
    }
  } finally {
    await writer.exec('PRAGMA foreign_keys = ON');
  }
}

/**
 * The database: one writer connection whose statements and transactions are serialized through a
 * queue (a transaction never interleaves with another write), and reader connections that see only
 * committed data (WAL). Repositories use `all`/`get` for reads and `run`/`tx` for writes.
 */
export class Database {
  private queue: Promise<unknown> = Promise.resolve();
  private nextReader = 0;
  private closed = false;

  /** Costly reads, one at a time (see `costly`). */
  private costlyQueue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly writer: SqliteDb,
    private readonly readers: SqliteDb[],
    /** The connection costly reads run on, so they never hold up the readers everyone else uses. */
    private readonly costlyReader: SqliteDb,
  ) {}

  static async open(file: string, opts: { busyTimeoutMs?: number; readers?: number; migrate?: boolean } = {}): Promise<Database> {
    const onDisk = file !== ':memory:' && file !== '';
    if (onDisk) {
      // a folder made here is private; an existing one (the data dir is tightened on start) is left as its owner set it
      try {
        ensureDir(path.dirname(file), PRIVATE_DIR_MODE);
      } catch (err) {
        throw DataDirError.from(path.dirname(file), err);
      }
      // SQLite gives its -wal/-shm files the mode of the database file: a new one starts 0600, an older one is tightened
      try {
        closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
      } catch (err) {
        throw DataDirError.from(file, err);
      }
      for (const f of databaseFiles(file)) restrictMode(f, PRIVATE_FILE_MODE);
    }
    const busy = opts.busyTimeoutMs ?? 5000;
    let writer: SqliteDb;
    try {
      writer = await openConnection(file, busy, false);
    } catch (err) {
      // garbage where the database should be: named, and left as it is
      const code = damagedCode(err);
      throw code ? new DatabaseDamagedError(file, code) : err;
    }
    if (onDisk) for (const f of databaseFiles(file)) restrictMode(f, PRIVATE_FILE_MODE);
    if (opts.migrate !== false) {
      try {
        await migrate(writer, file);
      } catch (err) {
        await writer.close();
        if (err instanceof DatabaseTooNewError) throw err;
        const code = damagedCode(err);
        if (code) throw new DatabaseDamagedError(file, code);
        throw new MigrationError(`database migration failed for ${file}: ${(err as Error).message}`);
      }
    }
    const readers: SqliteDb[] = [];
    for (let i = 0; i < (opts.readers ?? 2); i++) readers.push(await openConnection(file, busy, true));
    const costlyReader = file === ':memory:' || file === '' ? writer : await openConnection(file, busy, true);
    return new Database(file, writer, readers, costlyReader);
  }

  /**
   * Identity, size and times of the WAL (every commit of any process writes it), or of the database
   * file without one: while it is unchanged, no data has changed. Lets hot read paths skip a query
   * whose answer cannot have moved (callers still re-read at least once a second, for file systems
   * with coarse timestamps). Null for in-memory databases.
   */
  changeStamp(): string | null {
    if (this.file === ':memory:' || this.file === '') return null;
    const st = statSync(`${this.file}-wal`, { throwIfNoEntry: false }) ?? statSync(this.file, { throwIfNoEntry: false });
    // this process's own writes count exactly (file times can be as coarse as a few milliseconds)
    return st ? `${this.writes}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : null;
  }

  /** Writes finished through this connection (part of changeStamp). */
  private writes = 0;

  /**
   * Run `fn`, whose reads may scan a large part of the database (e.g. a search for short substrings), with
   * its reads on a connection of its own, one such call at a time, interrupted after `timeoutMs` of
   * running (its queries then reject with QueryTimeoutError). The connection is taken at `fn`'s first
   * read, after `admit()` let it in (it may throw to refuse), so a call answered from caches neither
   * waits nor counts; the time limit starts when the call's turn comes, not while it waits. A call whose
   * turn does not come within `waitMs` gives up its place and rejects with CostlyBusyError.
   */
  async costly<T>(timeoutMs: number, fn: () => Promise<T>, admit: () => void = () => undefined, waitMs = Infinity): Promise<T> {
    const scope: CostlyScope = { expired: false, turn: null, release: null, timer: null };
    const takeTurn = async () => {
      admit();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const before = this.costlyQueue;
      this.costlyQueue = before.then(() => mine);
      let waited: NodeJS.Timeout | undefined;
      const came = await Promise.race([
        before.then(() => true),
        new Promise<false>((resolve) => {
          if (Number.isFinite(waitMs)) waited = setTimeout(() => resolve(false), waitMs);
        }),
      ]);
      clearTimeout(waited);
      if (!came) {
        // the place in line passes on when it comes: the calls behind this one do not wait for it
        void before.then(release);
        throw new CostlyBusyError(waitMs);
      }
      scope.release = release;
      scope.timer = setTimeout(() => {
        scope.expired = true;
        this.costlyReader.getDatabaseInstance().interrupt();
      }, timeoutMs);
    };
    this.costlyTurns.set(scope, takeTurn);
    try {
      const result = await costlyScope.run(scope, fn);
      // interrupted part-way (and the error handled inside): what it made of that is not an answer
      if (scope.expired) throw new QueryTimeoutError(timeoutMs);
      return result;
    } catch (err) {
      if (scope.expired || /SQLITE_INTERRUPT/.test(String((err as { code?: string }).code))) throw new QueryTimeoutError(timeoutMs);
      throw err;
    } finally {
      this.costlyTurns.delete(scope);
      if (scope.timer) clearTimeout(scope.timer);
      if (scope.release) scope.release();
      else if (scope.turn)
        void scope.turn.then(
          () => scope.release?.(),
          () => undefined,
        );
    }
  }

  /** How each open costly scope takes its turn (see `costly`). */
  private readonly costlyTurns = new Map<CostlyScope, () => Promise<void>>();

  /** The costly connection for a read inside a costly call, once the call's turn came. */
  private async costlyReaderFor(scope: CostlyScope): Promise<SqliteDb> {
    const take = this.costlyTurns.get(scope);
    if (take) scope.turn ??= take();
    await scope.turn;
    if (scope.expired) throw new QueryTimeoutError(0);
    return this.costlyReader;
  }

  private reader(): SqliteDb {
    const r = this.readers[this.nextReader++ % this.readers.length];
    return r ?? this.writer;
  }

  // Ordinary reads go straight to a reader; only reads inside a costly call wait for its turn.
  all<T = Record<string, unknown>>(sql: string, params: Params = []): Promise<T[]> {
    const scope = costlyScope.getStore();
    if (!scope) return this.reader().all<T[]>(sql, params);
    return this.costlyReaderFor(scope).then((db) => db.all<T[]>(sql, params));
  }

  get<T = Record<string, unknown>>(sql: string, params: Params = []): Promise<T | undefined> {
    const scope = costlyScope.getStore();
    if (!scope) return this.reader().get<T>(sql, params);
    return this.costlyReaderFor(scope).then((db) => db.get<T>(sql, params));
  }

  /** Serialize a unit of work on the writer connection. */
  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    // counted once done: a stamp read before a write commits must differ from one read after it
    const counted = () => fn().finally(() => void this.writes++);
    const result = this.queue.then(counted, counted);
    this.queue = result.catch(() => undefined);
    return result;
  }

  run(sql: string, params: Params = []): Promise<{ changes: number; lastID: number }> {
    return this.enqueue(async () => {
      const r = await this.writer.run(sql, params);
      return { changes: r.changes ?? 0, lastID: r.lastID ?? 0 };
    });
  }

  exec(sql: string): Promise<void> {
    return this.enqueue(() => this.writer.exec(sql));
  }

  /**
   * Run `fn` in one write transaction (BEGIN IMMEDIATE), serialized with every other write of this
   * process. Reads inside `fn` must use the given handle to see the transaction's own writes.
   */
  tx<T>(fn: (w: WriteHandle) => Promise<T>): Promise<T> {
    return this.enqueue(async () => {
      await this.writer.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(new WriteHandle(this.writer));
        await this.writer.exec('COMMIT');
        return result;
      } catch (err) {
        await this.writer.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    for (const r of this.readers) await r.close();
    await this.costlyQueue.catch(() => undefined);
    if (this.costlyReader !== this.writer) await this.costlyReader.close();
    await this.writer.close();
  }
}

/** The writer connection inside a transaction. */
export class WriteHandle {
  constructor(private readonly db: SqliteDb) {}
  all<T = Record<string, unknown>>(sql: string, params: Params = []): Promise<T[]> {
    return this.db.all<T[]>(sql, params);
  }
  get<T = Record<string, unknown>>(sql: string, params: Params = []): Promise<T | undefined> {
    return this.db.get<T>(sql, params);
  }
  async run(sql: string, params: Params = []): Promise<{ changes: number; lastID: number }> {
    const r = await this.db.run(sql, params);
    return { changes: r.changes ?? 0, lastID: r.lastID ?? 0 };
  }
  exec(sql: string): Promise<void> {
    return this.db.exec(sql);
  }
}

/** Anything that can read: the database (readers) or a write handle inside a transaction. */
export type Reader = Pick<Database, 'all' | 'get'> | WriteHandle;
