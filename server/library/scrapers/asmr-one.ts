import { asArray, asRecord, asText, circleIdFromMakerId, parseDate, toInt, uniqueById, uniqueVas, workIdFromText, type TagLanguage } from './common.js';
import { dynamicFromRecord, type DynamicInfo } from './dlsite-dynamic.js';

/**
 * Parser of asmr.one's `/api/workInfo/<code>` (the last fallback, server/library/README.md#phases-of-a-library-scan).
 *
 * Tag ids: asmr.one numbers tags its own way, so its ids are NOT DLsite genre ids and must never be stored
 * as such (kikoeru did: id collisions rename unrelated tags). kikoplay gives them ids in a
 * reserved range, `ASMR_ONE_TAG_ID_BASE + <asmr.one id>`: the same asmr.one tag always maps to the same
 * kikoplay tag, and no DLsite genre id (well below 1e6) or custom tag (from 900000000) can collide.
 * Tag names are taken in the configured language from the tag's `i18n` when it has one.
 */
export const ASMR_ONE_TAG_ID_BASE = 800_000_000;

export interface AsmrOneData {
  title: string;
  circle: { id: number; name: string } | null;
  nsfw: boolean;
  release: string;
  tags: { id: number; name: string }[];
  vas: { id: string; name: string }[];
  related: { id: number; name: string }[];
  dynamic: DynamicInfo;
}

function tagName(tag: Record<string, unknown>, lang: TagLanguage): string {
  const i18n = asRecord(tag.i18n);
  const pick = (key: string) => asText(asRecord(i18n[key]).name);
  return (lang === 'zh-tw' ? pick('zh-tw') || pick('zh-cn') : pick(lang)) || asText(tag.name);
}

export function parseAsmrOneWork(json: unknown, workId: number, lang: TagLanguage): AsmrOneData | null {
  const w = asRecord(json);
  const title = asText(w.title);
  if (!title) return null;

  const c = asRecord(w.circle);
  const circleName = asText(c.name) || asText(w.name);
  // Prefer the DLsite maker id (`source_id: "RG12345"`); `circle_id` is the DLsite digits on older answers.
  const circleId = circleIdFromMakerId(asText(c.source_id)) ?? (toInt(w.circle_id) || null);
  const circle = circleName && circleId !== null ? { id: circleId, name: circleName } : null;

  const tags = uniqueById(
    asArray(w.tags)
      .map(asRecord)
      .map((t) => ({ id: toInt(t.id), name: tagName(t, lang) }))
      .filter((t) => t.id > 0 && t.name)
      .map((t) => ({ id: ASMR_ONE_TAG_ID_BASE + t.id, name: t.name })),
  );

  const related = uniqueById(
    asArray(w.language_editions)
      .map(asRecord)
      .map((e) => ({ id: workIdFromText(asText(e.workno)) ?? 0, name: asText(e.label) || asText(e.lang) }))
      .filter((e) => e.id > 0 && e.id !== workId && e.name),
  );

  return {
    title,
    circle,
    nsfw: w.nsfw === true || asText(w.age_category_string) === 'adult',
    release: parseDate(asText(w.release)),
    tags,
    vas: uniqueVas(asArray(w.vas).map((v) => asText(asRecord(v).name))),
    related,
    dynamic: dynamicFromRecord(w),
  };
}
