/**
 * The office's funnel report, opened in Chromium from the file the command wrote: it reads
 * as one page with its charts and tables, passes axe, and asks for nothing outside itself.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import reportText from '../../schemas/text/funnel-report.json';
import { openPage, screenshot } from '../../support/browser.ts';
import { axeViolations } from '../helpers/axe.ts';
import { builtCommand } from '../helpers/built-server.ts';
import { useServerAndBrowser } from '../helpers/e2e-setup.ts';
import { seedKnownFunnel } from '../fixtures/funnel-applicants.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const env = useServerAndBrowser();
const out = mkdtempSync(join(tmpdir(), 'funnel-e2e-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the funnel report', () => {
  it('opens offline as one page with its charts and the same figures in tables', async () => {
    await seedKnownFunnel(env.server);
    const file = join(out, 'report.html');
    await promisify(execFile)(process.execPath, builtCommand('report-funnel', '--out', file, '--at', new Date(Date.now() + 30 * 86_400_000).toISOString()), {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: '', DATA_DIR: env.server.config.dataDir, LOG_LEVEL: 'warn' },
    });
    const context = await env.browser.newContext({ offline: true });
    const { page } = await openPage(context);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`file://${file}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(requests).toEqual([`file://${file}`]);
    expect(await page.locator('svg').count()).toBe(3);
    const funnel = page.getByRole('table', { name: reportText.funnel_caption });
    expect(await funnel.getByRole('row').allInnerTexts()).toEqual([
      expect.stringContaining(reportText.columns.step),
      'Started the application\t4\t100.0 %\t–', 'Reached About You\t4\t100.0 %\t0', 'Reached Your Education\t3\t75.0 %\t1',
      'Reached Final Step\t2\t50.0 %\t1', 'Asked to submit (validating)\t3\t75.0 %\t+1', 'Submitted\t2\t50.0 %\t1',
      `${reportText.steps.file_complete}\t0\t0.0 %\t2`,
    ]);
    await page.getByRole('table', { name: reportText.reminders_caption }).waitFor();
    expect(await axeViolations(page, { strict: true })).toEqual([]);
    await screenshot(page, 'funnel-report');
    await context.close();
  });
});
