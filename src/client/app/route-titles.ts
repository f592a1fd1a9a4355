import frame from '../../../schemas/text/frame.json';
import { routePageName } from '../../shared/text/page-title.ts';
import { pageTitle } from '../lib/document-title.ts';

// the account pages are not named here: they title themselves (AccountCard, useScreenTitle), see account-paths.ts
/** The document title of a route: the page's name, then the partner's (the server titles a page alike before its scripts). */
export function documentTitle(pathname: string): string {
  return pageTitle(routePageName(pathname, frame));
}
