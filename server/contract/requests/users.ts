/** Request schemas of the user management routes (`server/http/routes/users.ts`). Pure. */
import { z } from 'zod';
import { LOCALES } from '../../domain/locales.js';

/** Body of `DELETE /api/credentials/user`. */
export const deleteUsersBody = z.object({ users: z.array(z.object({ name: z.string().min(1) })).min(1) });

/** Body of `PUT /api/auth/me/locale`: the web app's interface language. */
export const localeBody = z.object({ locale: z.enum(LOCALES) });

/** Body of `PUT /api/auth/me/password`: the caller's current password and the new one (5–1024 characters). */
export const ownPasswordBody = z.object({ current: z.string().min(1), password: z.string().min(5).max(1024) });
