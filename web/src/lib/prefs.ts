/**
 * The one typed preferences module.
 *
 * Every preference has a storage key, a default and a parser that validates what is stored: a value
 * that is missing, unreadable or outside the allowed set reads as the default (dark mode → auto, list
 * mode → waterfall). Values are stored as JSON, except the token which is stored as the plain string.
 * The sleep timer lives in session storage, everything else in local storage. Storage that throws
 * (private mode, disabled storage) degrades to memory for the session.
 */
import { useCallback, useSyncExternalStore } from 'react';

export const DARK_MODES = ['light', 'dark', 'auto'] as const;
export type DarkMode = (typeof DARK_MODES)[number];

export const LIST_MODES = ['waterfall', 'pagination'] as const;
export type ListMode = (typeof LIST_MODES)[number];

/** Sort fields of the work list; the default is release, descending. */
export const SORT_FIELDS = ['release', 'rating', 'dl_count', 'price', 'rate_average_2dp', 'review_count', 'id', 'created_at', 'random'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** nsfw_0 all, nsfw_1 all ages, nsfw_2 adult. */
export const AGE_RATINGS = ['nsfw_0', 'nsfw_1', 'nsfw_2'] as const;
export type AgeRating = (typeof AGE_RATINGS)[number];

/** Lyric filter options; 'no' excludes the others. */
export const LYRIC_OPTIONS = ['local', 'ai', 'no'] as const;
export type LyricOption = (typeof LYRIC_OPTIONS)[number];

export const FAVOURITES_SORTS = ['updated_at', 'userRating', 'release', 'review_count', 'dl_count', 'allage', 'nsfw'] as const;
export type FavouritesSort = (typeof FAVOURITES_SORTS)[number];

/** Search condition types; the client also uses 'unknown'. */
export const SEARCH_TYPES = ['fuzzy', 'va', 'tag', 'circle', 'code', 'unknown'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface SearchCondition {
  type: SearchType;
  value: string | number;
  name: string;
}

export interface SleepTimer {
  mode: 'clock' | 'countdown';
  /** Epoch milliseconds at which playback pauses. */
  stopAt: number;
}

export const LYRIC_FONT_SIZE = { min: 0.2, max: 10, default: 1.5 } as const;

/** Playback speed range (remembered per user). */
export const PLAYBACK_RATE = { min: 0.5, max: 3, default: 1 } as const;

/** The on-screen lyric bar: shown or not, and where (fractions of the viewport, its centre). */
export interface LyricBarPrefs {
  show: boolean;
  x: number;
  y: number;
}

type StorageKind = 'local' | 'session';

interface PrefDef<T> {
  key: string;
  storage: StorageKind;
  defaultValue: T;
  /** Validate a stored value; undefined means "not acceptable, use the default". */
  parse(stored: unknown): T | undefined;
  /** Stored as the plain string instead of JSON. */
  plain?: boolean;
}

const oneOf =
  <T extends string>(allowed: readonly T[]) =>
  (v: unknown): T | undefined =>
    typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : undefined;

const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Dark mode: light/dark/auto; the legacy client stored true/false/auto. */
export function parseDarkMode(v: unknown): DarkMode | undefined {
  if (v === true || v === 'true') return 'dark';
  if (v === false || v === 'false') return 'light';
  return oneOf(DARK_MODES)(v);
}

function parseLyricOptions(v: unknown): LyricOption[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const isOption = oneOf(LYRIC_OPTIONS);
  const picked = [...new Set(v.map(isOption).filter((x): x is LyricOption => x !== undefined))];
  return picked.includes('no') ? ['no'] : picked;
}

function parseConditions(v: unknown): SearchCondition[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const isType = oneOf(SEARCH_TYPES);
  const out: SearchCondition[] = [];
  for (const item of v) {
    if (!isRecord(item)) continue;
    const type = isType(item.type);
    const value = item.value;
    if (!type || (typeof value !== 'string' && typeof value !== 'number')) continue;
    out.push({ type, value, name: typeof item.name === 'string' ? item.name : String(value) });
  }
  return out;
}

function parseVisualCovers(v: unknown): Record<string, string> | undefined {
  if (!isRecord(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [workId, cover] of Object.entries(v)) {
    if (/^\d+$/.test(workId) && typeof cover === 'string' && cover) out[workId] = cover;
  }
  return out;
}

function parseSleepTimer(v: unknown): SleepTimer | null | undefined {
  if (v === null) return null;
  if (!isRecord(v)) return undefined;
  const mode = oneOf(['clock', 'countdown'] as const)(v.mode);
  const stopAt = v.stopAt;
  if (!mode || typeof stopAt !== 'number' || !Number.isFinite(stopAt)) return undefined;
  return { mode, stopAt };
}

export interface MediaToken {
  token: string;
  expiresAt: number;
}

function parseMediaToken(v: unknown): MediaToken | null | undefined {
  if (v === null) return null;
  if (!isRecord(v) || typeof v.token !== 'string' || !v.token || typeof v.expiresAt !== 'number' || !Number.isFinite(v.expiresAt)) return undefined;
  return { token: v.token, expiresAt: v.expiresAt };
}

function parseFontSize(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  return n >= LYRIC_FONT_SIZE.min && n <= LYRIC_FONT_SIZE.max ? n : undefined;
}

function pref<T>(key: string, defaultValue: T, parse: (stored: unknown) => T | undefined, opts: { storage?: StorageKind; plain?: boolean } = {}): PrefDef<T> {
  return { key: `kikoplay.${key}`, storage: opts.storage ?? 'local', defaultValue, parse, plain: opts.plain };
}

const flag = (key: string, defaultValue: boolean) => pref(key, defaultValue, bool);

const unit = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 ? v : undefined);

function parsePlaybackRates(v: unknown): Record<string, number> | undefined {
  if (!isRecord(v)) return undefined;
  const out: Record<string, number> = {};
  for (const [user, rate] of Object.entries(v)) {
    if (typeof rate === 'number' && rate >= PLAYBACK_RATE.min && rate <= PLAYBACK_RATE.max) out[user] = rate;
  }
  return out;
}

function parseLyricBar(v: unknown): LyricBarPrefs | undefined {
  if (!isRecord(v) || typeof v.show !== 'boolean') return undefined;
  return { show: v.show, x: unit(v.x) ?? 0.5, y: unit(v.y) ?? 0.8 };
}

const stringList = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);

const PREFS = {
  // Player
  seekButtonSwap: flag('seekButtonSwap', false),
  visualizer: flag('visualizer', false),
  pipLyrics: flag('pipLyrics', false),
  /** Play a work's video file as the picture source of the player. */
  videoSource: flag('videoSource', false),
  hideSeekButton: flag('hideSeekButton', false),
  lyricFontSize: pref<number>('lyricFontSize', LYRIC_FONT_SIZE.default, parseFontSize),
  volume: pref<number>('volume', 1, unit),
  /** Playback speed per user name. */
  playbackRates: pref<Record<string, number>>('playbackRates', {}, parsePlaybackRates),
  lyricBar: pref<LyricBarPrefs>('lyricBar', { show: true, x: 0.5, y: 0.8 }, parseLyricBar),
  /** The player's queue, index, mode and second, restored after a reload (validated by the player). */
  playerSession: pref<Record<string, unknown> | null>('playerSession', null, (v) => (v === null ? null : isRecord(v) ? v : undefined)),
  /** One-time warnings already shown (Safari visualizer, iOS background play). */
  shownWarnings: pref<string[]>('shownWarnings', [], stringList),
  /** Image hash chosen as the visual cover of each work id. */
  visualCovers: pref<Record<string, string>>('visualCovers', {}, parseVisualCovers),
  // Looks
  oldCardUi: flag('oldCardUi', false),
  oldSleepTimerUi: flag('oldSleepTimerUi', false),
  darkMode: pref<DarkMode>('darkMode', 'auto', parseDarkMode),
  // Work list
  listMode: pref<ListMode>('listMode', 'waterfall', oneOf(LIST_MODES)),
  showRecent: flag('showRecent', true),
  sortField: pref<SortField>('sortField', 'release', oneOf(SORT_FIELDS)),
  sortDirection: pref<SortDirection>('sortDirection', 'desc', oneOf(SORT_DIRECTIONS)),
  ageRating: pref<AgeRating>('ageRating', 'nsfw_0', oneOf(AGE_RATINGS)),
  lyricOptions: pref<LyricOption[]>('lyricOptions', [], parseLyricOptions),
  showLabel: flag('showLabel', false),
  listView: flag('listView', false),
  showDetail: flag('showDetail', false),
  advancedKeywords: pref<SearchCondition[]>('advancedKeywords', [], parseConditions),
  favouritesSort: pref<FavouritesSort>('favouritesSort', 'updated_at', oneOf(FAVOURITES_SORTS)),
  // Session
  token: pref<string>('token', '', (v) => (typeof v === 'string' ? v : undefined), { plain: true }),
  /** The short-lived token of media and cover URLs (api/media-token.ts); expiresAt in epoch ms. */
  mediaToken: pref<MediaToken | null>('mediaToken', null, parseMediaToken),
  sleepTimer: pref<SleepTimer | null>('sleepTimer', null, parseSleepTimer, { storage: 'session' }),
} satisfies Record<string, PrefDef<unknown>>;

type Prefs = typeof PREFS;
export type PrefName = keyof Prefs;
export type PrefValue<K extends PrefName> = Prefs[K] extends PrefDef<infer T> ? T : never;

// ---- storage with an in-memory fallback -------------------------------------------------------

const memory: Record<StorageKind, Map<string, string>> = { local: new Map(), session: new Map() };

function backend(kind: StorageKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

function readRaw(kind: StorageKind, key: string): string | null {
  const store = backend(kind);
  try {
    if (store) return store.getItem(key);
  } catch {
    /* fall through to memory */
  }
  return memory[kind].get(key) ?? null;
}

function writeRaw(kind: StorageKind, key: string, raw: string | null): void {
  if (raw === null) memory[kind].delete(key);
  else memory[kind].set(key, raw);
  const store = backend(kind);
  try {
    if (raw === null) store?.removeItem(key);
    else store?.setItem(key, raw);
  } catch {
    /* quota or disabled storage: the memory copy keeps the session working */
  }
}

// ---- typed access -----------------------------------------------------------------------------

const cache = new Map<PrefName, { raw: string | null; value: unknown }>();
const listeners = new Map<PrefName, Set<() => void>>();

function decode<T>(def: PrefDef<T>, raw: string | null): T {
  if (raw === null) return def.defaultValue;
  let stored: unknown = raw;
  if (!def.plain) {
    try {
      stored = JSON.parse(raw);
    } catch {
      stored = raw; // a bare word such as `dark` written by hand or an older client
    }
  }
  const value = def.parse(stored);
  return value === undefined ? def.defaultValue : value;
}

/** The current value of a preference (validated; the default when unset or invalid). */
export function getPref<K extends PrefName>(name: K): PrefValue<K> {
  const def = PREFS[name] as PrefDef<PrefValue<K>>;
  const raw = readRaw(def.storage, def.key);
  const hit = cache.get(name);
  if (hit && hit.raw === raw) return hit.value as PrefValue<K>;
  const value = decode(def, raw);
  cache.set(name, { raw, value });
  return value;
}

function notify(name: PrefName): void {
  for (const fn of listeners.get(name) ?? []) fn();
}

/** Store a preference. A value the preference does not accept is a programming error. */
export function setPref<K extends PrefName>(name: K, value: PrefValue<K>): void {
  const def = PREFS[name] as PrefDef<PrefValue<K>>;
  const normalized = def.parse(value);
  if (normalized === undefined) throw new TypeError(`invalid value for preference ${name}: ${JSON.stringify(value)}`);
  const raw = def.plain ? String(normalized) : JSON.stringify(normalized);
  writeRaw(def.storage, def.key, raw);
  cache.set(name, { raw, value: normalized });
  notify(name);
}

/** Forget a stored preference; it reads as its default again. */
export function resetPref(name: PrefName): void {
  const def = PREFS[name];
  writeRaw(def.storage, def.key, null);
  cache.delete(name);
  notify(name);
}

export function subscribePref(name: PrefName, fn: () => void): () => void {
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

// Another tab changed local storage: tell this tab's subscribers.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    for (const name of Object.keys(PREFS) as PrefName[]) {
      if (event.key === null || event.key === PREFS[name].key) notify(name);
    }
  });
}

/** React binding: `[value, setValue]`, re-rendering when the preference changes anywhere. */
export function usePref<K extends PrefName>(name: K): [PrefValue<K>, (value: PrefValue<K>) => void] {
  const subscribe = useCallback((fn: () => void) => subscribePref(name, fn), [name]);
  const value = useSyncExternalStore(subscribe, () => getPref(name));
  const set = useCallback((next: PrefValue<K>) => setPref(name, next), [name]);
  return [value, set];
}
