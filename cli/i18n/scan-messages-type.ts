/** The shape of the scan's log lines in a terminal catalogue: one entry per message key, same parameters. */
import type { MSG } from '../../server/library/scan/scan-messages.js';

type Catalogue = typeof MSG;
export type ScanMessages = { [K in keyof Catalogue]: Catalogue[K] extends string ? string : Catalogue[K] };
