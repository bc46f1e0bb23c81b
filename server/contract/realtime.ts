/**
 * Admin socket protocol (docs/API.md#admin-socket): JSON text frames
 * `{ "event": NAME, "payload": ... }` over `ws` at /api/ws?token=…, admin only.
 * Server events are incremental (only what is new); SCAN_INIT_STATE is the full snapshot.
 */
import type { ApiErrorCode } from '../domain/error-codes.js';
import { SCAN_UPDATE_NAMES, type ScanUpdate, type ScanUpdatePayloads } from './scan-state.js';
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../domain/json-depth.js';

export const WS_PATH = '/api/ws';

export const CLIENT_EVENTS = ['ON_SCANNER_PAGE', 'PERFORM_SCAN', 'PERFORM_LYRIC_SCAN', 'PERFORM_UPDATE', 'KILL_SCAN_PROCESS'] as const;
export type ClientEvent = (typeof CLIENT_EVENTS)[number];

/** The frames the server sends: event name → payload (the scan frames are in scan-state.ts). */
export interface ServerPayloads extends ScanUpdatePayloads {
  /** The socket was admitted. */
  success: { message: string; user: { name: string; group: string; role: string; logged_in: boolean }; auth: boolean };
  /**
   * A refusal (with the close code that follows) or the answer to a bad message. `message` is the
   * server's text (kikoeru's, partly English); `reason` is the error code of server/domain/error-codes.ts
   * the dashboard says it by, in the interface language (server/contract/error-text).
   */
  error: { message: string; code?: number; reason?: ApiErrorCode };
}
export type ServerEvent = keyof ServerPayloads;
export type ServerFrame = { [E in ServerEvent]: { event: E; payload: ServerPayloads[E] } }[ServerEvent];

export const SERVER_EVENTS = ['success', 'error', ...SCAN_UPDATE_NAMES] as const satisfies readonly ServerEvent[];

/** A frame as it arrives: an event name and an unchecked payload. */
export interface Frame {
  event: string;
  payload?: unknown;
}

/** Close codes: 4401 not logged in / bad token, 4403 not an admin. */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;

export function encode<E extends ServerEvent>(event: E, payload: ServerPayloads[E]): string {
  return JSON.stringify({ event, payload });
}

/** A received frame, or null when it is not JSON, names no event or nests deeper than MAX_JSON_DEPTH. */
export function decode(data: string): Frame | null {
  if (jsonTextTooDeep(data, MAX_JSON_DEPTH)) return null;
  try {
    const frame = JSON.parse(data) as Frame;
    return frame && typeof frame.event === 'string' ? frame : null;
  } catch {
    return null;
  }
}

const SCAN_UPDATES: ReadonlySet<string> = new Set(SCAN_UPDATE_NAMES);

/** A received frame as a scan update (for applyScanUpdate), or null when it is not one or has no payload object. */
export function scanUpdateOf(frame: Frame): ScanUpdate | null {
  const p = frame.payload;
  if (!SCAN_UPDATES.has(frame.event) || typeof p !== 'object' || p === null || Array.isArray(p)) return null;
  return frame as ScanUpdate;
}
