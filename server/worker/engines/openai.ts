import { openAsBlob } from 'node:fs';
import path from 'node:path';
import mime from 'mime-types';
import type { TimedText } from '../lrc.js';
import { FatalWorkerError, networkError, TaskFailedError, TransientError } from '../errors.js';
import { apiUrl } from './api-url.js';
import { WORKER_TEXT, type WorkerText } from '../messages.js';
import type { TranscriptionEngine } from './types.js';

export interface OpenAiEngineOptions {
  apiBase: string;
  apiKey?: string;
  model: string;
  /** ISO-639-1 language of the speech (`ja`); omitted = the service detects it. */
  language?: string;
  /** What the worker says (English by default). */
  text?: WorkerText;
}

interface VerboseJson {
  text?: string;
  duration?: number;
  segments?: { start?: number; end?: number; text?: string }[];
  error?: { message?: string } | string;
}

/** Timed lines of a verbose_json answer; a plain `text` answer becomes one line at 0. */
export function segmentsOf(answer: VerboseJson): TimedText[] {
  if (Array.isArray(answer.segments)) {
    return answer.segments
      .filter((s) => typeof s.start === 'number' && Number.isFinite(s.start) && typeof s.text === 'string')
      .map((s) => ({ start: Math.max(0, s.start!), end: typeof s.end === 'number' && Number.isFinite(s.end) ? s.end : s.start!, text: s.text! }));
  }
  if (typeof answer.text === 'string' && answer.text.trim()) return [{ start: 0, end: answer.duration ?? 0, text: answer.text }];
  return [];
}

/**
 * Any OpenAI-compatible `/v1/audio/transcriptions` (OpenAI, whisper.cpp server, faster-whisper servers,
 * LocalAI): multipart upload with `response_format=verbose_json` and `timestamp_granularities[]=segment`.
 */
export class OpenAiEngine implements TranscriptionEngine {
  readonly name = 'openai';

  constructor(private readonly opts: OpenAiEngineOptions) {}

  async transcribe(file: string, call: { prompt?: string }, signal: AbortSignal): Promise<TimedText[]> {
    const form = new FormData();
    const type = mime.lookup(file) || 'application/octet-stream';
    form.append('file', await openAsBlob(file, { type }), path.basename(file));
    form.append('model', this.opts.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'segment');
    if (this.opts.language) form.append('language', this.opts.language);
    if (call.prompt) form.append('prompt', call.prompt);

    let res: Response;
    try {
      res = await fetch(apiUrl(this.opts.apiBase, 'audio/transcriptions'), {
        method: 'POST',
        headers: this.opts.apiKey ? { Authorization: `Bearer ${this.opts.apiKey}` } : {},
        body: form,
        signal,
      });
    } catch (err) {
      throw networkError(err, 'transcription service unreachable');
    }
    const text = await res.text().catch(() => '');
    let answer: VerboseJson | undefined;
    try {
      answer = JSON.parse(text) as VerboseJson;
    } catch {
      answer = undefined;
    }
    if (!res.ok) {
      const detail = typeof answer?.error === 'string' ? answer.error : (answer?.error?.message ?? text.slice(0, 300));
      const msg = `transcription service answered ${res.status}: ${detail}`;
      if (res.status === 401 || res.status === 403) throw new FatalWorkerError((this.opts.text ?? WORKER_TEXT).apiKeyRefused(res.status, detail));
      if (res.status === 408 || res.status === 429 || res.status >= 500) throw new TransientError(msg);
      if (res.status === 413) throw new TaskFailedError(`${msg} (lower --max-upload-mb so chunks fit)`);
      throw new TaskFailedError(msg);
    }
    if (!answer) {
      // a service that ignored response_format and sent plain text
      return text.trim() ? [{ start: 0, end: 0, text }] : [];
    }
    return segmentsOf(answer);
  }
}
