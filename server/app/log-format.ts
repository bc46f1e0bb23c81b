/**
 * The human form of a log line, for a terminal: `HH:MM:SS LEVEL message key=value …` on one line, made from
 * the pino JSON line (no extra dependency). Chosen by `logFormatFrom`: `KIKOPLAY_LOG_FORMAT=json|pretty`
 * (or `--log-format`) when set, else pretty when the log's stream (stderr) is a terminal, JSON otherwise
 * (files, journald, pipes).
 */
export type LogFormat = 'json' | 'pretty';

export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/** The levels KIKOPLAY_LOG_LEVEL may name (pino's, and `silent`). */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The level KIKOPLAY_LOG_LEVEL asks for (`fallback` when unset or empty); the terminal refuses an unknown one first. */
export const envLogLevel = (fallback: LogLevel, env: NodeJS.ProcessEnv = process.env): string => env.KIKOPLAY_LOG_LEVEL?.trim() || fallback;

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that are shown in their own place. */
const SKIP = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'scan']);

/** The format a process logs in: the environment's choice, else by whether the log goes to a terminal. */
export function logFormatFrom(env: NodeJS.ProcessEnv = process.env, stream: { isTTY?: boolean } = process.stderr): LogFormat {
  const asked = env.KIKOPLAY_LOG_FORMAT?.trim().toLowerCase();
  if (asked === 'json' || asked === 'pretty') return asked;
  return stream.isTTY ? 'pretty' : 'json';
}

const two = (n: number) => String(n).padStart(2, '0');

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s="]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v) ?? String(v);
}

/** An error field: its message (and its stack when KIKOPLAY_DEBUG is set). */
function errorText(err: unknown, debug: boolean): string {
  if (err && typeof err === 'object') {
    const e = err as { message?: unknown; stack?: unknown; code?: unknown };
    const message = typeof e.message === 'string' ? e.message : JSON.stringify(err);
    const code = typeof e.code === 'string' && !message.includes(e.code) ? ` (${e.code})` : '';
    return debug && typeof e.stack === 'string' ? `${message}${code}\n${e.stack}` : `${message}${code}`;
  }
  return String(err);
}

/** One pino JSON line as a human line (with its newline); a line that is not JSON is returned as it is. */
export function formatLogLine(json: string, debug = !!process.env.KIKOPLAY_DEBUG): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : json + '\n';
  }
  const d = typeof rec.time === 'number' ? new Date(rec.time) : new Date();
  const time = `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
  const level = (LEVELS[rec.level as number] ?? String(rec.level)).padEnd(5);
  const parts = [time, level];
  if (rec.code !== undefined && typeof rec.code === 'string' && /^[A-Z]{2}\d{6,8}$/.test(rec.code)) parts.push(`[${rec.code}]`);
  if (typeof rec.msg === 'string' && rec.msg) parts.push(rec.msg);
  let tail = '';
  for (const [k, v] of Object.entries(rec)) {
    if (SKIP.has(k) || v === undefined) continue;
    if (k === 'code' && typeof v === 'string' && /^[A-Z]{2}\d{6,8}$/.test(v)) continue;
    if (k === 'err' || k === 'error') {
      const text = errorText(v, debug);
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        parts.push(`${k}=${value(text.slice(0, nl))}`);
        tail += text.slice(nl);
      } else parts.push(`${k}=${value(text)}`);
      continue;
    }
    parts.push(`${k}=${value(v)}`);
  }
  return parts.join(' ') + tail + '\n';
}
