import * as cheerio from 'cheerio';
import { hasLatinLetter, uniqueVas } from './common.js';

/**
 * HVDB (`/Dashboard/WorkDetails/<numeric id>`): used only for the voice actors of a work whose DLsite data
 * lists none. HVDB often lists a voice actor twice, romanised and in Japanese; when it lists more than one
 * name, the names with Latin letters are dropped — unless that would drop them all.
 */

export function parseHvdbVaNames(html: string): string[] {
  const $ = cheerio.load(html);
  return $('a[href*="CVWorks"]')
    .toArray()
    .map((a) => $(a).text().replace(/\s+/g, ' ').trim())
    .filter((name) => name && name !== 'N/A');
}

export function pickHvdbVas(names: string[]): { id: string; name: string }[] {
  const unique = [...new Set(names)];
  if (unique.length <= 1) return uniqueVas(unique);
  const native = unique.filter((n) => !hasLatinLetter(n));
  return uniqueVas(native.length ? native : unique);
}
