/**
 * Build step: turns the schema files into code.
 * - src/shared/generated/validators.js: ajv validators compiled ahead of time (no eval at
 *   run time, identical in the browser and on the server);
 * - src/shared/generated/form-model.json: the pages as the browser renders them;
 * - src/shared/generated/types.ts: TypeScript types (json-schema-to-typescript).
 * Generated files are not edited by hand and are not committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateTypes } from './generate/types.ts';
import { buildForm } from './generate/form-model.ts';
import { generateValidators } from './generate/validators.ts';

const outDir = resolve(import.meta.dirname, '..', 'src', 'shared', 'generated');
mkdirSync(outDir, { recursive: true });

const started = performance.now();
const form = buildForm();
const validators = generateValidators(form.validation);
writeFileSync(resolve(outDir, 'form-model.json'), JSON.stringify(form.model));
writeFileSync(resolve(outDir, 'page-messages.json'), JSON.stringify(form.messages));
writeFileSync(resolve(outDir, 'validators.js'), validators.code);
writeFileSync(resolve(outDir, 'validators.d.ts'), validators.declarations);
writeFileSync(resolve(outDir, 'types.ts'), await generateTypes());
console.log(`generated ${validators.count} validators and types in ${Math.round(performance.now() - started)} ms`);
