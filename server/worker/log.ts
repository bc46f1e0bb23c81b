/** The worker's log: one line per event on stderr (tests pass a collecting logger). */
export interface WorkerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const stamp = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

export const stderrLog: WorkerLog = {
  info: (m) => process.stderr.write(`[${stamp()}] ${m}\n`),
  warn: (m) => process.stderr.write(`[${stamp()}] warning: ${m}\n`),
  error: (m) => process.stderr.write(`[${stamp()}] error: ${m}\n`),
};

export const silentLog: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
