import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseGlossary, type GlossaryEntry } from './translate/glossary.js';

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

function httpUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new WorkerOptionsError(`${flag} must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WorkerOptionsError(`${flag} must be an http(s) URL, got "${value}"`);
  return url.toString().replace(/\/+$/, '');
}

function number(value: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new WorkerOptionsError(`${flag} must be a number from ${min} to ${max}, got "${value}"`);
  return n;
}

const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v : undefined);

/** Validate the flags; secrets may come from the environment so they stay out of `ps`. */
export function parseWorkerOptions(flags: RawWorkerFlags, env: NodeJS.ProcessEnv = process.env): WorkerOptions {
  if (!flags.server) throw new WorkerOptionsError('--server URL is required (the kikoplay server, e.g. http://192.168.1.10:8888)');
  const server = httpUrl(flags.server, '--server');
  const token = nonEmpty(flags.token) ?? nonEmpty(env.KIKOPLAY_WORKER_TOKEN);
  const user = nonEmpty(flags.user);
  const password = flags.password ?? env.KIKOPLAY_WORKER_PASSWORD;
  if (token && user) throw new WorkerOptionsError('give either --token or --user/--password, not both');
  if (user && password === undefined) throw new WorkerOptionsError('--user needs --password (or env KIKOPLAY_WORKER_PASSWORD)');
  if (!user && flags.password !== undefined) throw new WorkerOptionsError('--password needs --user');

  const engine = flags.engine ?? 'openai';
  if (engine !== 'openai') throw new WorkerOptionsError(`unknown --engine "${engine}" (available: openai)`);

  const name = (flags.name ?? os.hostname()).trim();
  if (!name || name.length > 100) throw new WorkerOptionsError('--name must be 1–100 characters');

  const apiBase = httpUrl(flags.apiBase ?? env.OPENAI_BASE_URL ?? DEFAULT_API_BASE, '--api-base');
  const apiKey = nonEmpty(flags.apiKey) ?? nonEmpty(env.OPENAI_API_KEY);

  let translate: WorkerOptions['translate'];
  if (flags.translateTo !== undefined) {
    if (!nonEmpty(flags.translateTo)) throw new WorkerOptionsError('--translate-to needs a language (e.g. zh)');
    if (!nonEmpty(flags.translateModel)) throw new WorkerOptionsError('--translate-to needs --translate-model (the chat model, e.g. gpt-4o-mini)');
    let glossary: GlossaryEntry[] = [];
    if (flags.glossary) {
      let text: string;
      try {
        text = readFileSync(flags.glossary, 'utf8');
      } catch (err) {
        throw new WorkerOptionsError(`cannot read --glossary ${flags.glossary}: ${(err as Error).message}`);
      }
      try {
        glossary = parseGlossary(text);
      } catch (err) {
        throw new WorkerOptionsError(`--glossary ${flags.glossary}: ${(err as Error).message}`);
      }
    }
    translate = {
      apiBase: flags.translateApiBase ? httpUrl(flags.translateApiBase, '--translate-api-base') : apiBase,
      apiKey: nonEmpty(flags.translateApiKey) ?? apiKey,
      model: flags.translateModel!.trim(),
      to: flags.translateTo.trim(),
      glossary,
    };
  } else if (flags.translateModel || flags.translateApiBase || flags.glossary || flags.translateApiKey) {
    throw new WorkerOptionsError('--translate-model, --translate-api-base, --translate-api-key and --glossary need --translate-to');
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
    pollSeconds: number(flags.poll, '--poll', 5, 0.1, 3600),
    once: Boolean(flags.once),
    maxUploadBytes: Math.floor(number(flags.maxUploadMb, '--max-upload-mb', 24, 0.01, 100_000) * 1024 * 1024),
    maxChunkSeconds: number(flags.maxChunkMinutes, '--max-chunk-minutes', 20, 0.2, 24 * 60) * 60,
    alwaysWav: Boolean(flags.wav),
    heartbeatSeconds: number(flags.heartbeat, '--heartbeat', 30, 0.05, 3600),
    backoffMs: 1000,
    engineAttempts: 6,
  };
}
