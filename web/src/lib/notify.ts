/**
 * Toasts: red errors, yellow warnings, a brief green success.
 *
 * The same error or warning is shown once: several requests failing at once (the server is down) say
 * it in one toast. A text toast gets its text as id, so a second one while it shows is dropped (the
 * notifications store ignores a known id), and so is one within `REPEAT_MS` after it was shown.
 */
import type { ReactNode } from 'react';
import { notifications, type NotificationData } from '@mantine/notifications';

type Extra = Omit<NotificationData, 'message' | 'color'>;

export const SUCCESS_MS = 500;
const ERROR_MS = 5000;
/** The same text is not shown again this soon. */
export const REPEAT_MS = 2000;

const lastShown = new Map<string, number>();

/** Show `data` unless the same text was shown just now; the text is its id unless it has one. */
function showOnce(color: string, message: ReactNode, extra: Extra): string | undefined {
  if (typeof message !== 'string') return notifications.show({ color, autoClose: ERROR_MS, message, ...extra });
  const key = extra.id === undefined ? `${color}:${message}` : `${color}:${extra.id}:${message}`;
  const now = Date.now();
  const last = lastShown.get(key);
  if (last !== undefined && now - last < REPEAT_MS) return undefined;
  lastShown.set(key, now);
  for (const [k, at] of lastShown) if (now - at >= REPEAT_MS) lastShown.delete(k);
  return notifications.show({ color, autoClose: ERROR_MS, message, id: key, ...extra });
}

export const notifyError = (message: ReactNode, extra: Extra = {}) => showOnce('red', message, extra);

export const notifyWarning = (message: ReactNode, extra: Extra = {}) => showOnce('yellow', message, extra);

export const notifySuccess = (message: ReactNode, extra: Extra = {}) => notifications.show({ color: 'teal', autoClose: SUCCESS_MS, message, ...extra });

export const notifyInfo = (message: ReactNode, extra: Extra = {}) => notifications.show({ color: 'blue', message, ...extra });
