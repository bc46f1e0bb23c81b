// `npm run check`: every check a change must pass (CONTRIBUTING.md, "The checks"), in order. Stops at the
// first that fails and names it. Arguments are handed to the test runner, e.g. `npm run check -- --reporter=dot`.
import { spawnSync } from 'node:child_process';

const steps = [
  ['typecheck:server', 'type check of the server, CLI and tests (tsconfig.json)'],
  ['typecheck:web', 'type check of the web app (web/tsconfig.json)'],
  ['lint:code', 'lint: ESLint'],
  ['lint:imports', 'lint: import rules and no cycles (dependency-cruiser)'],
  ['lint:format', 'lint: format (Prettier)'],
  ['test', 'tests: build, then the whole vitest suite'],
];
const testArgs = process.argv.slice(2);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

for (const [script, what] of steps) {
  console.log(`\n=== check: ${what} (npm run ${script})`);
  const args = script === 'test' && testArgs.length ? ['run', script, '--', ...testArgs] : ['run', script];
  const { status, signal } = spawnSync(npm, args, { stdio: 'inherit' });
  if (status !== 0) {
    console.error(`\n✗ check failed: ${what} (npm run ${script} exited with ${signal ?? status})`);
    process.exit(status || 1);
  }
}
console.log('\n✓ every check passed');
