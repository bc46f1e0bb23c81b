import pino, { type Logger } from 'pino';
import { envLogLevel, formatLogLine, logFormatFrom, type LogFormat } from './log-format.js';

export type { Logger };

export interface LoggerOptions {
  level?: string;
  /** Where the lines go (default: stderr). */
  destination?: NodeJS.WritableStream;
  /** `json` (pino's lines) or `pretty` (one human line each); default from logFormatFrom(). */
  format?: LogFormat;
  /**
   * Drop the scanner's own lines (`{ scan: true }`): a terminal command prints the scan's events itself,
   * so logging them too would show every message twice.
   */
  hideScanEvents?: boolean;
}

/** pino logger; tokens and secrets are redacted from every structured field. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const level = opts.level ?? envLogLevel('info');
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: { paths: ['token', '*.token', 'password', '*.password', 'secret', '*.secret', 'req.headers.authorization'], censor: '[redacted]' },
  };
  const format = opts.format ?? logFormatFrom();
  if (format === 'json' && !opts.hideScanEvents) return pino(options, (opts.destination as pino.DestinationStream | undefined) ?? pino.destination(2));
  const out = opts.destination ?? process.stderr;
  const stream: pino.DestinationStream = {
    write(line: string) {
      if (opts.hideScanEvents && line.includes('"scan":true')) return;
      out.write(format === 'pretty' ? formatLogLine(line) : line);
    },
  };
  return pino(options, stream);
}
