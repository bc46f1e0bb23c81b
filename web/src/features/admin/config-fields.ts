/**
 * The advanced settings form: every config key the server knows, grouped,
 * with the input kind and the limits of the server's schema (server/config/schema.ts) so most
 * mistakes are caught before saving. The server still validates and names the key it refuses.
 */
import { t } from '../../i18n/index.js';

export type FieldKind =
  | { type: 'boolean' }
  | { type: 'int'; min: number; max: number }
  | { type: 'text' }
  | { type: 'url' }
  /** A list of strings, typed comma-separated. */
  | { type: 'list' }
  | { type: 'select'; options: string[] };

export interface ConfigField {
  key: string;
  kind: FieldKind;
  /** Shown, never sent (production). */
  readOnly?: boolean;
  /** Disabled while another boolean key has this value (e.g. coverFolderDir while coverUseDefaultPath). */
  disabledWhen?: { key: string; equals: boolean };
}

export interface ConfigGroup {
  id: keyof typeof t.dashboard.advanced.groups;
  fields: ConfigField[];
}

const bool = (key: string, extra: Partial<ConfigField> = {}): ConfigField => ({ key, kind: { type: 'boolean' }, ...extra });
const int = (key: string, min: number, max: number): ConfigField => ({ key, kind: { type: 'int', min, max } });
const text = (key: string, extra: Partial<ConfigField> = {}): ConfigField => ({ key, kind: { type: 'text' }, ...extra });
const url = (key: string): ConfigField => ({ key, kind: { type: 'url' } });
const list = (key: string): ConfigField => ({ key, kind: { type: 'list' } });

export const CONFIG_GROUPS: ConfigGroup[] = [
  {
    id: 'paths',
    fields: [
      bool('coverUseDefaultPath'),
      text('coverFolderDir', { disabledWhen: { key: 'coverUseDefaultPath', equals: true } }),
      text('voiceWorkDefaultPath'),
      bool('dbUseDefaultPath'),
      text('databaseFolderDir', { disabledWhen: { key: 'dbUseDefaultPath', equals: true } }),
    ],
  },
  { id: 'playback', fields: [int('rewindSeekTime', 1, 600), int('forwardSeekTime', 1, 600)] },
  { id: 'language', fields: [{ key: 'tagLanguage', kind: { type: 'select', options: ['zh-cn', 'zh-tw', 'ja-jp'] } }] },
  {
    id: 'scraping',
    fields: [
      int('dlsiteTimeout', 1, 600_000),
      int('hvdbTimeout', 1, 600_000),
      int('retryDelay', 0, 600_000),
      int('retry', 0, 20),
      int('maxParallelism', 1, 64),
      url('dlsiteBaseUrl'),
      url('dlsiteImageBaseUrl'),
      url('hvdbBaseUrl'),
      url('asmrOneBaseUrl'),
    ],
  },
  { id: 'proxy', fields: [text('httpProxyHost'), int('httpProxyPort', 0, 65535)] },
  { id: 'scanning', fields: [int('scannerMaxRecursionDepth', 1, 32), bool('skipCleanup'), text('scanCron')] },
  {
    id: 'server',
    fields: [
      bool('production', { readOnly: true }),
      bool('auth'),
      bool('enableGzip'),
      int('listenPort', 1, 65535),
      bool('blockRemoteConnection'),
      bool('behindProxy'),
      { ...int('trustedProxyHops', 1, 16), disabledWhen: { key: 'behindProxy', equals: false } },
      list('publicHosts'),
      list('allowedOrigins'),
      int('expiresIn', 60, 10 * 365 * 86400),
      int('pageSize', 1, 100),
      int('dbBusyTimeout', 100, 120_000),
    ],
  },
  { id: 'media', fields: [bool('offloadMedia'), text('offloadStreamPath'), text('offloadDownloadPath')] },
  { id: 'ai', fields: [int('aiTaskLeaseMinutes', 1, 24 * 60)] },
  { id: 'updates', fields: [bool('checkUpdate'), bool('checkBetaUpdate')] },
];

export const FIELD_BY_KEY = new Map(CONFIG_GROUPS.flatMap((g) => g.fields).map((f) => [f.key, f]));

/** What a form input holds: booleans as booleans, everything else as the text typed. */
export type DraftValue = boolean | string;

export function toDraft(value: unknown, field: ConfigField): DraftValue {
  if (field.kind.type === 'boolean') return value === true;
  if (field.kind.type === 'list') return Array.isArray(value) ? value.map(String).join(', ') : '';
  return value === undefined || value === null ? '' : String(value);
}

/** The value to send for a draft, or an error message for the field. */
export function fromDraft(draft: DraftValue, field: ConfigField): { value: unknown } | { error: string } {
  const a = t.dashboard.advanced;
  switch (field.kind.type) {
    case 'boolean':
      return { value: draft === true };
    case 'int': {
      const text = String(draft).trim();
      if (!text) return { error: a.required };
      if (!/^-?\d+$/.test(text)) return { error: a.integer };
      const n = Number(text);
      if (n < field.kind.min || n > field.kind.max) return { error: a.range(field.kind.min, field.kind.max) };
      return { value: n };
    }
    case 'url': {
      const text = String(draft).trim();
      if (!/^https?:\/\/[^\s/]+/i.test(text)) return { error: a.url };
      return { value: text };
    }
    case 'select': {
      const text = String(draft);
      return field.kind.options.includes(text) ? { value: text } : { error: a.required };
    }
    case 'text':
      return { value: String(draft).trim() };
    case 'list':
      return {
        value: String(draft)
          .split(/[\s,]+/)
          .filter(Boolean),
      };
  }
}

/**
 * The keys a 400 from PUT /api/config/admin names, with their messages: its `errors[]` (`param` the key's
 * path, e.g. `pageSize` or `rootFolders.0.path`; `msg` already in the interface language, from the
 * entry's code by ApiError.fieldErrors) → { pageSize: '不能大于 100' }. The first message of a key wins.
 */
export function serverFieldErrors(fieldErrors: readonly { msg: string; param?: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { msg, param } of fieldErrors) {
    const key = param?.split('.')[0];
    if (key && FIELD_BY_KEY.has(key) && !(key in out)) out[key] = msg;
  }
  return out;
}
