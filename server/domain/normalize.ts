/**
 * Search normalisation, applied to indexed text and to queries alike:
 * NFKC (full/half width, compatibility forms), lower case, katakana-hiragana kept as is,
 * runs of white space folded.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The text indexed for a work in works_fts: code, title, circle, tags and voice actors. */
export function searchBody(parts: { code: string; title: string; circle?: string | null; tags?: string[]; vas?: string[] }): string {
  return normalizeText([parts.code, parts.title, parts.circle ?? '', ...(parts.tags ?? []), ...(parts.vas ?? [])].join(' \u0001 '));
}
