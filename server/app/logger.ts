import pino, { type Logger } from 'pino';

export type { Logger };

/** pino logger; tokens and secrets are redacted from every structured field. */
export function createLogger(opts: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  const level = opts.level ?? process.env.KIKOPLAY_LOG_LEVEL ?? 'info';
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ['token', '*.token', 'password', '*.password', 'secret', '*.secret', 'req.headers.authorization'], censor: '[redacted]' },
    },
    (opts.destination as pino.DestinationStream | undefined) ?? pino.destination(2),
  );
}
