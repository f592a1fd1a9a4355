/**
 * npm run check:screen-reader [-- --url <address of a running app>] [--pages /about,/login] [--language en|es]
 *
 * Orca, the screen reader, reads each page of the application in headful Chromium on a
 * virtual display, as a blind applicant hears it: by Say All (from the top to the end)
 * and by Tab. It fails on a Say All that loops or stops before the page's end, on a Tab
 * stop Orca has no name for, and on a focus caught in a loop. What Orca said is written to
 * test-results/screen-reader/<language>-<page>.txt. Without --url it starts the built app
 * on a throwaway embedded database, its pages drawn by the server as applicants get them.
 * Needs the Debian packages orca, xvfb, dbus-x11, at-spi2-core and xdotool.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ScreenReader, screenReaderMissing } from '../support/screen-reader.ts';
import { readingText, readPage } from '../support/screen-reader-check.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const PAGES = ['/about', '/education-ug', '/final-steps', '/signup', '/confirm', '/login', '/forgot', '/accessibility'];
const USAGE = 'usage: npm run check:screen-reader -- [--url http://localhost:3000] [--pages /about,/login] [--language en|es]';

const { values } = parseArgs({
  options: { url: { type: 'string' }, pages: { type: 'string' }, language: { type: 'string', default: 'en' } },
});
if (!['en', 'es'].includes(values.language!)) {
  console.error(USAGE);
  process.exit(2);
}
const missing = screenReaderMissing();
if (missing.length) {
  console.error(`check:screen-reader needs these Debian packages: apt-get install --no-install-recommends ${missing.join(' ')}`);
  process.exit(2);
}

const pages = values.pages ? values.pages.split(',').map((path) => path.trim()) : PAGES;
const out = resolve(import.meta.dirname, '..', 'test-results', 'screen-reader');
mkdirSync(out, { recursive: true });

let server: TestServer | undefined;
const reader = await ScreenReader.start();
let failed = 0;
try {
  // the server draws the pages, as applicants get them
  if (!values.url) server = await startTestServer({ env: { RENDER_WORKERS: '1' } });
  const base = (values.url ?? server!.url).replace(/\/$/, '');
  const browser = await reader.launchBrowser();
  try {
    for (const path of pages) {
      // the language by its cookie, as the header's links set it
      const reading = await readPage(reader, browser, `${base}${path}`, async (page) => {
        await page.context().addCookies([{ name: 'lang', value: values.language!, url: base }]);
      });
      const file = join(out, `${values.language}-${path.slice(1) || 'home'}.txt`);
      writeFileSync(file, readingText(reading));
      const verdict = reading.problems.length ? 'FAILED' : 'read through';
      console.log(`${path}: ${verdict}: Say All ${reading.sayAll.lines.length} lines, ${reading.tab.stops.length} Tab stops (${file})`);
      for (const problem of reading.problems) console.log(`  ${problem}`);
      if (reading.problems.length) failed++;
    }
  } finally {
    await browser.close();
  }
} finally {
  await reader.stop();
  await server?.close();
}
console.log(failed ? `check:screen-reader failed: ${failed} of ${pages.length} pages` : `check:screen-reader OK: ${pages.length} pages read through`);
process.exit(failed ? 1 : 0);
