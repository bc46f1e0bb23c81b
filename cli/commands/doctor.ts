import { Command } from 'commander';
import { dataDirPathOf } from '../context.js';
import { CliError, displayWidth } from '../output/print.js';
import { cliText } from '../i18n/index.js';
import type { Finding } from '../../server/services/doctor/index.js';

/** A finding's sentence in the run's language. */
export function findingText(f: Finding, t = cliText()): string {
  const say = t.doctor.findings[f.key] as (p: Finding['params']) => string;
  return say(f.params);
}

const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - displayWidth(text)));

export function doctorCommand(): Command {
  const t = cliText().doctor;
  return new Command('doctor')
    .description(t.description)
    .option('--json', t.json)
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const dataDir = dataDirPathOf(cmd);
      const { runDoctor } = await import('../../server/services/doctor/index.js');
      const report = await runDoctor({ dataDir });
      if (opts.json) {
        const findings = report.findings.map((f) => ({ ...f, message: findingText(f) }));
        process.stdout.write(JSON.stringify({ dataDir, ok: report.ok, findings }, null, 2) + '\n');
      } else {
        const statusWidth = Math.max(...Object.values(t.status).map(displayWidth));
        const checkWidth = Math.max(...Object.values(t.checks).map(displayWidth));
        const lines = [t.title(dataDir), ...report.findings.map((f) => `  ${pad(t.status[f.status], statusWidth)}  ${pad(t.checks[f.check], checkWidth)}  ${findingText(f)}`)];
        const problems = report.findings.filter((f) => f.status === 'problem').length;
        const warnings = report.findings.filter((f) => f.status === 'warning').length;
        lines.push(problems + warnings === 0 ? t.allOk : t.summary(problems, warnings));
        process.stdout.write(lines.join('\n') + '\n');
      }
      // the findings said it all: exit 1 without another line
      if (!report.ok) throw new CliError('', 1);
    });
}
