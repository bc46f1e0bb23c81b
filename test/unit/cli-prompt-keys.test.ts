import { describe, expect, it } from 'vitest';
import { applyKeys } from '../../cli/prompt.js';

describe('the keys of the hidden password prompt', () => {
  it('ends on Enter, keeps what was typed before it', () => {
    expect(applyKeys('', 'secret\r')).toEqual({ value: 'secret', end: 'enter' });
    expect(applyKeys('sec', 'ret\n')).toEqual({ value: 'secret', end: 'enter' });
    expect(applyKeys('', 'sec')).toEqual({ value: 'sec', end: null });
  });

  it('Ctrl-C interrupts; Ctrl-D ends the input only on an empty answer and is never part of one', () => {
    expect(applyKeys('sec', '\u0003')).toEqual({ value: 'sec', end: 'interrupt' });
    expect(applyKeys('', '\u0004')).toEqual({ value: '', end: 'eof' });
    expect(applyKeys('sec', '\u0004ret')).toEqual({ value: 'secret', end: null });
  });

  it('edits with Backspace and Ctrl-U, and drops other control keys and escape sequences', () => {
    expect(applyKeys('secx', '\u007f')).toEqual({ value: 'sec', end: null });
    expect(applyKeys('pässwörd🎧', '\b')).toEqual({ value: 'pässwörd', end: null });
    expect(applyKeys('wrong', '\u0015right')).toEqual({ value: 'right', end: null });
    expect(applyKeys('', 'a\u001b[Ab\u001b[1;5Cc\u001bOPd\t\u0001e')).toEqual({ value: 'abcde', end: null });
  });
});
