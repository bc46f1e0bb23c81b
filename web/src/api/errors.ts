/**
 * The generic error handler: a red notification with the answer's `code` said in the interface
 * language (error-sentence.ts: the catalogues of server/contract/error-text), else the response's `error`,
 * else "status statusText", else the exception message. 401 is silent and hands over to the
 * unauthorized handler (the router sends the user to /login); 403 is a yellow warning.
 */
import { ApiError } from './client.js';

export { errorLocale, errorSentence } from './error-sentence.js';
import { notifyError, notifyWarning } from '../lib/notify.js';

let onUnauthorized: () => void = () => undefined;

/** Installed once by the app: what to do when the server says the token is missing or stale. */
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

export const isUnauthorized = (err: unknown): boolean => err instanceof ApiError && err.status === 401;

const isAbort = (err: unknown): boolean => err instanceof DOMException && err.name === 'AbortError';

export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

export function reportError(err: unknown): void {
  if (isAbort(err)) return;
  if (err instanceof ApiError) {
    if (err.status === 401) {
      onUnauthorized();
      return;
    }
    if (err.status === 403) {
      notifyWarning(err.message);
      return;
    }
  }
  notifyError(errorText(err));
}
