/** A glossary entry: how a term must be translated. */
export interface GlossaryEntry {
  term: string;
  translation: string;
}

/**
 * Parse a glossary file: one `term=translation` per line; blank lines and lines starting with `#`
 * are skipped; a leading BOM is ignored. A line without `=`, or with an empty side, is an error that
 * names its line number.
 */
export function parseGlossary(text: string): GlossaryEntry[] {
  const entries: GlossaryEntry[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith('#')) return;
      const eq = line.indexOf('=');
      const term = eq > 0 ? line.slice(0, eq).trim() : '';
      const translation = eq > 0 ? line.slice(eq + 1).trim() : '';
      if (!term || !translation) throw new Error(`glossary line ${i + 1}: expected "term=translation", got "${line}"`);
      entries.push({ term, translation });
    });
  return entries;
}

/** The glossary entries whose term occurs in some of the lines (keeps prompts short). */
export function glossaryFor(entries: readonly GlossaryEntry[], lines: readonly string[]): GlossaryEntry[] {
  const text = lines.join('\n');
  return entries.filter((e) => text.includes(e.term));
}
