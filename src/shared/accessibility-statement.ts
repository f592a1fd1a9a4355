/**
 * Where the app shows its accessibility statement, a page of its own in the page's language
 * (schemas/text/accessibility-statement.json), reached from the footer of every page without
 * an account. How the application is tested is for developers, in docs/accessibility-statement.md.
 */
export const ACCESSIBILITY_PATH = '/accessibility';
