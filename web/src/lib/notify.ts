/** Toasts: red errors, yellow warnings, a brief green success. */
import type { ReactNode } from 'react';
import { notifications, type NotificationData } from '@mantine/notifications';

type Extra = Omit<NotificationData, 'message' | 'color'>;

export const SUCCESS_MS = 500;
const ERROR_MS = 5000;

export const notifyError = (message: ReactNode, extra: Extra = {}) => notifications.show({ color: 'red', autoClose: ERROR_MS, message, ...extra });

export const notifyWarning = (message: ReactNode, extra: Extra = {}) => notifications.show({ color: 'yellow', autoClose: ERROR_MS, message, ...extra });

export const notifySuccess = (message: ReactNode, extra: Extra = {}) => notifications.show({ color: 'teal', autoClose: SUCCESS_MS, message, ...extra });

export const notifyInfo = (message: ReactNode, extra: Extra = {}) => notifications.show({ color: 'blue', message, ...extra });
