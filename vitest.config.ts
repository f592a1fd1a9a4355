import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './tests/helpers/slow-first-sequencer.ts';

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
    // expect.poll waits for a state: its default 1 s is a guess about time, which a busy machine beats
    expect: { poll: { timeout: 15_000 } },
    // Two files at once on two cores (no two share a port, a database or a converter: each
    // server has its own). Four were slower here: the cores were then always busy, and each
    // file took twice as long. TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    reporters: ['default'],
    sequence: { sequencer: SlowFirstSequencer },
    globalSetup: ['support/pglite-template.ts'],
  },
});
