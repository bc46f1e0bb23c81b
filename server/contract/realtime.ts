/**
 * Admin socket protocol (docs/API.md#admin-socket): JSON text frames
 * `{ "event": NAME, "payload": ... }` over `ws` at /api/ws?token=…, admin only.
 * Server events are incremental (only what is new); SCAN_INIT_STATE is the full snapshot.
 */
export const WS_PATH = '/api/ws';

export const CLIENT_EVENTS = ['ON_SCANNER_PAGE', 'PERFORM_SCAN', 'PERFORM_LYRIC_SCAN', 'PERFORM_UPDATE', 'KILL_SCAN_PROCESS'] as const;
export type ClientEvent = (typeof CLIENT_EVENTS)[number];

export const SERVER_EVENTS = [
  'success',
  'error',
  'SCAN_INIT_STATE',
  'SCAN_TASKS',
  'SCAN_FAILED_TASKS',
  'SCAN_MAIN_LOGS',
  'SCAN_RESULTS',
  'SCAN_PROGRESS',
  'SCAN_FINISHED',
  'SCAN_ERROR',
] as const;
export type ServerEvent = (typeof SERVER_EVENTS)[number];

export interface Frame {
  event: string;
  payload?: unknown;
}

/** Close codes: 4401 not logged in / bad token, 4403 not an admin. */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;

export function encode(event: ServerEvent, payload?: unknown): string {
  return JSON.stringify(payload === undefined ? { event } : { event, payload });
}

export function decode(data: string): Frame | null {
  try {
    const frame = JSON.parse(data) as Frame;
    return frame && typeof frame.event === 'string' ? frame : null;
  } catch {
    return null;
  }
}
