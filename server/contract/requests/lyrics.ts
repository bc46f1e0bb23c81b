/** Request schemas of the lyric routes (`server/http/routes/lyrics.ts`, docs/API.md#lyrics). Pure. */
import { z } from 'zod';
import { MAX_LYRIC_LINES } from '../../domain/lyrics/limits.js';

const workIdParam = z
  .string()
  .regex(/^\d{1,15}$/, '作品 id 必须是正整数')
  .transform(Number);
const indexParam = z
  .string()
  .regex(/^\d{1,9}$/, '文件序号必须是非负整数')
  .transform(Number);

/** `:id/:index` = the track hash `<workId>/<n>` (n = the file's stable number). */
export const trackHashParams = z.object({ id: workIdParam, index: indexParam });
/** `:id/:ref/:isAI` of `GET /api/media/fetch-lrc/…`. */
export const fetchParams = z.object({
  id: workIdParam,
  ref: z
    .string()
    .regex(/^\d{1,15}$/, '必须是非负整数')
    .transform(Number),
  isAI: z.enum(['0', '1'], { message: '必须是 0（本地歌词）或 1（AI 歌词）' }),
});
/** `:workId` of `POST /api/media/save-lrc/:workId`. */
export const saveLrcParams = z.object({ workId: workIdParam });

/** Most lines accepted by save-lrc: as many as a parsed lyric may have. */
export const MAX_SAVE_LINES = MAX_LYRIC_LINES;

/** Body of `POST /api/media/save-lrc/:workId`. Extra line fields (editor state) are accepted and dropped. */
export const saveLrcBody = z.object({
  writePath: z.string().min(1).max(1024),
  lrc: z
    .array(
      z
        .object({
          time: z.number(),
          text: z.string().max(10_000),
          timeEnd: z.number().nullish(),
          deleted: z.boolean().nullish(),
        })
        .passthrough(),
    )
    .max(MAX_SAVE_LINES),
});
export type SaveLrcBody = z.infer<typeof saveLrcBody>;
