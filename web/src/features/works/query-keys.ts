/** Query keys of the work lists (shared by the screens and the route loaders that prefetch them). */
import { WORKS_KEY } from './api.js';

export const waterfallKey = (resetKey: string, seed: number) => [...WORKS_KEY, 'waterfall', resetKey, seed] as const;
export const pagedKey = (resetKey: string, seed: number, page: number) => [...WORKS_KEY, 'page', resetKey, seed, page] as const;
