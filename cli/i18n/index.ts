/**
 * The terminal's catalogues and the language of this run. `main` sets the language once (cli/i18n/lang.ts
 * decides it); commands, printers and the Ink views read `cliText()`.
 */
import type { ScanEvent, ScanParam } from '../../server/contract/scan-events.js';
import { MSG as USER_MSG } from '../../server/services/users-service.js';
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
  if (!line.key || !Object.hasOwn(t.scan.messages, line.key)) return line.message;
  const entry: unknown = t.scan.messages[line.key as keyof CliCatalog['scan']['messages']];
  if (typeof entry === 'string') return entry;
  try {
    return (entry as (...args: unknown[]) => string)(...(line.params ?? []));
  } catch {
    return line.message;
  }
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
 * An error text of the services (Chinese: the API and the web show it) in the run's language. The
 * common ones are recognised by the message constants the services export (users-service `MSG`) or by
 * their fixed form; any other text is printed as it is.
 */
export function localizeServiceError(text: string, t: CliCatalog = cliText()): string {
  const s = t.service;
  const exact: Record<string, string> = {
    [USER_MSG.nameTooShort]: s.nameTooShort,
    [USER_MSG.passwordTooShort]: s.passwordTooShort,
    [USER_MSG.nameTaken]: s.nameTaken,
    [USER_MSG.badGroup]: s.badGroup,
    '不能取消最后一个管理员的管理员身份.': s.lastAdminRole,
    '不能删除最后一个管理员账号.': s.lastAdminDelete,
  };
  if (Object.hasOwn(exact, text)) return exact[text];
  let m: RegExpExecArray | null;
  if ((m = /^用户名不能超过 (\d+) 个字符，且不能包含控制字符或斜杠$/.exec(text))) return s.nameInvalid(Number(m[1]));
  if ((m = /^密码长度不能超过 (\d+)$/.exec(text))) return s.passwordTooLong(Number(m[1]));
  if ((m = /^角色必须为 (.+) 之一\.$/.exec(text))) return s.roleInvalid(m[1]);
  if ((m = /^用户 (.+) 不存在\.$/.exec(text))) return s.userNotFound(m[1]);
  if ((m = /^另一个扫描任务正在进行中 \(pid (\d+), (\w+), 开始于 (.*)\)$/.exec(text))) return s.scanBusyStarted(m[1], m[2], m[3]);
  if ((m = /^另一个扫描任务正在进行中 \((.*)\)$/.exec(text))) return s.scanBusy(m[1]);
  // config.json and KIKOPLAY_* refused (server/config/load.ts); the reason inside names the key
  if ((m = /^invalid config in (.+?): ([\s\S]*)$/.exec(text))) return s.configInvalidIn(m[1], m[2]);
  if ((m = /^invalid config: ([\s\S]*)$/.exec(text))) return s.configInvalid(m[1]);
  if ((m = /^invalid environment override: ([\s\S]*)$/.exec(text))) return s.envInvalid(m[1]);
  if ((m = /^(.+) is not valid JSON: ([\s\S]*)$/.exec(text))) return s.notJson(m[1], m[2]);
  if ((m = /^(.+) must hold a JSON object$/.exec(text))) return s.notObject(m[1]);
  return text;
}
