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
