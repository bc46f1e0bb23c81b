/**
 * SQLite's refusal of a row that repeats a UNIQUE (or PRIMARY KEY) value, as a value instead of an
 * error. A service that checks "is this name free?" before a slow step (a password hash) and inserts
 * after it can lose the name to a parallel request in between; the constraint then decides, and the
 * loser must get the same answer a sequential duplicate gets (not a 500). Repositories wrap such
 * inserts in `unlessTaken` and return `TAKEN`; the service says it in its own words.
 */

/** What a repository returns when the row it was to write repeats a unique value. */
export const TAKEN: unique symbol = Symbol('taken');
export type Taken = typeof TAKEN;

/** Whether `err` is SQLite refusing a repeated UNIQUE or PRIMARY KEY value (node-sqlite3's error). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return code === 'SQLITE_CONSTRAINT' && typeof message === 'string' && /\b(UNIQUE|PRIMARY KEY) constraint failed\b/.test(message);
}

/** The write's result, or TAKEN when SQLite refused it for a repeated unique value; any other error throws. */
export async function unlessTaken<T>(write: Promise<T>): Promise<T | Taken> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) return TAKEN;
    throw err;
  }
}
