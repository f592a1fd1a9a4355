/** A document title (WCAG 2.4.2): the page's name, then the partner's; the partner's alone for a page without one. */
export function pageTitle(page: string | undefined, partnerName: string): string {
  return page ? `${page} | ${partnerName}` : partnerName;
}
