/**
 * Censored DLsite tag names → the names DLsite used before (`POST /api/uncensor/tags`, docs/API.md#admin-corrections).
 *
 * In March 2024 DLsite replaced the names of a number of genres (tags) with softer words, first with one
 * set of replacements and, from 27 March 2024, a second set for some of them (`ひよこ` → `つるぺた`, …).
 * Works scanned since then carry the new names. Both generations of replacement names are listed, so tags
 * scraped in either period are restored.
 *
 * Only the Japanese (`ja-jp`) names are listed: they are the ones DLsite published. A library scanned with
 * another tag language can pass its own pairs in the request body (`{ mapping: { censored: original } }`).
 *
 * Left out on purpose: `屈辱` (the replacement of `凌辱`) is also the name of a long-standing genre of its
 * own, so mapping it back would rename tags that were never censored.
 */
export const UNCENSOR_TAGS_JA: Readonly<Record<string, string>> = {
  'ざぁ～こ♡': 'メスガキ',
  'ざぁ〜こ♡': 'メスガキ',
  合意なし: 'レイプ',
  つるぺた: 'ロリ',
  ひよこ: 'ロリ',
  つるぺたババア: 'ロリババア',
  つるぺたばばあ: 'ロリババア',
  ひよこババア: 'ロリババア',
  ひよこばばあ: 'ロリババア',
  閉じ込め: '監禁',
  超ひどい: '鬼畜',
  逆レ: '逆レイプ',
  '命令/無理矢理': '強制/無理矢理',
  近親もの: '近親相姦',
  責め苦: '拷問',
  'トランス/暗示': '催眠',
  畜えち: '獣姦',
  動物なかよし: '獣姦',
  精神支配: '洗脳',
  秘密さわさわ: '痴漢',
  しつけ: '調教',
  下僕: '奴隷',
  回し: '輪姦',
  虫えっち: '蟲姦',
  モブおじさん: 'モブ姦',
  異種えっち: '異種姦',
  機械責め: '機械姦',
  すやすやえっち: '睡眠姦',
  'トランス/暗示ボイス': '催眠音声',
};

/** Longest tag name accepted in a custom mapping (DLsite genre names are short). */
export const MAX_TAG_NAME_LENGTH = 100;

/**
 * The mapping to apply: the built-in one with the caller's pairs on top. Pairs whose two sides are equal
 * are dropped (they would change nothing and could not be undone).
 */
export function uncensorMapping(extra: Readonly<Record<string, string>> = {}): Map<string, string> {
  const out = new Map<string, string>();
  for (const [censored, original] of Object.entries({ ...UNCENSOR_TAGS_JA, ...extra })) {
    const from = censored.trim();
    const to = original.trim();
    if (from && to && from !== to) out.set(from, to);
  }
  return out;
}
