import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiSession } from './api-session.ts';
import { openPage } from './browser.ts';
import { seedApplicant, sessionFor, type ApplicantState } from './seed.ts';
import type { TestServer } from './test-server.ts';

export interface SignedInOptions {
  viewport?: { width: number; height: number };
  /** the page's own clock, for timers a test moves (page.clock) */
  clock?: boolean;
  /** opened, and waited for until the browser has taken the page over */
  path?: string;
  /** console errors the test expects (a refused request, an outage) */
  expectedErrors?: RegExp[];
}

export interface SignedInPage {
  page: Page;
  context: BrowserContext;
  api: ApiSession;
  applicant: { id: string; email: string };
}

/**
 * A browser page of an applicant seeded in the state given (support/seed.ts), signed in by
 * the session's cookies in a context of its own: the start of every test whose subject is
 * what a signed-in applicant does, not how they signed in.
 */
export async function signedInPage(browser: Browser, server: TestServer, state: ApplicantState, options: SignedInOptions = {}): Promise<SignedInPage> {
  const applicant = await seedApplicant(server.app, state);
  const api = await sessionFor(server.app, applicant.id);
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
  await context.addCookies([...api.cookies].map(([name, value]) => ({ name, value, url: server.url })));
  const { page } = await openPage(context, { expectedErrors: options.expectedErrors ?? [/Failed to load resource/, /failed with/] });
  if (options.clock) await page.clock.install();
  if (options.path) {
    await page.goto(`${server.url}${options.path}`);
    await page.locator(`#root:not([data-drawn]) [data-page="${options.path.slice(1)}"], #root:not([data-drawn]) main h1`).first().waitFor();
  }
  return { page, context, api, applicant };
}
