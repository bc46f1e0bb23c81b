/** The bundled ffprobe (durations of some containers, the AI worker's decoding): found and runs. */
import { execFile } from 'node:child_process';
import { ffprobePath } from '../../media/probe.js';
import { finding, type Finding } from './findings.js';

export async function checkFfprobe(): Promise<Finding[]> {
  let file: string;
  try {
    file = ffprobePath();
  } catch (err) {
    return [finding('ffprobe', 'problem', 'ffprobeBroken', { path: 'ffprobe-static', reason: (err as Error).message })];
  }
  const result = await new Promise<{ version: string } | { reason: string }>((resolve) => {
    execFile(file, ['-version'], { timeout: 10_000, maxBuffer: 1 << 20 }, (err, stdout) => {
      if (err) resolve({ reason: (err as NodeJS.ErrnoException).code ? `${(err as NodeJS.ErrnoException).code}` : err.message.split('\n')[0] });
      else
        resolve({
          version: stdout
            .split('\n')[0]
            .replace(/\s+Copyright.*$/, '')
            .trim(),
        });
    });
  });
  return ['version' in result ? finding('ffprobe', 'ok', 'ffprobeOk', { path: file, version: result.version }) : finding('ffprobe', 'problem', 'ffprobeBroken', { path: file, reason: result.reason })];
}
