/**
 * The language of one run of the terminal: `--lang`, then KIKOPLAY_LANG, then the locale variables
 * (LC_ALL, LC_MESSAGES, LANG — the first one set decides, as for any POSIX program); English when none
 * names a language we speak (C and POSIX included).
 */
export const CLI_LANGS = ['en', 'ja', 'zh-CN'] as const;
export type CliLang = (typeof CLI_LANGS)[number];

/** A language tag or locale name (`ja`, `ja_JP.UTF-8`, `zh-TW`, `en_US`) → our language, or null. */
export function matchLang(value: string | undefined): CliLang | null {
  if (!value) return null;
  const tag = value.trim().split(/[.@]/)[0].replace(/_/g, '-').toLowerCase();
  const primary = tag.split('-')[0];
  if (primary === 'en') return 'en';
  if (primary === 'ja') return 'ja';
  if (primary === 'zh') return 'zh-CN';
  return null;
}

/** A language we do not speak, asked for by `--lang` or by KIKOPLAY_LANG (`from`). */
export class UnknownLangError extends Error {
  constructor(
    readonly value: string,
    readonly from: '--lang' | 'KIKOPLAY_LANG' = '--lang',
  ) {
    super(`unknown language "${value}" for ${from} (use ${CLI_LANGS.join(', ')})`);
  }
}

/** The value of `--lang` in an argv (`--lang ja` or `--lang=ja`), undefined when absent. */
export function langArg(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') break;
    if (a === '--lang') found = argv[++i] ?? '';
    else if (a.startsWith('--lang=')) found = a.slice('--lang='.length);
  }
  return found;
}

/** The language without `--lang`: KIKOPLAY_LANG, then the locale variables, then English. */
export function envLang(env: NodeJS.ProcessEnv): CliLang {
  const own = matchLang(env.KIKOPLAY_LANG);
  if (own) return own;
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '');
  return matchLang(locale) ?? 'en';
}

/**
 * The language of a run; an unknown `--lang` value throws UnknownLangError, and so does an unknown
 * KIKOPLAY_LANG when there is no `--lang` (it stands for the flag; the locale variables are the system's and
 * may name any language).
 */
export function resolveLang(argv: readonly string[], env: NodeJS.ProcessEnv): CliLang {
  const arg = langArg(argv);
  if (arg === undefined) {
    const own = env.KIKOPLAY_LANG?.trim();
    if (own && !matchLang(own)) throw new UnknownLangError(own, 'KIKOPLAY_LANG');
    return envLang(env);
  }
  const exact = CLI_LANGS.find((l) => l.toLowerCase() === arg.trim().toLowerCase());
  const lang = exact ?? matchLang(arg);
  if (!lang) throw new UnknownLangError(arg);
  return lang;
}
