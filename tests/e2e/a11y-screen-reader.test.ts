/**
 * Heard through a real screen reader: Orca reading Chromium (support/screen-reader.ts), the
 * pages drawn by the server as applicants get them. About You is read through to the end
 * by Say All and by Tab, every stop named; what Orca says of a step link, a group's
 * legend, a page's heading, Parent/Guardian 2's list, a toast and the password rules is
 * what a blind applicant should hear, once. What Orca said is kept under
 * test-results/screen-reader/ (the accessibility statement quotes About You's).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import a11y from '../../schemas/text/accessibility.json';
import authMessages from '../../schemas/auth/messages.json';
import frame from '../../schemas/text/frame.json';
import { passwordChecklist } from '../../src/shared/auth/auth-forms.ts';
import { ScreenReader } from '../../support/screen-reader.ts';
import { readingText, readPage } from '../../support/screen-reader-check.ts';
import { tabFromTheStart, tabTo } from '../../support/screen-reader-reading.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { until } from '../../support/until.ts';
import { services } from '../helpers/required-services.ts';

const out = resolve(import.meta.dirname, '..', '..', 'test-results', 'screen-reader');
const heard = (speech: string[]) => speech.join(' ');
/** What Orca said since `mark`. */
const spoken = (reader: ScreenReader, mark: number, entries = reader.entries(mark)) => entries.filter((entry) => entry.kind === 'speech').map((entry) => entry.text);

describe.skipIf(!services.screenReader.available)('a blind applicant, heard through Orca', () => {
  let server: TestServer;
  let reader: ScreenReader;
  let browser: Browser;

  beforeAll(async () => {
    // the server draws the pages, as applicants get them
    server = await startTestServer({ env: { RENDER_WORKERS: '1' } });
    reader = await ScreenReader.start();
    browser = await reader.launchBrowser();
    mkdirSync(out, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await reader?.stop();
    await server?.close();
  });

  async function opened(path: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    return page;
  }

  it('reads About You through to the end by Say All, and names every stop by Tab', async () => {
    const reading = await readPage(reader, browser, `${server.url}/about`);
    writeFileSync(join(out, 'about.txt'), readingText(reading));
    expect(reading.problems).toEqual([]);
    const lines = reading.sayAll.lines;
    // the end of the page was reached, past both parents
    expect(lines.findIndex((line) => line.startsWith(frame.footer.accessibility))).toBeGreaterThan(lines.findIndex((line) => line.startsWith('Parent/Guardian 2')));
    // step links and legends are heard with their spaces; the heading is not "clickable"
    expect(lines).toContain('1 About You, link');
    expect(lines.some((line) => line.startsWith(`Gender ${a11y.required_suffix}, panel`))).toBe(true);
    expect(lines).toContain('About You, heading level 1');
    expect(lines.join('\n')).not.toMatch(/clickable|UniversityUndergraduate|WI53012/);
    // Parent/Guardian 2's instruction is heard with its list, reached by Tab
    const secondParent = reading.tab.stops.find((stop) => heard(stop.speech).includes('region Parent/Guardian 2'))!;
    expect(heard(secondParent.speech)).toContain('No second parent/guardian');
  }, 600_000);

  it('hears a toast once, however many are on the screen', async () => {
    const page = await opened('/login');
    await tabFromTheStart(reader, page);
    await tabTo(reader, 'Email Address');
    reader.type('nobody@example.org');
    await tabTo(reader, 'Password');
    reader.type('Not-the-password-1');
    // refused twice: each refusal's toast is heard once, and the one before is not read again
    for (let attempt = 1; attempt <= 2; attempt++) {
      const mark = reader.mark();
      const answered = page.waitForResponse((response) => response.url().endsWith('/public/login'));
      reader.key('Return');
      await answered;
      await until(async () => (heard(spoken(reader, mark)).includes(authMessages.login_failed) ? true : undefined), 'the toast to be heard');
      const speech = spoken(reader, mark, await reader.quiet(mark, 1500));
      expect(speech.filter((line) => line.includes(authMessages.login_failed)), heard(speech)).toHaveLength(1);
    }
    await page.context().close();
  }, 180_000);

  it('hears the password rule a key met, not the whole list again', async () => {
    const page = await opened('/signup');
    await tabFromTheStart(reader, page);
    const field = await tabTo(reader, 'Password');
    // on reaching the field: every rule
    for (const rule of passwordChecklist('')) expect(heard(field.speech)).toContain(rule.label);
    const [length, upper, lower] = passwordChecklist('').map((rule) => rule.label);
    // each key: the rule it met is heard, once it is, and nothing of the rest of the list
    for (const [key, met, unmentioned] of [['a', lower, length], ['B', upper, lower]] as const) {
      const mark = reader.mark();
      reader.type(key);
      await until(async () => (heard(spoken(reader, mark)).includes(`${met} ${a11y.checklist_met}`) ? true : undefined), `"${met}" to be heard`);
      const speech = heard(spoken(reader, mark, await reader.quiet(mark, 1500)));
      expect(speech).not.toContain(unmentioned);
    }
    await page.context().close();
  }, 180_000);
});
