/**
 * Work ids and display codes (docs/API.md#identifiers).
 * id = digits for RJ, 1e12 + digits for BJ, 2e12 + digits for VJ.
 * Display code = prefix + digits padded to 6, or to 8 when the digits are >= 1e6.
 */
export const WORK_PREFIXES = ['RJ', 'BJ', 'VJ'] as const;
export type WorkPrefix = (typeof WORK_PREFIXES)[number];

const PREFIX_BASE = 1e12;

export function workIdFromParts(prefix: WorkPrefix, digits: number): number {
  return WORK_PREFIXES.indexOf(prefix) * PREFIX_BASE + digits;
}

export function splitWorkId(id: number): { prefix: WorkPrefix; digits: number } {
  const index = Math.floor(id / PREFIX_BASE);
  const prefix = WORK_PREFIXES[index] ?? 'RJ';
  return { prefix, digits: id - index * PREFIX_BASE };
}

export function formatWorkCode(id: number): string {
  const { prefix, digits } = splitWorkId(id);
  return prefix + String(digits).padStart(digits >= 1e6 ? 8 : 6, '0');
}

/** A product code anywhere in a folder name: RJ/BJ/VJ (any case) + 6 or 8 digits, not part of a longer number. */
const FOLDER_CODE = /(?:^|[^a-z0-9])(rj|bj|vj)(\d{8}|\d{6})(?!\d)/i;

/** The work id a folder name carries, or null. */
export function parseFolderCode(name: string): number | null {
  const m = FOLDER_CODE.exec(name);
  if (!m) return null;
  return workIdFromParts(m[1].toUpperCase() as WorkPrefix, Number(m[2]));
}

/** A product code typed by a user: optional RJ/BJ/VJ prefix + 6 or 8 digits, nothing else. */
const USER_CODE = /^\s*(rj|bj|vj)?(\d{8}|\d{6})\s*$/i;

/**
 * Parse a product code typed in a search box or code condition. A bare number is an RJ id.
 * Returns null when the text is not a code.
 */
export function parseProductCode(text: string): number | null {
  const m = USER_CODE.exec(text);
  if (!m) return null;
  const prefix = (m[1]?.toUpperCase() ?? 'RJ') as WorkPrefix;
  return workIdFromParts(prefix, Number(m[2]));
}

/** The DLsite store page of a work. */
export function storeUrl(id: number): string {
  const code = formatWorkCode(id);
  const { prefix } = splitWorkId(id);
  const section = prefix === 'BJ' ? 'books' : prefix === 'VJ' ? 'pro' : 'maniax';
  return `https://www.dlsite.com/${section}/work/=/product_id/${code}.html`;
}
