/** Where the preview server (scripts/vite/schema-preview.ts) answers with the latest check:schemas report. */
export const CHECK_URL = '/__schema-preview/check';
/** The event it sends to open pages when a saved schema file changed the report. */
export const CHECK_EVENT = 'schema-preview:check';
/** Where the preview page asks for its texts in another language (?lang=es); the server then reloads it. */
export const LANGUAGE_URL = '/__schema-preview/language';
