import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseGlossary, type GlossaryEntry } from './translate/glossary.js';
import { WORKER_TEXT, type WorkerText } from './messages.js';

/** Everything `kikoplay worker` needs, validated. */
export interface WorkerOptions {
  /** Server base URL without a trailing slash. */
  server: string;
  token?: string;
  user?: string;
  password?: string;
  /** Shown in the AI centre as worker_name. */
  name: string;
  engine: 'openai';
  apiBase: string;
  apiKey?: string;
  model: string;
  language?: string;
  prompt?: string;
  translate?: {
    apiBase: string;
    apiKey?: string;
    model: string;
    to: string;
    glossary: GlossaryEntry[];
  };
  stateDir: string;
  pollSeconds: number;
  once: boolean;
  maxUploadBytes: number;
  maxChunkSeconds: number;
  alwaysWav: boolean;
  heartbeatSeconds: number;
  /** First retry delay after a network error (doubles up to a minute). */
  backoffMs: number;
  /** Attempts per transcription/translation request before the task is failed. */
  engineAttempts: number;
}

/** The flags as commander hands them over (strings), plus the environment. */
export interface RawWorkerFlags {
  server?: string;
  token?: string;
  user?: string;
  password?: string;
  name?: string;
  engine?: string;
  apiBase?: string;
  apiKey?: string;
  model?: string;
  language?: string;
  prompt?: string;
  translateApiBase?: string;
  translateApiKey?: string;
  translateModel?: string;
  translateTo?: string;
  glossary?: string;
  stateDir?: string;
  poll?: string;
  once?: boolean;
  maxUploadMb?: string;
  maxChunkMinutes?: string;
  wav?: boolean;
  heartbeat?: string;
}

export class WorkerOptionsError extends Error {}

const DEFAULT_API_BASE = 'https://api.openai.com';

function httpUrl(value: string, flag: string, say: WorkerText): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WorkerOptionsError(say.notHttpUrl(flag, value));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WorkerOptionsError(say.notHttpUrl(flag, value));
  return url.toString().replace(/\/+$/, '');
}

function number(value: string | undefined, flag: string, fallback: number, min: number, max: number, say: WorkerText): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new WorkerOptionsError(say.notNumber(flag, min, max, value));
  return n;
}

const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v : undefined);

/**
 * Validate the flags; secrets may come from the environment so they stay out of `ps`. A refusal is a
 * WorkerOptionsError said in `say` (the terminal's language; English by default).
 */
export function parseWorkerOptions(flags: RawWorkerFlags, env: NodeJS.ProcessEnv = process.env, say: WorkerText = WORKER_TEXT): WorkerOptions {
  if (!flags.server) throw new WorkerOptionsError(say.serverRequired);
  const server = httpUrl(flags.server, '--server', say);
  const token = nonEmpty(flags.token) ?? nonEmpty(env.KIKOPLAY_WORKER_TOKEN);
  const user = nonEmpty(flags.user);
  const password = flags.password ?? env.KIKOPLAY_WORKER_PASSWORD;
  if (token && user) throw new WorkerOptionsError(say.tokenOrUser);
  if (user && password === undefined) throw new WorkerOptionsError(say.userNeedsPassword);
  if (!user && flags.password !== undefined) throw new WorkerOptionsError(say.passwordNeedsUser);

  const engine = flags.engine ?? 'openai';
  if (engine !== 'openai') throw new WorkerOptionsError(say.unknownEngine(engine));

  const name = (flags.name ?? os.hostname()).trim();
  if (!name || name.length > 100) throw new WorkerOptionsError(say.badName);

  const apiBase = httpUrl(flags.apiBase ?? env.OPENAI_BASE_URL ?? DEFAULT_API_BASE, '--api-base', say);
  const apiKey = nonEmpty(flags.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);

  let translate: WorkerOptions['translate'];
  if (flags.translateTo !== undefined) {
    if (!nonEmpty(flags.translateTo)) throw new WorkerOptionsError(say.translateToEmpty);
    if (!nonEmpty(flags.translateModel)) throw new WorkerOptionsError(say.translateNeedsModel);
    let glossary: GlossaryEntry[] = [];
    if (flags.glossary) {
      let text: string;
      try {
        text = readFileSync(flags.glossary, 'utf8');
      } catch (err) {
        throw new WorkerOptionsError(say.glossaryUnreadable(flags.glossary, (err as Error).message));
      }
      try {
        glossary = parseGlossary(text);
      } catch (err) {
        throw new WorkerOptionsError(say.glossaryInvalid(flags.glossary, (err as Error).message));
      }
    }
    translate = {
      apiBase: flags.translateApiBase ? httpUrl(flags.translateApiBase, '--translate-api-base', say) : apiBase,
      apiKey: nonEmpty(flags.translateApiKey) ?? apiKey,
      model: flags.translateModel!.trim(),
      to: flags.translateTo.trim(),
      glossary,
    };
  } else if (flags.translateModel || flags.translateApiBase || flags.glossary || flags.translateApiKey) {
    throw new WorkerOptionsError(say.translateOptionsNeedTo);
  }

  return {
    server,
    token,
    user,
    password: user ? password : undefined,
    name,
    engine: 'openai',
    apiBase,
    apiKey,
    model: nonEmpty(flags.model) ?? 'whisper-1',
    language: flags.language === '' ? undefined : (flags.language ?? 'ja'),
    prompt: nonEmpty(flags.prompt),
    translate,
    stateDir: path.resolve(flags.stateDir ?? path.join(os.homedir(), '.kikoplay-worker')),
    pollSeconds: number(flags.poll, '--poll', 5, 0.1, 3600, say),
    once: Boolean(flags.once),
    maxUploadBytes: Math.floor(number(flags.maxUploadMb, '--max-upload-mb', 24, 0.01, 100_000, say) * 1024 * 1024),
    maxChunkSeconds: number(flags.maxChunkMinutes, '--max-chunk-minutes', 20, 0.2, 24 * 60, say) * 60,
    alwaysWav: Boolean(flags.wav),
    heartbeatSeconds: number(flags.heartbeat, '--heartbeat', 30, 0.05, 3600, say),
    backoffMs: 1000,
    engineAttempts: 6,
  };
}
