import { isAppError } from '../../domain/errors.js';

/** Subsonic error codes (the API's own numbering, sent in the response envelope). */
export const SUBSONIC_CODES = {
  generic: 0,
  missingParameter: 10,
  clientTooOld: 20,
  serverTooOld: 30,
  wrongCredentials: 40,
  tokenAuthUnsupported: 41,
  authMechanismUnsupported: 42,
  conflictingAuth: 43,
  invalidApiKey: 44,
  notAuthorized: 50,
  notFound: 70,
} as const;

/** An error of the Subsonic API: answered as `<error code message/>` in the response envelope. */
export class SubsonicError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Headers to send along (Retry-After on a refused credential check). */
    readonly headers: Record<string, string> = {},
    /** The HTTP status (200, as Subsonic clients expect, except for a 429 brake). */
    readonly status = 200,
  ) {
    super(message);
  }
}

export const missingParameter = (name: string) => new SubsonicError(SUBSONIC_CODES.missingParameter, `Required parameter is missing: ${name}`);
export const subsonicNotFound = (what: string) => new SubsonicError(SUBSONIC_CODES.notFound, `${what} not found`);

/** Any error thrown while answering a /rest request, as a Subsonic error. */
export function toSubsonicError(err: unknown): SubsonicError | null {
  if (err instanceof SubsonicError) return err;
  if (!isAppError(err)) return null;
  switch (err.kind) {
    case 'not_found':
      return new SubsonicError(SUBSONIC_CODES.notFound, err.message);
    case 'forbidden':
      return new SubsonicError(SUBSONIC_CODES.notAuthorized, err.message);
    case 'unauthorized':
      return new SubsonicError(SUBSONIC_CODES.wrongCredentials, err.message);
    case 'too_many_requests':
      return new SubsonicError(SUBSONIC_CODES.generic, err.message, err.headers ?? {}, 429);
    case 'conflict':
      return new SubsonicError(SUBSONIC_CODES.generic, err.message);
    case 'payload_too_large':
      return new SubsonicError(SUBSONIC_CODES.generic, err.message, {}, 413);
    case 'validation':
    case 'bad_request':
      return new SubsonicError(SUBSONIC_CODES.generic, err.message, {}, err.status === 415 || err.status === 413 ? err.status : 200);
    default:
      return null;
  }
}
