/** Request schemas of the library folder routes (`server/http/routes/folders.ts`). Pure. */
import { z } from 'zod';

/** Query of `GET /api/config/browse`: the directory to list (absolute); none: where browsing starts. */
export const browseQuery = z.object({ path: z.string().optional() });
