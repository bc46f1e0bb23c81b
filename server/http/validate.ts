import type { z } from 'zod';
import { badRequest } from '../domain/errors.js';

/** Parse request input with a zod schema; a failure is a 400 `{ error, code: FIELD_INVALID, field }` naming the parameter. */
export function validate<S extends z.ZodType>(schema: S, input: unknown, where: 'query' | 'body' | 'params' = 'query'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue.path.join('.') || where;
  throw badRequest(`参数 ${param} 无效: ${issue.message}`, { code: 'FIELD_INVALID', field: param });
}
