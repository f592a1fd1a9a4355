import { defineConfig } from 'vitest/config';

/**
 * One test command for everything: unit tests, server tests on real databases, and
 * end-to-end tests in Chromium against the built client (npm test builds it first).
 */
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // the machine has 2 cores; end-to-end files each run a browser and a server
    maxWorkers: 2,
    reporters: ['default'],
  },
});
