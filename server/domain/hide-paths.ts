/**
 * Error texts for people who may not see where things live on the server's disk (issue: errors shown
 * to users and guests carry no absolute paths). Known absolute paths become the form the user knows (a
 * path inside the work, a folder alias); any other absolute path left in the text becomes `…`.
 */

/** Text from a library (sharp, the file system) as it may be shown to a user: paths hidden, one line, bounded. */
export function hidePaths(text: string, known: readonly (readonly [abs: string, shown: string])[] = [], maxLength = 300): string {
  let out = text;
  for (const [abs, shown] of [...known].filter(([a]) => a.length > 1).sort((a, b) => b[0].length - a[0].length)) out = out.split(abs).join(shown);
  out = out.replace(/(^|[\s"'(=:：])\/(?:[^\s"'/:]+\/)+[^\s"':]*/g, '$1…');
  // libraries repeat a line per retry: each distinct line once
  out = [
    ...new Set(
      out
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ].join('; ');
  return out.length > maxLength ? `${out.slice(0, maxLength - 1)}…` : out;
}
