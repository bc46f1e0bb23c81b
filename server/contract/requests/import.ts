/** Request schema of the kikoeru import route (`server/http/routes/import.ts`). Pure. */
import { z } from 'zod';

const serverPath = z.string().trim().min(1).max(4096);

/** Body of `POST /api/admin/import/kikoeru`: paths on the server (absolute), as the command takes them. */
export const kikoeruImportBody = z.object({
  db: serverPath,
  config: serverPath.optional(),
  lyrics: serverPath.optional(),
  covers: serverPath.optional(),
  dryRun: z.boolean().optional(),
});
