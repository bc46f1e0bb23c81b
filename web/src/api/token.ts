/**
 * The bearer (login) token, kept in local storage through the preferences module. The media
 * token made from it (media-token.ts) goes with it.
 */
import { getPref, resetPref, setPref } from '../lib/prefs.js';

export const getToken = (): string => getPref('token');
export const saveToken = (token: string): void => {
  resetPref('mediaToken');
  setPref('token', token);
};
export const clearToken = (): void => {
  resetPref('mediaToken');
  resetPref('token');
};
