/** `kikoplay scan --json`: one JSON ScanEvent per line (progress events included). */
import type { ScanEvent } from '../../server/library/scan-events.js';

export function jsonPrinter(out: NodeJS.WritableStream = process.stdout): (e: ScanEvent) => void {
  return (e) => {
    out.write(JSON.stringify(e) + '\n');
  };
}
