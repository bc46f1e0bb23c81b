import { defineConfig } from 'vitest/config';

// Browser and CLI tests start real processes; on a loaded 2-core machine they need generous timeouts.
// Under CI a failed test is retried (up to twice) so a load spike does not fail the run; the assertions
// themselves are unchanged and a test that fails three times still fails.
const ci = Boolean(process.env.CI);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 120_000,
    retry: ci ? 2 : 0,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default'],
    setupFiles: ['test/helpers/setup-temp-dirs.ts'],
  },
});
