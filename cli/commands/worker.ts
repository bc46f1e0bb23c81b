import { Command } from 'commander';
import { CliError } from '../output/print.js';
import { parseWorkerOptions, WorkerOptionsError, type RawWorkerFlags } from '../../server/worker/options.js';
import { runWorker } from '../../server/worker/run-worker.js';
import { FatalWorkerError } from '../../server/worker/errors.js';
import { stderrLogOf } from '../../server/worker/log.js';
import { cliText } from '../i18n/index.js';

interface Flags extends RawWorkerFlags {
  quiet?: boolean;
}

export function workerCommand(): Command {
  const h = cliText().help.worker;
  return new Command('worker')
    .description(h.description)
    .requiredOption('--server <url>', h.server)
    .option('--token <token>', h.token)
    .option('--user <name>', h.user)
    .option('--password <password>', h.password)
    .option('--name <name>', h.name)
    .option('--engine <engine>', h.engine, 'openai')
    .option('--api-base <url>', h.apiBase)
    .option('--api-key <key>', h.apiKey)
    .option('--model <model>', h.model, 'whisper-1')
    .option('--language <code>', h.language, 'ja')
    .option('--prompt <text>', h.prompt)
    .option('--translate-to <lang>', h.translateTo)
    .option('--translate-api-base <url>', h.translateApiBase)
    .option('--translate-api-key <key>', h.translateApiKey)
    .option('--translate-model <model>', h.translateModel)
    .option('--glossary <file>', h.glossary)
    .option('--state-dir <dir>', h.stateDir)
    .option('--poll <seconds>', h.poll, '5')
    .option('--once', h.once)
    .option('--max-upload-mb <mb>', h.maxUploadMb, '24')
    .option('--max-chunk-minutes <minutes>', h.maxChunkMinutes, '20')
    .option('--wav', h.wav)
    .option('--heartbeat <seconds>', h.heartbeat, '30')
    .option('-q, --quiet', h.quiet)
    .addHelpText('after', h.after)
    .action(async (flags: Flags) => {
      // the worker speaks the run's language: its log lines and its errors come from the catalogue
      const text = cliText().worker;
      let opts;
      try {
        opts = parseWorkerOptions(flags, process.env, text);
      } catch (err) {
        if (err instanceof WorkerOptionsError) throw new CliError(err.message);
        throw err;
      }
      const stderrLog = stderrLogOf(text);
      const log = flags.quiet ? { ...stderrLog, info: () => undefined } : stderrLog;
      const controller = new AbortController();
      let signals = 0;
      const onSignal = (name: string) => {
        signals++;
        if (signals > 1) process.exit(130);
        log.info(cliText().messages.workerStopping(name));
        controller.abort();
      };
      const onInt = () => onSignal('SIGINT');
      const onTerm = () => onSignal('SIGTERM');
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
      try {
        const run = await runWorker(opts, { signal: controller.signal, log, text });
        log.info(cliText().messages.workerStopped(run.success, run.failed, run.lost, run.stopped));
      } catch (err) {
        if (err instanceof FatalWorkerError) throw new CliError(err.message);
        throw err;
      } finally {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
      }
    });
}
