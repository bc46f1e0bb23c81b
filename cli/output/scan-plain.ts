/** Plain-text lines for scan events (no TTY: cron, SSH, pipes). One line per event; progress is sparse. */
import type { ScanEvent } from '../../server/contract/scan-events.js';
import type { LineSink } from './line-sink.js';
import { cliText, scanLine } from '../i18n/index.js';

const LEVEL: Record<string, string> = { info: 'INFO', warn: 'WARN', error: 'ERROR', debug: 'DEBUG' };

/** The line of an event in the run's language (the level tags stay: they are for grep). */
export function formatScanEventPlain(e: ScanEvent): string | null {
  const t = cliText();
  switch (e.type) {
    case 'started':
      return `[${e.at}] ${t.scan.started(e.kind, e.runId, e.pid)}`;
    case 'main-log':
      return `${LEVEL[e.level] ?? e.level} ${scanLine(e, t)}`;
    case 'task-log':
      return `${LEVEL[e.level] ?? e.level} [${e.code}] ${scanLine(e, t)}`;
    case 'task-failed':
      return `ERROR [${e.code}] ${scanLine({ message: e.error, key: e.key, params: e.params }, t)}`;
    case 'progress':
      return e.total > 0 && (e.done === e.total || e.done === 0) ? t.scan.progress(e.phase, e.done, e.total) : null;
    case 'finished':
      return e.status === 'error' ? `ERROR ${scanLine(e, t)}` : scanLine(e, t);
    case 'error':
      return `ERROR ${scanLine(e, t)}`;
    case 'task-started':
    case 'task-done':
    case 'result':
      return null;
  }
}

/** A printer that writes plain lines to a stream. */
export function plainPrinter(out: LineSink = process.stdout): (e: ScanEvent) => void {
  let last: string | null = null;
  return (e) => {
    const line = formatScanEventPlain(e);
    if (line === null || (e.type === 'progress' && line === last)) return;
    last = line;
    out.write(line + '\n');
  };
}
