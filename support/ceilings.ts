import { loadConfig, type Config } from '../src/server/config.ts';
import { CONVERSION_ATTEMPTS } from '../src/server/documents/conversion-job.ts';
import { PDF_JOB, PRINT_TIMEOUT_MS } from '../src/server/pdf/application-pdf.ts';

/**
 * How long a test may wait for a converter, from the server's own settings, so the bound
 * scales with them (a test server given CONVERSION_TIMEOUT_MS=3000 waits seconds, the
 * default minutes) and is never a guessed number: the longest the server itself lets one
 * document's conversion run before it ends it FAILED (each attempt's start of a warm
 * LibreOffice and its conversion, and the pauses between attempts: 1, 5 and 15 times
 * JOB_RETRY_DELAY_MS), twice, for one other document ahead of it in the lane. A wait that
 * runs past it is a conversion the server failed to end: a defect, not a slow machine.
 */
export function conversionCeilingMs(config: Pick<Config, 'conversionTimeoutMs' | 'converterStartTimeoutMs' | 'jobRetryDelayMs'>): number {
  const pauses = [1, 5, 15].slice(0, CONVERSION_ATTEMPTS - 1).reduce((sum, factor) => sum + factor * config.jobRetryDelayMs, 0);
  return 2 * (CONVERSION_ATTEMPTS * (config.converterStartTimeoutMs + config.conversionTimeoutMs) + pauses);
}

/** The same ceiling for a test server started with the settings given (the defaults of support/test-server.ts otherwise), known before it starts: a test's own time-out. */
export function testConversionCeilingMs(env: Record<string, string> = {}): number {
  return conversionCeilingMs(loadConfig({ DATA_DIR: '/nonexistent', ...env }));
}

/**
 * How long a test may wait for the PDF copy: each attempt's print in the warm Chromium and the
 * pause before the retry, twice, for one other print ahead in the lane.
 */
export function printCeilingMs(config: Pick<Config, 'jobRetryDelayMs'>): number {
  return 2 * (PDF_JOB.maxAttempts * PRINT_TIMEOUT_MS + config.jobRetryDelayMs);
}
