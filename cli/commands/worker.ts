import { Command } from 'commander';
import { CliError } from '../output/print.js';
import { parseWorkerOptions, WorkerOptionsError, type RawWorkerFlags } from '../../server/worker/options.js';
import { runWorker } from '../../server/worker/run-worker.js';
import { FatalWorkerError } from '../../server/worker/errors.js';
import { stderrLog } from '../../server/worker/log.js';

const HELP = `
How it works:
  The worker takes the oldest pending task from the server's AI lyric queue, downloads the audio,
  transcribes it with an OpenAI-compatible /v1/audio/transcriptions service (OpenAI, whisper.cpp
  server, faster-whisper servers, LocalAI), reports progress (shown in the AI lyric centre), and sends
  the lyrics back as LRC: one "[MM:SS.CC] text" line per segment. With --translate-to each line is
  followed by its translation under the same timestamp (an OpenAI-compatible /v1/chat/completions).

Long audio:
  A file within --max-upload-mb and --max-chunk-minutes is uploaded as it is. A larger or longer file
  is decoded with the bundled ffprobe (no ffmpeg needed) to 16 kHz mono, cut in its quietest moments
  into chunks within both limits, and uploaded as WAV chunks (16 kHz mono WAV is 1.9 MB per minute, so
  the default 24 MB allows about 13 minutes per chunk). Timestamps are shifted back to the whole track.
  Any format ffprobe can decode works (mp3, m4a, flac, ogg, opus, wav, webm, mp4 …).
  --wav always sends 16 kHz WAV (for services that only read WAV, e.g. whisper.cpp without --convert).

Credentials:
  --token takes a worker token from "kikoplay worker-token create NAME" (env KIKOPLAY_WORKER_TOKEN);
  it reaches only the worker endpoints. Or log in as a user (not a guest) with --user/--password
  (env KIKOPLAY_WORKER_PASSWORD); the worker logs in again by itself when its login expires.
  The transcription API key may come from env OPENAI_API_KEY, the API base from OPENAI_BASE_URL.

Robustness:
  The task in progress is saved in --state-dir and resumed after a restart (finished chunks are not
  transcribed again). Network errors are retried with backoff (1 s doubling to 1 min). Ctrl-C stops
  at once and finishes nothing: the task is resumed by the next start, or goes back to the queue when
  the server's lease (aiTaskLeaseMinutes) runs out. A heartbeat every --heartbeat seconds keeps the
  lease while a long request runs.

Examples:
  kikoplay worker --server http://nas:8888 --token kpw_... --api-key sk-... --language ja
  kikoplay worker --server http://nas:8888 --user worker1 --password *** \\
      --api-base http://127.0.0.1:8080 --model large-v3 --translate-to zh \\
      --translate-api-base http://127.0.0.1:11434 --translate-model qwen2.5 --glossary terms.txt
`;

interface Flags extends RawWorkerFlags {
  quiet?: boolean;
}

export function workerCommand(): Command {
  return new Command('worker')
    .description('run an AI lyric transcription worker against a kikoplay server')
    .requiredOption('--server <url>', 'kikoplay server URL, e.g. http://192.168.1.10:8888')
    .option('--token <token>', 'worker token (env KIKOPLAY_WORKER_TOKEN)')
    .option('--user <name>', 'log in as this user instead of a token')
    .option('--password <password>', 'password for --user (env KIKOPLAY_WORKER_PASSWORD)')
    .option('--name <name>', 'worker name shown in the AI lyric centre (default: host name)')
    .option('--engine <engine>', 'transcription engine: openai', 'openai')
    .option('--api-base <url>', 'OpenAI-compatible service (env OPENAI_BASE_URL, default https://api.openai.com)')
    .option('--api-key <key>', 'API key of the service (env OPENAI_API_KEY)')
    .option('--model <model>', 'transcription model', 'whisper-1')
    .option('--language <code>', 'language of the speech (ISO 639-1; "" = detect)', 'ja')
    .option('--prompt <text>', 'prompt for the transcription (names, style)')
    .option('--translate-to <lang>', 'also translate each line into this language (e.g. zh) for bilingual LRC')
    .option('--translate-api-base <url>', 'OpenAI-compatible chat service for translation (default: --api-base)')
    .option('--translate-api-key <key>', 'API key for translation (default: --api-key)')
    .option('--translate-model <model>', 'chat model for translation')
    .option('--glossary <file>', 'glossary for translation: one "term=translation" per line')
    .option('--state-dir <dir>', 'where the task in progress, its audio and the login are kept (default ~/.kikoplay-worker)')
    .option('--poll <seconds>', 'wait between checks of an empty queue', '5')
    .option('--once', 'handle at most one task (none when the queue is empty), then exit')
    .option('--max-upload-mb <mb>', 'largest upload the transcription service accepts', '24')
    .option('--max-chunk-minutes <minutes>', 'longest audio per request', '20')
    .option('--wav', 'always upload 16 kHz mono WAV')
    .option('--heartbeat <seconds>', 'progress/lease heartbeat while a request runs', '30')
    .option('-q, --quiet', 'log only warnings and errors')
    .addHelpText('after', HELP)
    .action(async (flags: Flags) => {
      let opts;
      try {
        opts = parseWorkerOptions(flags);
      } catch (err) {
        if (err instanceof WorkerOptionsError) throw new CliError(err.message);
        throw err;
      }
      const log = flags.quiet ? { ...stderrLog, info: () => undefined } : stderrLog;
      const controller = new AbortController();
      let signals = 0;
      const onSignal = (name: string) => {
        signals++;
        if (signals > 1) process.exit(130);
        log.info(`${name}: stopping (press Ctrl-C again to quit at once); the task in progress is kept for the next start`);
        controller.abort();
      };
      const onInt = () => onSignal('SIGINT');
      const onTerm = () => onSignal('SIGTERM');
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
      try {
        const run = await runWorker(opts, { signal: controller.signal, log });
        log.info(`worker stopped: ${run.success} done, ${run.failed} failed, ${run.lost} taken back${run.stopped ? ' (stopped by signal)' : ''}`);
      } catch (err) {
        if (err instanceof FatalWorkerError) throw new CliError(err.message);
        throw err;
      } finally {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
      }
    });
}
