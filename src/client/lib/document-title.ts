import { useLayoutEffect } from 'react';
import frame from '../../../schemas/text/frame.json';
import { pageTitle as titleOf } from '../../shared/text/page-title.ts';
import { partner } from './partner-text.ts';

/** A document title (WCAG 2.4.2): the page's name, then the partner's (the server titles the form pages alike). */
export function pageTitle(page?: string): string {
  return titleOf(page, partner.name, frame);
}

// A screen drawn in a route's place (a link that has ended, the crash screen) names the page
// over the route's own title for as long as it is shown. React runs a child's effects before its
// parent's, so a title written by whichever effect runs last would give the route's name to the
// screen's heading; the claims decide instead, whatever the order.
const screenClaims: { title: string }[] = [];
let routeTitle: string | null = null;

function showTitle() {
  const title = screenClaims.at(-1)?.title ?? routeTitle;
  if (title !== null) document.title = title;
}

/** The route's title, shown unless a screen claims the page (useScreenTitle). */
export function setRouteTitle(title: string): void {
  routeTitle = title;
  showTitle();
}

/**
 * Names the document after a screen while it is mounted. A layout effect: the title changes in
 * the commit that draws the screen's heading, never a task after it.
 */
export function useScreenTitle(page: string): void {
  useLayoutEffect(() => {
    const claim = { title: pageTitle(page) };
    screenClaims.push(claim);
    showTitle();
    return () => {
      screenClaims.splice(screenClaims.indexOf(claim), 1);
      showTitle();
    };
  }, [page]);
}
