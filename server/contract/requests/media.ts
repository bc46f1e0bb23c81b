/** Request schemas of the stream, download and thumbnail routes (`server/http/routes/media.ts`). Pure. */
import { z } from 'zod';

/** `:id/:index` = the track hash `<workId>/<n>` (n = the file's stable number). */
export const trackHashParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, '作品 id 必须是正整数')
    .transform(Number),
  index: z
    .string()
    .regex(/^\d{1,9}$/, '文件序号必须是非负整数')
    .transform(Number),
});

/** `:id` of a work (`GET /api/media/download-work/:id`). */
export const workZipParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, '作品 id 必须是正整数')
    .transform(Number),
});

/** `?path=`: a folder of the work, relative to the work folder, '/'-separated (as the file tree shows it). */
export const workZipQuery = z.object({
  path: z.string().min(1, '文件夹路径无效').max(4096, '文件夹路径无效').optional(),
});
