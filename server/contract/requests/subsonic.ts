/** Request schemas of the Subsonic credential routes of the account page (`server/http/routes/subsonic-account.ts`). Pure. */
import { z } from 'zod';

/** Body of `POST /api/auth/me/subsonic/keys`: a name for the new API key (the app or device). */
export const subsonicKeyBody = z.object({ name: z.string().min(1).max(64) });

/** Path of `DELETE /api/auth/me/subsonic/keys/:name`. */
export const subsonicKeyParams = z.object({ name: z.string().min(1).max(64) });

/** Body of `PUT /api/auth/me/subsonic/password`: the Subsonic password (8–256 characters). */
export const subsonicPasswordBody = z.object({ password: z.string().min(8).max(256) });
