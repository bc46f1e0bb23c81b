/** The shape of a scan-line catalogue: one entry per message key of the Chinese one, same parameters. */
import type { MSG } from './zh-CN.js';

type Catalogue = typeof MSG;
export type ScanMessages = { [K in keyof Catalogue]: Catalogue[K] extends string ? string : Catalogue[K] };
