/**
 * A scan log line in a language: the catalogue entry of its key filled with its parameters, or the line's
 * own (Chinese) text when it has no key the catalogue knows (lines of older runs, or a parameter list
 * that does not fit). Used by the terminal (cli/i18n) and the web dashboard alike.
 */
import type { ScanMessageRef } from '../scan-events.js';
import { scanMessages as en } from './en.js';
import { scanMessages as ja } from './ja.js';
import { MSG } from './zh-CN.js';
import type { ScanMessages } from './types.js';

export type { ScanMessages } from './types.js';

export const SCAN_TEXT: Readonly<Record<'en' | 'ja' | 'zh-CN', ScanMessages>> = { en, ja, 'zh-CN': MSG };

export function scanLineText(line: { message: string } & ScanMessageRef, messages: ScanMessages): string {
  if (!line.key || !Object.hasOwn(messages, line.key)) return line.message;
  const entry: unknown = messages[line.key as keyof ScanMessages];
  if (typeof entry === 'string') return entry;
  try {
    return (entry as (...args: unknown[]) => string)(...(line.params ?? []));
  } catch {
    return line.message;
  }
}
