// Makes sure what the test suite needs outside npm is present: Debian's Chromium for the browser tests.
// As root on Debian it installs it with apt-get; otherwise it says what to install and fails.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = process.env.KIKOPLAY_CHROMIUM || '/usr/bin/chromium';
// A CJK font makes the screenshots the browser tests save readable (optional: tests pass without it).
const CJK_FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
const packages = [];
if (!existsSync(CHROMIUM)) packages.push('chromium');
if (!existsSync(CJK_FONT)) packages.push('fonts-wqy-microhei');
if (!packages.length) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (isRoot && hasApt) {
  console.log(`test-deps: installing ${packages.join(', ')} for the browser tests (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = update.status === 0 && spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
  if (install && install.status === 0 && existsSync(CHROMIUM)) process.exit(0);
}
if (existsSync(CHROMIUM)) process.exit(0);
console.error(`test-deps: Chromium not found at ${CHROMIUM}. Install it (Debian: sudo apt-get install -y chromium) or set KIKOPLAY_CHROMIUM.`);
process.exit(1);
