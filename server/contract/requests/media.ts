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
