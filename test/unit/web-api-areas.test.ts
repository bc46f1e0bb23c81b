/**
 * The API page (web/src/features/admin/ApiPage.tsx) heads each area of the API reference with its name
 * from the catalogues (dashboard.api.areas); an area without one showed its raw key ("import"). Every
 * area the server registers has a heading in every catalogue.
 */
import { describe, expect, it } from 'vitest';
import { API_AREAS } from '../../server/http/app.js';
import { en } from '../../web/src/i18n/en.js';
import { ja } from '../../web/src/i18n/ja.js';
import { zhCN } from '../../web/src/i18n/zh-CN.js';

describe('API page area headings', () => {
  it('the server registers areas (the list is read, not empty)', () => {
    expect(API_AREAS).toContain('works');
    expect(API_AREAS).toContain('import');
  });

  for (const [name, messages] of Object.entries({ 'zh-CN': zhCN, en, ja })) {
    it(`${name} names every area the server registers`, () => {
      const missing = API_AREAS.filter((area) => !messages.dashboard.api.areas[area]);
      expect(missing).toEqual([]);
    });
  }
});
