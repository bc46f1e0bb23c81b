/**
 * A data dir whose root folder `lib` is a library on disk, scanned offline by the real `kikoplay scan`
 * (the setting most end-to-end suites start from: `servedApp({ library })` in e2e.ts), and a cover
 * image for generated works.
 */
import sharp from 'sharp';
import { runCli } from './run-cli.js';

/** Register `libRoot` as the root folder `lib` of `dataDir` and scan it offline through the CLI. */
export async function scanLibraryInto(dataDir: string, libRoot: string): Promise<void> {
  const set = await runCli(['--data-dir', dataDir, 'config', 'set', 'rootFolders', JSON.stringify([{ name: 'lib', path: libRoot }])]);
  if (set.code !== 0) throw new Error(`config set failed: ${set.stderr}`);
  const scan = await runCli(['--data-dir', dataDir, 'scan', '--offline'], { timeoutMs: 60_000 });
  if (scan.code !== 0) throw new Error(`scan failed (${scan.code}): ${scan.stdout}${scan.stderr}`);
}

/** A 480 px JPEG cover (gradient and rings) for generated works. */
export async function coverJpeg(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="480">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5f3dc4"/><stop offset="1" stop-color="#1098ad"/></linearGradient></defs>
<rect width="480" height="480" fill="url(#g)"/><circle cx="240" cy="220" r="110" fill="none" stroke="#fff" stroke-opacity="0.6" stroke-width="10"/>
<circle cx="240" cy="220" r="28" fill="#fff" fill-opacity="0.85"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
