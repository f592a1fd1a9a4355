import { describe, expect, it } from 'vitest';
import { browserCommandLines, playwrightDisabledFeatures, UNSEEN_BROWSER_UI } from '../../support/browser.ts';
import { descendantsOf } from '../helpers/process-server.ts';
import { workerBrowser } from '../helpers/worker-browser.ts';

/** The names a --disable-features switch lists. */
function featureNames(argument: string): string[] {
  return argument.slice('--disable-features='.length).split(',');
}

describe('the browser the end-to-end tests drive', () => {
  it('keeps every feature Playwright turns off, and turns off the address bar popups no test sees', async () => {
    await workerBrowser();
    const playwrights = featureNames(await playwrightDisabledFeatures());
    expect(playwrights.length).toBeGreaterThan(0);

    // only the browsers this process started: another checkout's tests may run beside
    const own = new Set(descendantsOf(process.pid));
    const commandLines = browserCommandLines().filter(({ pid }) => own.has(pid));
    expect(commandLines.length).toBeGreaterThan(0);
    for (const { argv } of commandLines) {
      // Chromium honours only the last of several --disable-features switches
      const switches = argv.filter((argument) => argument.startsWith('--disable-features='));
      expect(switches).toHaveLength(1);
      expect(featureNames(switches[0]!)).toEqual(expect.arrayContaining([...playwrights, ...UNSEEN_BROWSER_UI]));
    }
  });
});
