/**
 * The database file cannot be opened as a kikoplay database: SQLite says it is not a database
 * (SQLITE_NOTADB) or damaged (SQLITE_CORRUPT). It is left untouched; the terminal names the file and
 * what to do (cli/i18n `startupErrorText`: `kikoplay doctor`, `kikoplay restore`).
 */
export class DatabaseDamagedError extends Error {
  override readonly name = 'DatabaseDamagedError';
  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`${file} is not a usable kikoplay database (${code}); it was left untouched`);
  }
}

const DAMAGED = /SQLITE_(NOTADB|CORRUPT)/;

/** The SQLite code of a "not a database / damaged" error, or null for any other error. */
export function damagedCode(err: unknown): string | null {
  const e = err as { code?: unknown; message?: unknown };
  const m = DAMAGED.exec(`${String(e?.code)} ${String(e?.message)}`);
  return m ? m[0] : null;
}
