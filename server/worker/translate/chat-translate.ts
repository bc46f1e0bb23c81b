import { glossaryFor, type GlossaryEntry } from './glossary.js';
import { networkError, StoppedError, TaskFailedError, TransientError } from '../errors.js';
import { apiUrl } from '../engines/api-url.js';

export interface TranslateOptions {
  apiBase: string;
  apiKey?: string;
  model: string;
  /** Target language, e.g. `zh` or `简体中文`. */
  to: string;
  glossary: GlossaryEntry[];
  /** Lines per request. */
  batchSize?: number;
}

const LANGUAGE_NAMES: Record<string, string> = {
  zh: 'Simplified Chinese',
  'zh-cn': 'Simplified Chinese',
  'zh-tw': 'Traditional Chinese',
  en: 'English',
  ja: 'Japanese',
  ko: 'Korean',
};

export function systemPrompt(to: string, glossary: readonly GlossaryEntry[]): string {
  const target = LANGUAGE_NAMES[to.toLowerCase()] ?? to;
  const parts = [
    `You translate subtitle lines of a Japanese audio drama into ${target}.`,
    'The user sends a JSON array of strings. Answer with a JSON array of exactly the same length, in the same order, each element the translation of the element at that position.',
    'Answer with the JSON array only: no comments, no code fences. Keep names consistent. Never merge or split lines.',
  ];
  if (glossary.length) {
    parts.push('Always translate these terms exactly as given (term => translation):');
    for (const g of glossary) parts.push(`${g.term} => ${g.translation}`);
  }
  return parts.join('\n');
}

/** The JSON array of strings in a model answer (code fences and chatter around it tolerated). */
export function parseTranslationArray(content: string, expected: number): string[] | null {
  const from = content.indexOf('[');
  const to = content.lastIndexOf(']');
  if (from < 0 || to <= from) return null;
  try {
    const parsed: unknown = JSON.parse(content.slice(from, to + 1));
    if (!Array.isArray(parsed) || parsed.length !== expected) return null;
    return parsed.map((x) => (typeof x === 'string' ? x : String(x ?? '')));
  } catch {
    return null;
  }
}

interface ChatAnswer {
  choices?: { message?: { content?: string | null } }[];
  error?: { message?: string };
}

async function chat(opts: TranslateOptions, lines: string[], signal: AbortSignal): Promise<string> {
  const body = {
    model: opts.model,
    temperature: 0.2,
    messages: [
      { role: 'system', content: systemPrompt(opts.to, glossaryFor(opts.glossary, lines)) },
      { role: 'user', content: JSON.stringify(lines) },
    ],
  };
  let res: Response;
  try {
    res = await fetch(apiUrl(opts.apiBase, 'chat/completions'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(opts.apiKey ? { Authorization: `Bearer ${opts.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    throw networkError(err, 'translation service unreachable');
  }
  const text = await res.text().catch(() => '');
  let answer: ChatAnswer = {};
  try {
    answer = JSON.parse(text) as ChatAnswer;
  } catch {
    /* reported below */
  }
  if (!res.ok) {
    const msg = `translation service answered ${res.status}: ${answer.error?.message ?? text.slice(0, 200)}`;
    if (res.status === 408 || res.status === 429 || res.status >= 500) throw new TransientError(msg);
    throw new TaskFailedError(msg);
  }
  const content = answer.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new TaskFailedError('translation service answered without a message');
  return content;
}

/**
 * Translate lines through an OpenAI-compatible `/v1/chat/completions`, in batches. A batch whose answer
 * is not a JSON array of the right length is asked once more, then translated line by line.
 * `retry` wraps each request (backoff on transient errors).
 */
export async function translateLines(
  lines: readonly string[],
  opts: TranslateOptions,
  signal: AbortSignal,
  retry: <T>(what: string, fn: () => Promise<T>) => Promise<T>,
  onBatch: (done: number, total: number) => Promise<void>,
): Promise<string[]> {
  const size = opts.batchSize ?? 40;
  const out: string[] = [];
  const batches = Math.ceil(lines.length / size);
  for (let b = 0; b < batches; b++) {
    if (signal.aborted) throw new StoppedError();
    await onBatch(b, batches);
    const batch = lines.slice(b * size, (b + 1) * size);
    let result: string[] | null = null;
    for (let attempt = 0; attempt < 2 && !result; attempt++) {
      result = parseTranslationArray(await retry('translate', () => chat(opts, batch, signal)), batch.length);
    }
    if (!result) {
      result = [];
      for (const line of batch) result.push(parseTranslationArray(await retry('translate', () => chat(opts, [line], signal)), 1)?.[0] ?? '');
    }
    out.push(...result);
  }
  return out;
}
