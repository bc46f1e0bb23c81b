import * as cheerio from 'cheerio';
import { circleIdFromMakerId, parseDate, uniqueById, uniqueVas, workIdFromText, workIdsInText } from './common.js';

/**
 * Parser of a DLsite product page (server/library/README.md#phases-of-a-library-scan). Pure: HTML in, data out.
 * The rows of `#work_outline` are found by their header text; the headers of all three page languages are
 * recognised whichever `locale` cookie was sent, so a page served in another language still parses.
 */

type Field = 'release' | 'series' | 'age' | 'genre' | 'va';

const HEADERS: Record<string, Field> = {
  // ja-jp
  販売日: 'release',
  シリーズ名: 'series',
  年齢指定: 'age',
  ジャンル: 'genre',
  声優: 'va',
  // zh-cn
  贩卖日: 'release',
  年龄指定: 'age',
  分类: 'genre',
  声优: 'va',
  // zh-tw
  販賣日: 'release',
  年齡指定: 'age',
  分類: 'genre',
  聲優: 'va',
  // shared by zh-cn and zh-tw
  系列名: 'series',
};

export interface DlsitePageData {
  title: string;
  circle: { id: number; name: string } | null;
  nsfw: boolean;
  release: string;
  tags: { id: number; name: string }[];
  vas: { id: string; name: string }[];
  series: { id: string; name: string } | null;
  /** Other language editions of the product (the work itself excluded). */
  related: { id: number; name: string }[];
  /** The work whose images this page shows as its cover (a translation often shows the original's). */
  coverFrom: number;
  /** The page shows DLsite's "no image" placeholder. */
  noImage: boolean;
}

export class PageParseError extends Error {}

const text = (s: string | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();

/** og:title is `<title> [<circle>] | DLsite`; keep only the title. */
export function stripTitleSuffix(ogTitle: string, circleName: string | undefined): string {
  const t = text(ogTitle);
  if (circleName) {
    const suffix = ` [${circleName}] | DLsite`;
    if (t.endsWith(suffix)) return t.slice(0, -suffix.length).trim();
  }
  const m = /^(.*) \[.*\] \| DLsite$/.exec(t);
  return (m ? m[1] : t.replace(/ \| DLsite$/, '')).trim();
}

type Doc = ReturnType<typeof cheerio.load>;

/** Language editions: `.work_edition_linklist a` → the product pages of the other editions. */
function editionsOf($: Doc, workId: number): { id: number; name: string }[] {
  const editions: { id: number; name: string }[] = [];
  $('.work_edition_linklist a').each((_, a) => {
    const id = workIdFromText($(a).attr('href') ?? '');
    const name = text($(a).text());
    if (id !== null && name) editions.push({ id, name });
  });
  return uniqueById(editions.filter((e) => e.id !== workId));
}

/**
 * Cover source: the image srcsets of the page name the work whose images are shown.
 * The work itself when they name it; else the first language edition they name (a translation showing the
 * original's images); else the work itself. `no_img_main` in a srcset = DLsite has no image.
 */
function coverInfoOf($: Doc, workId: number, related: { id: number }[]): { coverFrom: number; noImage: boolean } {
  let noImage = false;
  const imageIds: number[] = [];
  const sources = [
    ...$('img[srcset], source[srcset]')
      .toArray()
      .map((e) => $(e).attr('srcset') ?? ''),
    ...$('[data-src]')
      .toArray()
      .map((e) => $(e).attr('data-src') ?? ''),
    $('meta[property="og:image"]').attr('content') ?? '',
  ];
  for (const src of sources) {
    if (src.includes('no_img_main')) noImage = true;
    if (src.includes('_img_')) imageIds.push(...workIdsInText(src));
  }
  const coverFrom = imageIds.includes(workId) ? workId : (related.find((e) => imageIds.includes(e.id))?.id ?? workId);
  return { coverFrom, noImage };
}

/** Only the cover source of a page (works also on pages whose data cannot be parsed). */
export function parsePageCoverInfo(html: string, workId: number): { coverFrom: number; noImage: boolean } {
  const $ = cheerio.load(html);
  return coverInfoOf($, workId, editionsOf($, workId));
}

export function parseDlsitePage(html: string, workId: number): DlsitePageData {
  const $ = cheerio.load(html);

  // Circle: the maker link (`…/maker_id/RG12345.html`).
  const maker = $('.maker_name a').first();
  const makerName = text(maker.text());
  const makerId = circleIdFromMakerId(maker.attr('href') ?? '');
  const circle = makerName && makerId !== null ? { id: makerId, name: makerName } : null;

  const ogTitle = $('meta[property="og:title"]').attr('content');
  const title = ogTitle ? stripTitleSuffix(ogTitle, makerName) : text($('#work_name').first().text());

  const rows = $('#work_outline tr').toArray();
  const cellOf = (field: Field) => {
    const row = rows.find((tr) => HEADERS[text($(tr).children('th').first().text())] === field);
    return row ? $(row).children('td').first() : undefined;
  };

  const age = cellOf('age');
  const ageSpan = age?.find('span').first();
  const nsfw = Boolean(age && (text(ageSpan?.text()) === '18禁' || ageSpan?.attr('title') === '18禁' || age.find('.icon_ADL').length > 0));

  const release = parseDate(text(cellOf('release')?.text()));

  const tags = uniqueById(
    (cellOf('genre')?.find('a').toArray() ?? []).flatMap((a) => {
      const m = /genre\/(\d+)/.exec($(a).attr('href') ?? '');
      const name = text($(a).text());
      return m && name ? [{ id: Number(m[1]), name }] : [];
    }),
  );

  const vaCell = cellOf('va');
  const vaLinks =
    vaCell
      ?.find('a')
      .toArray()
      .map((a) => text($(a).text())) ?? [];
  // Some pages list voice actors as plain text ("名前 / 名前") instead of links.
  const vaNames = vaLinks.length ? vaLinks : text(vaCell?.text()).split(/\s*[/／、]\s*/);
  const vas = uniqueVas(vaNames);

  const seriesCell = cellOf('series');
  const seriesLink = seriesCell?.find('a').first();
  const seriesId = /SRI\d+/.exec(seriesLink?.attr('href') ?? '')?.[0];
  const series = seriesId ? { id: seriesId, name: text(seriesLink?.text()) } : null;

  const related = editionsOf($, workId);
  const { coverFrom, noImage } = coverInfoOf($, workId, related);

  if (!title || (tags.length === 0 && vas.length === 0)) throw new PageParseError("Couldn't parse data from DLsite work page.");

  return { title, circle, nsfw, release, tags, vas, series, related, coverFrom, noImage };
}
