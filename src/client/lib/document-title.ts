import { partner } from './partner-text.ts';

/** A document title (WCAG 2.4.2): the page's name, then the partner's. */
export function pageTitle(page?: string): string {
  return page ? `${page} | ${partner.name}` : partner.name;
}
