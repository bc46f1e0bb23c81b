import { isAppError } from '../../server/domain/errors.js';
import { errorText, startupErrorText } from '../i18n/index.js';

/** An error the terminal reports in one line on stderr (nothing when the message is empty) and its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Print an error on stderr in one line and return the exit code to use. */
export function reportError(err: unknown): number {
  if (err instanceof CliError) {
    // an empty message: the reason was already shown (or nobody is left to read it)
    if (err.message) process.stderr.write(`kikoplay: ${err.message}\n`);
    return err.exitCode;
  }
  const startup = startupErrorText(err);
  if (startup !== null) {
    process.stderr.write(`kikoplay: ${startup}\n`);
    return 1;
  }
  if (isAppError(err)) {
    process.stderr.write(`kikoplay: ${errorText(err)}\n`);
    return 1;
  }
  const e = err as Error;
  process.stderr.write(`kikoplay: ${e?.message ?? String(err)}\n`);
  if (process.env.KIKOPLAY_DEBUG) process.stderr.write(`${e?.stack ?? ''}\n`);
  return 2;
}

/** Rows as aligned columns under `headers` (one per column, in the run's language). */
export function printTable(rows: Record<string, string | number>[], columns: string[], headers: string[] = columns.map((c) => c.toUpperCase())): void {
  const widths = columns.map((c, i) => Math.max(displayWidth(headers[i]), ...rows.map((r) => displayWidth(String(r[c] ?? '')))));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell + ' '.repeat(Math.max(0, widths[i] - displayWidth(cell))))
      .join('  ')
      .trimEnd();
  process.stdout.write(line(headers) + '\n');
  for (const r of rows) process.stdout.write(line(columns.map((c) => String(r[c] ?? ''))) + '\n');
}

/** Terminal columns of a string: East Asian wide characters take two. */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    w +=
      cp >= 0x1100 &&
      (cp <= 0x115f ||
        (cp >= 0x2e80 && cp <= 0xa4cf) ||
        (cp >= 0xac00 && cp <= 0xd7a3) ||
        (cp >= 0xf900 && cp <= 0xfaff) ||
        (cp >= 0xfe30 && cp <= 0xfe4f) ||
        (cp >= 0xff00 && cp <= 0xff60) ||
        (cp >= 0xffe0 && cp <= 0xffe6) ||
        (cp >= 0x20000 && cp <= 0x3fffd))
        ? 2
        : 1;
  }
  return w;
}
