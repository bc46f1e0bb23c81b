import type { Router } from '@koa/router';
import type { Services } from '../../../app/services.js';
import { createSubsonicRouter, type SubsonicModule } from './router.js';
import { subsonicSystem } from './system.js';
import { subsonicBrowse } from './browse.js';
import { subsonicMedia } from './media.js';
import { subsonicUser } from './user.js';
import { subsonicScan } from './scan.js';
import { subsonicLyrics } from './lyrics.js';

/** The Subsonic method modules, in registration order. */
const MODULES: SubsonicModule[] = [subsonicSystem, subsonicBrowse, subsonicMedia, subsonicUser, subsonicScan, subsonicLyrics];

/** The `/rest` router with every Subsonic method (its policies are enforced by the caller). */
export function subsonicRoutes(services: Services): Router {
  const router = createSubsonicRouter();
  for (const register of MODULES) register(router, services);
  return router;
}

export { subsonicErrors } from './router.js';
