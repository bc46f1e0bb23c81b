import type { Router } from '@koa/router';
import type { Services } from '../../app/services.js';

/** Every route module registers its routes on the API router using the app's services. */
export type RouteModule = (router: Router, services: Services) => void;
