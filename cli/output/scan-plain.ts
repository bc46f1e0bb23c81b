/** Plain-text lines for scan events (no TTY: cron, SSH, pipes). One line per event; progress is sparse. */
import type { ScanEvent } from '../../server/contract/scan-events.js';
import type { LineSink } from './line-sink.js';

const LEVEL: Record<string, string> = { info: 'INFO', warn: 'WARN', error: 'ERROR', debug: 'DEBUG' };

export function formatScanEventPlain(e: ScanEvent): string | null {
  switch (e.type) {
    case 'started':
      return `[${e.at}] 开始扫描 (${e.kind}, run ${e.runId}, pid ${e.pid})`;
    case 'main-log':
      return `${LEVEL[e.level] ?? e.level} ${e.message}`;
    case 'task-log':
      return `${LEVEL[e.level] ?? e.level} [${e.code}] ${e.message}`;
    case 'task-failed':
      return `ERROR [${e.code}] ${e.error}`;
    case 'progress':
      return e.total > 0 && (e.done === e.total || e.done === 0) ? `进度 ${e.phase}: ${e.done}/${e.total}` : null;
    case 'finished':
      return e.message;
    case 'error':
      return `ERROR ${e.message}`;
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
