import { defineConfig } from 'vitest/config';

// Browser and CLI tests start real processes; on a loaded 2-core machine they need generous timeouts.
// Every test sets up what it needs (its own browser context, users and data, see test/helpers/e2e.ts), so
// a failure is a bug or a race to fix: nothing is retried, locally or in CI.

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 120_000,
    retry: 0,
    // expect.poll's own default (1 s) is shorter than a loaded machine takes to render an answer; a poll
    // that passes returns at once, so a long default costs only the time of a real failure
    expect: { poll: { timeout: 15_000, interval: 50 } },
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default'],
    setupFiles: ['test/helpers/setup.ts'],
  },
});
