import { WORKER_TEXT, type WorkerText } from './messages.js';

/** The worker's log: one line per event on stderr (tests pass a collecting logger). */
export interface WorkerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const stamp = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

/** Lines on stderr, warnings and errors marked with `words` (the run's language; English by default). */
export function stderrLogOf(words: Pick<WorkerText, 'warning' | 'error'> = WORKER_TEXT): WorkerLog {
  return {
    info: (m) => process.stderr.write(`[${stamp()}] ${m}\n`),
    warn: (m) => process.stderr.write(`[${stamp()}] ${words.warning}: ${m}\n`),
    error: (m) => process.stderr.write(`[${stamp()}] ${words.error}: ${m}\n`),
  };
}

export const stderrLog: WorkerLog = stderrLogOf();

export const silentLog: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
