import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request to /v1/audio/transcriptions as the fake saw it. */
export interface TranscriptionCall {
  fields: Record<string, string>;
  fileName: string;
  fileType: string;
  fileBytes: number;
  authorization: string | undefined;
  /** What the fake answered with (status, and segments when 200). */
  status: number;
  segments: FakeSegment[];
}

export interface ChatCall {
  model: string;
  system: string;
  lines: string[];
  authorization: string | undefined;
}

export interface FakeSegment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number;
  avg_logprob: number;
  compression_ratio: number;
  no_speech_prob: number;
}

export interface FakeOpenAi {
  url: string;
  transcriptions: TranscriptionCall[];
  chats: ChatCall[];
  /** Hold transcription requests (they wait unanswered) until {@link release}. */
  hold(): void;
  release(): void;
  /** Resolves once `n` transcription requests have arrived (answered or held). */
  waitForTranscriptions(n: number): Promise<void>;
  /** Answer the next `n` transcription requests with this status and an OpenAI-style error. */
  failNext(n: number, status: number, message?: string): void;
  close(): Promise<void>;
}

/** What a non-WAV upload is transcribed as: a fixed script spread over its (assumed) length. */
export const FIXED_SCRIPT = ['お兄ちゃん、おかえりなさい', '今日もお疲れさまでした'];

/** The line the fake "hears" for an utterance of this length: lengths identify utterances in tests. */
export const utteranceText = (seconds: number) => `${seconds.toFixed(1)}秒のセリフ`;

/** Non-silent stretches of a PCM WAV (8-bit unsigned or 16-bit signed), in seconds. */
export function voicedRegions(wav: Buffer): { start: number; end: number }[] | null {
  if (wav.length < 44 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') return null;
  let pos = 12;
  let channels = 1;
  let rate = 16000;
  let bits = 16;
  while (pos + 8 <= wav.length) {
    const id = wav.toString('ascii', pos, pos + 4);
    const size = wav.readUInt32LE(pos + 4);
    if (id === 'fmt ') {
      channels = wav.readUInt16LE(pos + 10);
      rate = wav.readUInt32LE(pos + 12);
      bits = wav.readUInt16LE(pos + 22);
    }
    if (id === 'data') {
      const data = wav.subarray(pos + 8, Math.min(wav.length, pos + 8 + size));
      const bytes = bits / 8;
      const frame = Math.round(rate / 50);
      const n = Math.floor(data.length / (bytes * channels));
      const voiced: boolean[] = [];
      for (let f = 0; f * frame < n; f++) {
        let sum = 0;
        const end = Math.min(n, (f + 1) * frame);
        for (let i = f * frame; i < end; i++) {
          const at = i * bytes * channels;
          const s = bits === 8 ? (data[at] - 128) / 128 : data.readInt16LE(at) / 32768;
          sum += s * s;
        }
        voiced.push(sum / (end - f * frame) > 0.001);
      }
      const regions: { start: number; end: number }[] = [];
      let from = -1;
      voiced.forEach((v, f) => {
        if (v && from < 0) from = f;
        if (!v && from >= 0) {
          regions.push({ start: (from * frame) / rate, end: (f * frame) / rate });
          from = -1;
        }
      });
      if (from >= 0) regions.push({ start: (from * frame) / rate, end: n / rate });
      return regions;
    }
    pos += 8 + size + (size % 2);
  }
  return null;
}

function segment(id: number, start: number, end: number, text: string): FakeSegment {
  return {
    id,
    seek: 0,
    start: Math.round(start * 100) / 100,
    end: Math.round(end * 100) / 100,
    text: ` ${text}`,
    tokens: [50364, 2415, 3203, 50464],
    temperature: 0,
    avg_logprob: -0.28,
    compression_ratio: 1.1,
    no_speech_prob: 0.02,
  };
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/**
 * A loopback OpenAI-compatible service: `/v1/audio/transcriptions` answers verbose_json with one
 * segment per voiced stretch of an uploaded WAV (text names the stretch's length), or a fixed
 * two-line script for other formats; `/v1/chat/completions` "translates" a JSON array of lines by
 * prefixing `译：` and applying the glossary given in the system prompt (`term => translation`).
 */
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const transcriptions: TranscriptionCall[] = [];
  const chats: ChatCall[] = [];
  let gate: { promise: Promise<void>; open: () => void } | null = null;
  let failures: { n: number; status: number; message: string } = { n: 0, status: 500, message: '' };
  const waiters: { n: number; resolve: () => void }[] = [];

  const notify = () => {
    for (const w of [...waiters]) {
      if (transcriptions.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const transcribe = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readBody(req);
    const form = await new Request('http://fake/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body }).formData();
    const fields: Record<string, string> = {};
    let file: File | null = null;
    for (const [k, v] of form.entries()) {
      if (typeof v === 'string') fields[k] = v;
      else file = v;
    }
    const call: TranscriptionCall = {
      fields,
      fileName: file?.name ?? '',
      fileType: file?.type ?? '',
      fileBytes: file?.size ?? 0,
      authorization: req.headers.authorization,
      status: 200,
      segments: [],
    };
    transcriptions.push(call);
    notify();
    if (gate) await gate.promise;
    if (failures.n > 0) {
      failures.n--;
      call.status = failures.status;
      return send(res, failures.status, { error: { message: failures.message || `fake failure ${failures.status}`, type: 'server_error' } });
    }
    if (!file || !fields.model) {
      call.status = 400;
      return send(res, 400, { error: { message: 'file and model are required', type: 'invalid_request_error' } });
    }
    const audio = Buffer.from(await file.arrayBuffer());
    const regions = voicedRegions(audio);
    let duration: number;
    if (regions) {
      call.segments = regions.map((r, i) => segment(i, r.start, r.end, utteranceText(r.end - r.start)));
      duration = regions.length ? regions[regions.length - 1].end : 0;
    } else {
      call.segments = FIXED_SCRIPT.map((text, i) => segment(i, i * 1.0, i * 1.0 + 0.9, text));
      duration = FIXED_SCRIPT.length;
    }
    send(res, 200, { task: 'transcribe', language: 'japanese', duration, text: call.segments.map((s) => s.text).join(''), segments: call.segments });
  };

  const chat = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = JSON.parse((await readBody(req)).toString('utf8')) as { model: string; messages: { role: string; content: string }[] };
    const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
    const lines = JSON.parse(body.messages.find((m) => m.role === 'user')?.content ?? '[]') as string[];
    chats.push({ model: body.model, system, lines, authorization: req.headers.authorization });
    const glossary = [...system.matchAll(/^(.+?) => (.+)$/gm)].map((m) => [m[1], m[2]] as const);
    const translated = lines.map((line) => '译：' + glossary.reduce((text, [term, tr]) => text.split(term).join(tr), line));
    send(res, 200, {
      id: `chatcmpl-${chats.length}`,
      object: 'chat.completion',
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: '```json\n' + JSON.stringify(translated) + '\n```' }, finish_reason: 'stop' }],
    });
  };

  const server = http.createServer((req, res) => {
    const handler = req.method === 'POST' && req.url === '/v1/audio/transcriptions' ? transcribe : req.method === 'POST' && req.url === '/v1/chat/completions' ? chat : null;
    if (!handler) return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    handler(req, res).catch((err: Error) => send(res, 500, { error: { message: err.message } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    transcriptions,
    chats,
    hold() {
      if (gate) return;
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      gate = { promise, open };
    },
    release() {
      gate?.open();
      gate = null;
    },
    waitForTranscriptions(n) {
      if (transcriptions.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    failNext(n, status, message = '') {
      failures = { n, status, message };
    },
    close: () =>
      new Promise<void>((resolve) => {
        gate?.open();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
