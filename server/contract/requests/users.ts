/** Request schemas of the user management routes (`server/http/routes/users.ts`). Pure. */
import { z } from 'zod';

/** Body of `DELETE /api/credentials/user`. */
export const deleteUsersBody = z.object({ users: z.array(z.object({ name: z.string().min(1) })).min(1) });
