import frame from '../../../schemas/text/frame.json';
import { pageTitle } from '../lib/document-title.ts';

// the account pages are not here: they title themselves (AccountCard, useScreenTitle), see account-paths.ts
const titles: Record<string, string> = {
  ...Object.fromEntries(frame.steps.map((step) => [step.path, step.label])),
  '/completion': frame.completion.title,
};

/** The document title of a route: the page's name, then the partner's. */
export function documentTitle(pathname: string): string {
  return pageTitle(titles[pathname]);
}
