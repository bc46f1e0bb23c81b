import { describe, expect, it } from 'vitest';
import { formatWorkCode, parseFolderCode, parseProductCode, splitWorkId, storeUrl } from '../../server/domain/work-code.js';

describe('work codes', () => {
  it.each([
    [123456, 'RJ123456'],
    [1234, 'RJ001234'],
    [999999, 'RJ999999'],
    [1000000, 'RJ01000000'],
    [1234567, 'RJ01234567'],
    [1e12 + 123456, 'BJ123456'],
    [1e12 + 12345678, 'BJ12345678'],
    [2e12 + 654321, 'VJ654321'],
  ])('formats %d as %s', (id, code) => {
    expect(formatWorkCode(id)).toBe(code);
    expect(parseProductCode(code)).toBe(id);
  });

  it('splits ids into prefix and digits', () => {
    expect(splitWorkId(1e12 + 42)).toEqual({ prefix: 'BJ', digits: 42 });
  });

  it.each([
    ['RJ123456', 123456],
    ['[サークル] RJ01234567 作品名', 1234567],
    ['rj123456_tag', 123456],
    ['(BJ654321)', 1e12 + 654321],
    ['vj123456 drama', 2e12 + 123456],
    ['RJ12345', null],
    ['RJ1234567', null],
    ['RJ123456789', null],
    ['XRJ123456', null],
    ['no code here', null],
  ])('finds the code in folder name %s', (name, id) => {
    expect(parseFolderCode(name)).toBe(id);
  });

  it('parses typed product codes and refuses the rest', () => {
    expect(parseProductCode('123456')).toBe(123456);
    expect(parseProductCode(' rj01234567 ')).toBe(1234567);
    expect(parseProductCode('RJ12345')).toBeNull();
    expect(parseProductCode('RJ123456x')).toBeNull();
    expect(parseProductCode('')).toBeNull();
  });

  it('links to the store page of the right section', () => {
    expect(storeUrl(123456)).toBe('https://www.dlsite.com/maniax/work/=/product_id/RJ123456.html');
    expect(storeUrl(1e12 + 123456)).toContain('/books/');
  });
});
