/**
 * Build step: turns the schema files into code.
 * - src/shared/generated/validators.js (account forms) and page-validators.js (pages): ajv
 *   validators compiled ahead of time (no eval at run time, identical in browser and server);
 * - src/shared/generated/form-model.json and page-messages.json: the pages as the browser
 *   renders them, and the messages of their rules;
 * - src/shared/generated/types.ts: TypeScript types (json-schema-to-typescript);
 * - src/shared/generated/api-types.ts: the API contract's types (schemas/api/);
 * - src/shared/generated/<lang>/: what each other language's build of the client imports in
 *   place of the English files (scripts/vite/language-build.ts), and i18n-<lang>-server.json,
 *   the server's texts in that language.
 * Generated files are not edited by hand and are not committed.
 */
import { generateAll } from './generate/run.ts';

const started = performance.now();
const result = await generateAll();
console.log(`generated ${result.validators} validators and types in ${Math.round(performance.now() - started)} ms`);
