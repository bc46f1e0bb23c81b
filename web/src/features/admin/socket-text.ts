/**
 * The admin socket's refusals and complaints in the interface language. An error frame carries the
 * server's text (`message`, kikoeru's, partly English) and, since it has them, an API error code
 * (`reason`, server/domain/error-codes.ts) said through the shared error sentences
 * (server/contract/error-text); a refusing close without a frame before it is said by its close code.
 * zh-CN keeps the server's Chinese text, as for HTTP errors.
 */
import { CLOSE_FORBIDDEN } from '../../../../server/contract/realtime.js';
import { errorSentence } from '../../api/error-sentence.js';
import type { ErrorLocale } from '../../../../server/contract/error-text/index.js';
import { t } from '../../i18n/index.js';

/** What an error frame says: its `reason` (an API error code) in the interface language, else its own text. */
export function socketErrorText(payload: unknown, locale?: ErrorLocale): string {
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as { message?: unknown; reason?: unknown };
  const message = typeof p.message === 'string' ? p.message : '';
  return errorSentence({ code: p.reason }, message || t.dashboard.scanner.socketFailed, locale);
}

/** Why a refusing close (4401 / 4403) came without an error frame before it. */
export function socketCloseText(code: number, reason: string, locale?: ErrorLocale): string {
  return errorSentence({ code: code === CLOSE_FORBIDDEN ? 'ADMIN_ONLY' : 'SESSION_EXPIRED' }, reason || t.dashboard.scanner.socketFailed, locale);
}
