/** The bearer token, kept in local storage through the preferences module (spec §6). */
import { getPref, resetPref, setPref } from '../lib/prefs.js';

export const getToken = (): string => getPref('token');
export const saveToken = (token: string): void => setPref('token', token);
export const clearToken = (): void => resetPref('token');
