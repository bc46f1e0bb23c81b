import { asArray, asRecord, asText, circleIdFromMakerId, parseDate, toInt, uniqueById, uniqueVas, workIdFromText, workIdsInText } from './common.js';
import { stripTitleSuffix } from './dlsite-page.js';
import { dynamicFromRecord, type DynamicInfo } from './dlsite-dynamic.js';

/**
 * Parser of DLsite's `/<floor>/api/=/product.json?workno=<code>` (the second source, done right:
 * `regist_date` becomes a `YYYY-MM-DD` string, `creaters.voice_by` may be absent, genre ids are kept whole).
 * DLsite answers `[]` for an unknown product: null.
 */

export interface ProductJsonData {
  title: string;
  circle: { id: number; name: string } | null;
  nsfw: boolean;
  release: string;
  tags: { id: number; name: string }[];
  vas: { id: string; name: string }[];
  related: { id: number; name: string }[];
  /** The work whose image the API gives as `image_main` (the original, for many translations). */
  coverFrom: number;
  /** Sales numbers the product API carries itself (used when the dynamic API has none). */
  dynamic: DynamicInfo;
}

/** age_category: 1 all ages, 2 R-15, 3 adult. */
const ADULT = 3;

export function parseProductJson(json: unknown, workId: number): ProductJsonData | null {
  const item = asRecord(asArray(json)[0] ?? (Array.isArray(json) ? undefined : json));
  const circleName = asText(item.maker_name);
  const title = stripTitleSuffix(asText(item.work_name) || asText(item.product_name), circleName);
  if (!title) return null;

  const makerId = circleIdFromMakerId(asText(item.maker_id));
  const circle = makerId !== null && circleName ? { id: makerId, name: circleName } : null;

  const tags = uniqueById(
    asArray(item.genres)
      .map(asRecord)
      .map((g) => ({ id: toInt(g.id), name: asText(g.name) }))
      .filter((g) => g.id > 0 && g.name),
  );

  // `creaters` is an object of role → people, or `[]` when a work credits nobody.
  const voiceBy = asArray(asRecord(item.creaters).voice_by).map((p) => asText(asRecord(p).name));

  const related = uniqueById(
    asArray(item.language_editions)
      .map(asRecord)
      .map((e) => ({ id: workIdFromText(asText(e.workno)) ?? 0, name: asText(e.label) || asText(e.lang) }))
      .filter((e) => e.id > 0 && e.id !== workId && e.name),
  );

  const image = asText(asRecord(item.image_main).url) || asText(item.image_main);
  const imageIds = image.includes('_img_') ? workIdsInText(image) : [];

  return {
    title,
    circle,
    nsfw: toInt(item.age_category) === ADULT,
    release: parseDate(asText(item.regist_date)),
    tags,
    vas: uniqueVas(voiceBy),
    related,
    coverFrom: imageIds[0] ?? workId,
    dynamic: dynamicFromRecord(item),
  };
}
