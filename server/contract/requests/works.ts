/**
 * Request schemas of the work list, search, detail and file tree routes (`server/http/routes/works.ts`,
 * docs/API.md#work-lists-and-search): the wire strings, parsed into the form the works service plans
 * queries from (`../works-query.ts`). Pure.
 */
import { z } from 'zod';
import { parseProductCode } from '../../domain/work-code.js';
import { MAX_PAGE, MAX_PAGE_SIZE, SORT_ORDERS, type ListParams, type LyricPart, type SortDirection, type SortOrder } from '../works-query.js';

/** Parse an integer query value within bounds, or add a zod issue naming the parameter. */
function intIn(s: string, name: string, min: number, max: number, ctx: z.RefinementCtx): number {
  if (!/^-?\d{1,16}$/.test(s)) {
    ctx.addIssue({ code: 'custom', message: `${name} 必须是整数` });
    return z.NEVER;
  }
  const n = Number(s);
  if (n < min || n > max) {
    ctx.addIssue({ code: 'custom', message: `${name} 必须在 ${min} 到 ${max} 之间` });
    return z.NEVER;
  }
  return n;
}

/** An optional query string, trimmed; '' counts as absent. */
const param = <T>(fn: (s: string, ctx: z.RefinementCtx) => T) =>
  z
    .string()
    .optional()
    .transform((v, ctx): T | undefined => {
      const s = v?.trim() ?? '';
      return s === '' ? undefined : fn(s, ctx);
    });

const flag = (name: string) =>
  param((s, ctx) => {
    if (s === '0' || s === 'false') return false;
    if (s === '1' || s === 'true') return true;
    ctx.addIssue({ code: 'custom', message: `${name} 必须是 0 或 1` });
    return z.NEVER;
  });

function parseLyric(text: string, ctx: z.RefinementCtx): LyricPart[] {
  const out: LyricPart[] = [];
  for (const p of text.split('_').filter(Boolean)) {
    if (p !== 'local' && p !== 'ai' && p !== 'no') {
      ctx.addIssue({ code: 'custom', message: '未知的歌词筛选（可选 local、ai、no，用 _ 连接）' });
      return z.NEVER;
    }
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/**
 * Common parameters of every work list route. Values are single strings (the route refuses repeated
 * parameters before this schema runs).
 */
export const listQuerySchema = z
  .object({
    page: param((s, ctx) => intIn(s, 'page', 1, MAX_PAGE, ctx)).describe(`页码，1–${MAX_PAGE}，默认 1`),
    // capped, not refused: the mobile apps send their own page sizes
    pageSize: param((s, ctx) => Math.min(intIn(s, 'pageSize', 1, Number.MAX_SAFE_INTEGER, ctx), MAX_PAGE_SIZE)).describe(`每页作品数，大于 ${MAX_PAGE_SIZE} 按 ${MAX_PAGE_SIZE} 计`),
    order: param((s, ctx) => {
      if ((SORT_ORDERS as readonly string[]).includes(s)) return s as SortOrder;
      ctx.addIssue({ code: 'custom', message: `不支持的排序字段（可选 ${SORT_ORDERS.join('、')}）` });
      return z.NEVER;
    }).describe(`排序字段：${SORT_ORDERS.join('、')}，默认 release`),
    sort: param((s, ctx) => {
      const v = s.toLowerCase();
      if (v === 'asc' || v === 'desc') return v as SortDirection;
      ctx.addIssue({ code: 'custom', message: 'sort 必须是 asc 或 desc' });
      return z.NEVER;
    }).describe('asc 或 desc，默认 desc'),
    seed: param((s, ctx) => intIn(s, 'seed', -2147483648, 2147483647, ctx)).describe('order=random 的随机种子（32 位整数），默认 7'),
    nsfw: param((s, ctx) => {
      if (s === '0' || s === '1' || s === '2') return Number(s) as 0 | 1 | 2;
      ctx.addIssue({ code: 'custom', message: 'nsfw 必须是 0、1 或 2' });
      return z.NEVER;
    }).describe('年龄分级：0 全部，1 仅全年龄，2 仅 R18'),
    lyric: param(parseLyric).describe('歌词筛选：local、ai、no，用 _ 连接'),
    subtitle: flag('subtitle').describe('1：只列出有歌词的作品'),
  })
  .transform((q): ListParams => ({
    page: q.page ?? 1,
    pageSize: q.pageSize ?? null,
    order: q.order ?? 'release',
    sort: q.sort ?? 'desc',
    seed: q.seed ?? 7,
    nsfw: q.nsfw ?? 0,
    // subtitle=1 (mobile apps) = "has any lyric" unless an explicit lyric filter was given
    lyric: q.lyric?.length ? q.lyric : q.subtitle ? ['local', 'ai'] : null,
  }));

/** `/api/search` adds `keyword` and `isAdvance`. */
export const searchQuerySchema = z.object({
  keyword: z.string().optional().describe('关键字；isAdvance=1 时为 JSON 条件列表 [{"t":类型,"d":值}]'),
  isAdvance: flag('isAdvance').describe('1：高级搜索'),
});

/** `:id` of works: a number, or a product code such as RJ123456. */
export const workIdSchema = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const n = /^\d{1,15}$/.test(s) ? Number(s) : parseProductCode(s);
    if (n === null || !Number.isSafeInteger(n) || n <= 0) {
      ctx.addIssue({ code: 'custom', message: '作品 id 必须是正整数或作品编号（如 RJ123456）' });
      return z.NEVER;
    }
    return n;
  });

/** `:id` of `GET /api/work/:id` and `GET /api/tracks/:id`. */
export const workIdParams = z.object({ id: workIdSchema });
