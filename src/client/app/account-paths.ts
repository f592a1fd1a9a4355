/**
 * The account pages' routes. Each account page names the document itself (useScreenTitle),
 * from its form's texts, which load with the page rather than with every first visit.
 */
export const ACCOUNT_PATHS: readonly string[] = ['/signup', '/confirm', '/login', '/forgot', '/reset'];
