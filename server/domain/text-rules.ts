/**
 * The one rule for text a client names things with: user names, folder aliases, worker and API key
 * names, and every free-text field of an admin correction (title, circle, tag and voice actor names).
 * Pure.
 */

/** Control characters (Unicode category Cc: U+0000–U+001F, U+007F–U+009F). */
const CONTROL = /\p{Cc}/u;

/** Whether the text holds a control character: never part of a name or a title. */
export const hasControlChars = (text: string): boolean => CONTROL.test(text);

/** A string that holds no control character (for schemas: `z.string().regex(NO_CONTROL_CHARS)`). */
export const NO_CONTROL_CHARS = /^\P{Cc}*$/u;

/** Invisible format characters (Unicode category Cf: U+00AD, U+200B–U+200F, U+202A–U+202E, U+2060, U+FEFF, …). */
const FORMAT = /\p{Cf}/u;

/**
 * Whether the text holds an invisible format character: a new user name may not, since `alice` and
 * `alice` with a zero-width space look the same. (Titles may: emoji sequences are joined with U+200D.)
 */
export const hasFormatChars = (text: string): boolean => FORMAT.test(text);

/**
 * The form under which two user names are the same name: NFKC (full-width `ａｌｉｃｅ` is `alice`, a
 * decomposed `é` the composed one) and case folded (`ALICE`, `Straße`/`STRASSE`). Stored names are
 * never rewritten to it; a new name whose key is a stored name's key is taken.
 */
export const nameKey = (name: string): string => name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
