/** `kikoplay scan --json`: one JSON ScanEvent per line (progress events included). */
import type { ScanEvent } from '../../server/contract/scan-events.js';
import type { LineSink } from './line-sink.js';

export function jsonPrinter(out: LineSink = process.stdout): (e: ScanEvent) => void {
  return (e) => {
    out.write(JSON.stringify(e) + '\n');
  };
}
