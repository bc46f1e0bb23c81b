/** The list's number format: whole numbers grouped by hand exactly as ICU's zh-CN format writes them. */
import { describe, expect, it } from 'vitest';
import { num } from '../../web/src/i18n/zh-CN.js';

describe('num', () => {
  const icu = new Intl.NumberFormat('zh-CN');
  it('groups whole numbers like Intl.NumberFormat zh-CN', () => {
    const samples = [0, 1, 12, 123, 999, 1000, 1234, 12345, 123456, 999999, 1000000, 1234567, 98765432, 1234567890, Number.MAX_SAFE_INTEGER];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(Math.random() * 10 ** (1 + (i % 12))));
    for (const n of samples) {
      expect(num(n)).toBe(icu.format(n));
      expect(num(-n || -1)).toBe(icu.format(-n || -1));
    }
  });
  it('leaves fractions and unsafe integers to ICU', () => {
    for (const n of [1.5, 1234.5678, 0.001, 2 ** 60]) expect(num(n)).toBe(icu.format(n));
  });
});
