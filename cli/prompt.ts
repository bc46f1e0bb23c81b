import { cliText } from './i18n/index.js';
import { CliError } from './output/print.js';

/** The exit code of an answer cancelled with Ctrl-C (128 + SIGINT, as a shell reports an interrupted command). */
export const INTERRUPTED_EXIT = 130;

/** What the keys typed so far come to: still typing, or the line is over. */
export type PromptKeys = { value: string; end: null } | { value: string; end: 'enter' | 'interrupt' | 'eof' };

/**
 * Apply typed characters (a raw-mode terminal's bytes as text) to a hidden answer: Enter ends it, Ctrl-C
 * interrupts, Ctrl-D on an empty answer is the end of input (elsewhere it is ignored, as a terminal's line
 * editor does), Backspace removes a character, Ctrl-U the whole answer. Other control characters and
 * escape sequences (arrow keys…) are dropped: they are never part of a password.
 */
export function applyKeys(value: string, chunk: string): PromptKeys {
  let v = value;
  for (let i = 0; i < chunk.length; i++) {
    const ch = chunk[i];
    if (ch === '\r' || ch === '\n') return { value: v, end: 'enter' };
    if (ch === '\u0003') return { value: v, end: 'interrupt' };
    if (ch === '\u0004') {
      if (v === '') return { value: v, end: 'eof' };
      continue;
    }
    if (ch === '\u007f' || ch === '\b') {
      v = Array.from(v).slice(0, -1).join('');
      continue;
    }
    if (ch === '\u0015') {
      v = '';
      continue;
    }
    if (ch === '\u001b') {
      // CSI (ESC [ … final byte) or SS3 (ESC O x): skip the whole sequence
      const next = chunk[i + 1];
      if (next === '[') {
        i += 2;
        while (i < chunk.length && !/[@-~]/.test(chunk[i])) i++;
      } else if (next === 'O') i += 2;
      else if (next !== undefined) i += 1;
      continue;
    }
    if (ch < ' ') continue;
    v += ch;
  }
  return { value: v, end: null };
}

/**
 * Read a line from the terminal without echoing it. The question goes to stderr, so it shows when stdout
 * is redirected (`kikoplay user add bob > log`). Ctrl-C cancels with exit 130, Ctrl-D on an empty answer
 * (or the terminal going away) with exit 1, each saying "cancelled".
 */
export function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    const out = process.stderr;
    // raw before the question: a key typed once the question shows is read as a key, never by the line editor
    stdin.setRawMode?.(true);
    out.write(question);
    stdin.resume();
    stdin.setEncoding('utf8');
    let value = '';
    const finish = (err: CliError | null) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.setRawMode?.(false);
      stdin.pause();
      out.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      const keys = applyKeys(value, chunk);
      value = keys.value;
      if (keys.end === 'enter') finish(null);
      else if (keys.end === 'interrupt') finish(new CliError(cliText().errors.cancelled, INTERRUPTED_EXIT));
      else if (keys.end === 'eof') finish(new CliError(cliText().errors.cancelled, 1));
    };
    const onEnd = () => finish(new CliError(cliText().errors.cancelled, 1));
    stdin.on('data', onData);
    stdin.on('end', onEnd);
  });
}
