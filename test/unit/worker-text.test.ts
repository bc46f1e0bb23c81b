import { describe, expect, it } from 'vitest';
import { toAiLrc } from '../../server/worker/lrc.js';
import { glossaryFor, parseGlossary } from '../../server/worker/translate/glossary.js';
import { parseTranslationArray, systemPrompt } from '../../server/worker/translate/chat-translate.js';
import { apiUrl } from '../../server/worker/engines/api-url.js';
import { segmentsOf } from '../../server/worker/engines/openai.js';

describe('AI LRC', () => {
  it('writes [MM:SS.CC] lines in time order with uncapped minutes, dropping blank text', () => {
    const lrc = toAiLrc([
      { start: 4502.1, end: 4503, text: '  最後の\n行 ' },
      { start: 0, end: 1, text: 'はじめ' },
      { start: 61.005, end: 62, text: '   ' },
      { start: 5.555, end: 6, text: 'つぎ' },
    ]);
    expect(lrc).toBe('[00:00.00] はじめ\n[00:05.56] つぎ\n[75:02.10] 最後の 行\n');
    expect(toAiLrc([])).toBe('');
  });

  it('puts each translation right after its line with the same timestamp', () => {
    const lrc = toAiLrc(
      [
        { start: 2, end: 3, text: 'おはよう' },
        { start: 1, end: 2, text: 'ねえ' },
        { start: 3, end: 4, text: 'OK' },
      ],
      ['早上好', '喂', 'OK'],
    );
    expect(lrc).toBe('[00:01.00] ねえ\n[00:01.00] 喂\n[00:02.00] おはよう\n[00:02.00] 早上好\n[00:03.00] OK\n');
  });
});

describe('glossary and translation answers', () => {
  it('parses term=translation lines, skipping comments, blanks and a BOM', () => {
    expect(parseGlossary('\uFEFF# names\nお兄ちゃん = 哥哥\n\n 魔王=魔王大人 \r\nA=B=C\n')).toEqual([
      { term: 'お兄ちゃん', translation: '哥哥' },
      { term: '魔王', translation: '魔王大人' },
      { term: 'A', translation: 'B=C' },
    ]);
    expect(() => parseGlossary('ok=fine\njust a line')).toThrow(/line 2/);
    expect(() => parseGlossary('=empty term')).toThrow(/line 1/);
    expect(() => parseGlossary('term=')).toThrow(/line 1/);
  });

  it('sends only the glossary terms that occur, in the system prompt', () => {
    const g = parseGlossary('お兄ちゃん=哥哥\n魔王=魔王大人');
    expect(glossaryFor(g, ['お兄ちゃん、起きて'])).toEqual([{ term: 'お兄ちゃん', translation: '哥哥' }]);
    const prompt = systemPrompt('zh', glossaryFor(g, ['お兄ちゃん']));
    expect(prompt).toContain('Simplified Chinese');
    expect(prompt).toContain('お兄ちゃん => 哥哥');
    expect(prompt).not.toContain('魔王');
    expect(systemPrompt('Deutsch', [])).toContain('into Deutsch');
  });

  it('reads the JSON array of an answer, with or without fences, only at the right length', () => {
    expect(parseTranslationArray('```json\n["a","b"]\n```', 2)).toEqual(['a', 'b']);
    expect(parseTranslationArray('Here you go: ["a", 3]', 2)).toEqual(['a', '3']);
    expect(parseTranslationArray('["a"]', 2)).toBeNull();
    expect(parseTranslationArray('no array', 1)).toBeNull();
    expect(parseTranslationArray('[broken', 1)).toBeNull();
  });
});

describe('OpenAI-compatible answers and URLs', () => {
  it('builds /v1 URLs from a base given with or without /v1', () => {
    expect(apiUrl('http://127.0.0.1:8080', 'audio/transcriptions')).toBe('http://127.0.0.1:8080/v1/audio/transcriptions');
    expect(apiUrl('https://api.openai.com/v1/', 'chat/completions')).toBe('https://api.openai.com/v1/chat/completions');
    expect(apiUrl('http://host/proxy/openai', 'chat/completions')).toBe('http://host/proxy/openai/v1/chat/completions');
  });

  it('takes segments from verbose_json, or the text as one line', () => {
    expect(
      segmentsOf({
        segments: [
          { start: 1.5, end: 2, text: ' a' },
          { start: Number.NaN, text: 'x' },
          { start: 3, text: 'b' },
        ],
      }),
    ).toEqual([
      { start: 1.5, end: 2, text: ' a' },
      { start: 3, end: 3, text: 'b' },
    ]);
    expect(segmentsOf({ text: 'all of it', duration: 9 })).toEqual([{ start: 0, end: 9, text: 'all of it' }]);
    expect(segmentsOf({ text: '  ' })).toEqual([]);
  });
});
