/**
 * Where the app serves its accessibility statement: docs/accessibility-statement.md, copied
 * into the built client as plain text (scripts/vite/accessibility-statement.ts), so an
 * applicant can open it from the footer of any page without an account.
 */
export const ACCESSIBILITY_STATEMENT_PATH = '/accessibility-statement.txt';
