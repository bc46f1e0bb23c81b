/**
 * The terminal's catalogues and the language of this run. `main` sets the language once (cli/i18n/lang.ts
 * decides it); commands, printers and the Ink views read `cliText()`.
 */
import { scanLineText } from '../../server/contract/scan-text/index.js';
import type { ScanEvent, ScanParam } from '../../server/contract/scan-events.js';
import { ConfigFileError, type ConfigProblem } from '../../server/config/load.js';
import { errorSentence } from '../../server/contract/error-text/index.js';
import type { ApiErrorCode, ErrorParams } from '../../server/domain/error-codes.js';
import { isAppError } from '../../server/domain/errors.js';
import { DataDirError } from '../../server/config/private-files.js';
import { DatabaseTooNewError } from '../../server/db/migration-level.js';
import { DatabaseDamagedError } from '../../server/db/open-errors.js';
import { DirectoryError } from '../../server/config/ensure-dir.js';
import { en, type CliCatalog } from './en.js';
import { ja } from './ja.js';
import { zhCN } from './zh-CN.js';
import type { CliLang } from './lang.js';

export type { CliCatalog } from './en.js';
export type { CliLang } from './lang.js';

export const CATALOGS: Record<CliLang, CliCatalog> = { en, ja, 'zh-CN': zhCN };

let current: CliLang = 'en';

export function setCliLang(lang: CliLang): void {
  current = lang;
}

export function cliLang(): CliLang {
  return current;
}

export function cliText(lang: CliLang = current): CliCatalog {
  return CATALOGS[lang];
}

/** A scan line in the run's language from its key and parameters; its own text when it has no key we know. */
export function scanLine(line: { message: string; key?: string; params?: ScanParam[] }, t: CliCatalog = cliText()): string {
  return scanLineText(line, t.scan.messages);
}

/** The event with its texts in the run's language (for the plain printer and the Ink view; never --json). */
export function localizeScanEvent(e: ScanEvent, t: CliCatalog = cliText()): ScanEvent {
  switch (e.type) {
    case 'main-log':
    case 'task-log':
    case 'finished':
    case 'error':
      return { ...e, message: scanLine(e, t) };
    case 'task-failed':
      return { ...e, error: scanLine({ message: e.error, key: e.key, params: e.params }, t) };
    default:
      return e;
  }
}

/**
 * An error in the run's language. An AppError is said by its `code` (with `field` and `params`) from
 * the API error catalogue the web app uses too (server/contract/error-text); in Chinese that is the
 * server's own text. A refused config.json or environment is said by its problem's key. Any other
 * error keeps its message.
 */
export function errorText(err: unknown, t: CliCatalog = cliText()): string {
  if (err instanceof ConfigFileError) return configProblemText(err.problem, t);
  if (isAppError(err)) return errorSentence(err, err.message, t.lang);
  return err instanceof Error ? err.message : String(err);
}

/** A refusal at start (data dir or a folder not usable, database damaged or of a newer kikoplay) in words; null for other errors. */
export function startupErrorText(err: unknown, t: CliCatalog = cliText()): string | null {
  if (err instanceof DataDirError) return t.startup.dataDirUnusable(err.path, err.code);
  if (err instanceof DatabaseTooNewError) return t.startup.databaseTooNew(err.file, err.unknown.map((m) => `${m.id}-${m.name}`).join(', '));
  if (err instanceof DatabaseDamagedError) return t.startup.databaseDamaged(err.file);
  if (err instanceof DirectoryError) return t.startup.folderUnusable(err.dir, err.code);
  return null;
}

/** The catalogue sentence of an API error code (the terminal's own checks that mirror a service's rule). */
export function codeSentence(code: ApiErrorCode, params: ErrorParams = {}, t: CliCatalog = cliText()): string {
  // the code as the fallback text: it holds no Chinese, so zh-CN takes its catalogue sentence too
  return errorSentence({ code, params }, code, t.lang);
}

function configProblemText(p: ConfigProblem, t: CliCatalog): string {
  const c = t.configFile;
  switch (p.key) {
    case 'notJson':
      return c.notJson(p.file, p.reason);
    case 'notObject':
      return c.notObject(p.file);
    case 'unreadable':
      return c.unreadable(p.file, p.code);
    case 'unwritable':
      return c.unwritable(p.file, p.code);
    case 'pathSetting':
      return c.pathSetting(p.setting, p.path, p.rule);
    case 'invalidIn':
      return c.configInvalidIn(p.file, p.reason);
    case 'envInvalid':
      return c.envInvalid(p.reason);
    case 'invalid':
      return c.configInvalid(p.reason);
    case 'refused':
      // the schema's and the folder checks' own words: the terminal adds "config.json unchanged"
      return p.reason;
  }
}
