/** The account page's Subsonic texts in the active interface language (a lazily loaded catalogue). */
import { activeLocale } from '../active.js';
import type { Locale } from '../locale.js';
import { en } from './en.js';
import { ja } from './ja.js';
import { zhCN, type SubsonicMessages } from './zh-CN.js';

export const SUBSONIC_CATALOGUES: Record<Locale, SubsonicMessages> = { en, ja, 'zh-CN': zhCN };

export const subsonicText = (): SubsonicMessages => SUBSONIC_CATALOGUES[activeLocale()];
