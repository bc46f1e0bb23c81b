/**
 * The scanner's log lines: the texts live in server/contract/scan-text (shared by the terminal and the
 * web dashboard); here, the lines the scanner emits carry their key and parameters with the Chinese text.
 */
import { MSG } from '../../contract/scan-text/zh-CN.js';
import type { ScanParam } from '../../contract/scan-events.js';

export { MSG };

export type ScanMessageKey = keyof typeof MSG;
type ParamsOf<K extends ScanMessageKey> = (typeof MSG)[K] extends (...args: infer A) => string ? A : [];

/**
 * A scan log line as the events carry it: today's Chinese text (the web dashboard and kikoeru clients
 * show it) with its message key and parameters, so the terminal can print the line in its own language.
 */
export interface ScanText {
  key: ScanMessageKey;
  params: ScanParam[];
  text: string;
}

export function scanText<K extends ScanMessageKey>(key: K, ...params: ParamsOf<K>): ScanText {
  const m: unknown = MSG[key];
  const text = typeof m === 'function' ? (m as (...args: unknown[]) => string)(...params) : (m as string);
  return { key, params: params as ScanParam[], text };
}

/** The fields of an event for a line: `message` (or `error`) stays the text; key and params ride along. */
export function textFields(line: string | ScanText): { message: string; key?: string; params?: ScanParam[] } {
  return typeof line === 'string' ? { message: line } : { message: line.text, key: line.key, params: line.params };
}
