/**
 * The title a work folder's name tells before any metadata is known: the name with its product code
 * and leading/trailing bracketed tags ("[circle]", "【tag】", "(同人音声)") trimmed. Falls back to the
 * display code when nothing is left.
 */
const CODE = /(?:rj|bj|vj)(?:\d{8}|\d{6})(?!\d)/gi;
const LEADING = /^\s*(?:\[[^\]]*\]|【[^】]*】|\([^)]*\)|（[^）]*）|［[^］]*］)\s*/;
const TRAILING = /\s*(?:\[[^\]]*\]|【[^】]*】|\([^)]*\)|（[^）]*）|［[^］]*］)\s*$/;
const EDGE_PUNCT = /^[\s\-_.,、。・:：|~～]+|[\s\-_.,、。・:：|~～]+$/g;

export function titleFromFolderName(name: string, code: string): string {
  let t = name.replace(CODE, ' ');
  for (let i = 0; i < 8; i++) {
    const next = t.replace(EDGE_PUNCT, '').replace(LEADING, '').replace(TRAILING, '');
    if (next === t) break;
    t = next;
  }
  t = t.replace(EDGE_PUNCT, '').replace(/\s+/g, ' ').trim();
  return t || code;
}
