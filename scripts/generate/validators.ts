import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { PageId } from '../../src/shared/form/form-model.ts';
import { ajvOptions } from '../../src/shared/validation/ajv-options.ts';
import { RUNTIME_MODULE, addKeywords } from '../../src/shared/validation/keywords.ts';
import { authForms, readJson } from '../schema-files.ts';
import type { Json } from './expand.ts';

// the CommonJS module's default export arrives as `.default` under Node's ESM loader
const standaloneCode = (standaloneModule as unknown as { default?: typeof standaloneModule }).default ?? standaloneModule;

interface PasswordDefinitions {
  definitions: { new_password: { allOf: unknown[] } };
}

/** What ajv's output requires, mapped to ES modules: [module, export name, our module]. */
const runtimeModules: Record<string, string> = {
  'ajv/dist/runtime/ucs2length': '../validation/ajv-runtime.ts',
  'ajv/dist/runtime/equal': '../validation/ajv-runtime.ts',
  [RUNTIME_MODULE]: '../validation/keyword-runtime.ts',
};
const runtimeNames: Record<string, string> = { 'ajv/dist/runtime/ucs2length': 'ucs2length', 'ajv/dist/runtime/equal': 'equal' };

export function createAjv(options: { messages?: boolean } = {}): Ajv {
  const ajv = new Ajv({ ...ajvOptions, ...options });
  addKeywords(ajv);
  ajvErrors(ajv);
  return ajv;
}

export interface GeneratedValidators {
  /** the account forms (ajv-errors messages) */
  auth: { code: string; declarations: string };
  /** the pages (messages come from page-messages.json, so ajv's own are left out) */
  pages: { code: string; declarations: string };
  count: number;
}

function standalone(ajv: Ajv, exportsMap: Record<string, string>) {
  return {
    code: rewriteRequires(standaloneCode(ajv, exportsMap)),
    declarations: [
      "import type { ValidateFunction } from 'ajv';",
      ...Object.keys(exportsMap).map((name) => `export declare const ${name}: ValidateFunction;`),
      '',
    ].join('\n'),
  };
}

/** The account forms' validators, their messages in the language of the schema files read (SCHEMAS_DIR). */
export function generateAuthValidators(): { code: string; declarations: string; count: number } {
  const authAjv = createAjv();
  const authExports: Record<string, string> = {};
  authAjv.addSchema(readJson('auth/definitions.json') as object);
  for (const { name, file } of authForms()) {
    authAjv.addSchema(file.schema);
    authExports[`auth_${name}`] = file.schema.$id;
  }
  const rules = readJson<PasswordDefinitions>('auth/definitions.json').definitions.new_password.allOf;
  rules.forEach((_, index) => {
    authExports[`password_rule_${index}`] = `auth/definitions#/definitions/new_password/allOf/${index}`;
  });
  return { ...standalone(authAjv, authExports), count: Object.keys(authExports).length };
}

export function generateValidators(pages: Record<PageId, Json>): GeneratedValidators {
  const { count, ...auth } = generateAuthValidators();
  const pageAjv = createAjv({ messages: false });
  const pageExports: Record<string, string> = {};
  for (const [id, schema] of Object.entries(pages)) {
    pageAjv.addSchema(schema);
    pageExports[`page_${id.replace(/-/g, '_')}`] = schema.$id as string;
  }
  return {
    auth,
    pages: withPageMap(standalone(pageAjv, pageExports), pageExports, Object.keys(pages)),
    count: count + Object.keys(pageExports).length,
  };
}

/**
 * The validators by page id, so page validation needs no hand-written map and a page
 * added in schemas/ is validated with no TypeScript change.
 */
function withPageMap(module: { code: string; declarations: string }, exportsMap: Record<string, string>, ids: string[]) {
  const names = Object.keys(exportsMap);
  const entries = ids.map((id, index) => `${JSON.stringify(id)}: ${names[index]}`).join(', ');
  return {
    code: `${module.code}\nexport const pageValidators = { ${entries} };\n`,
    declarations: [
      "import type { PageId } from './page-ids.ts';",
      module.declarations.trimEnd(),
      'export declare const pageValidators: Record<PageId, ValidateFunction>;',
      '',
    ].join('\n'),
  };
}

function rewriteRequires(code: string): string {
  const imports = new Map<string, Set<string>>();
  const rewritten = code.replace(/require\("([^"]+)"\)\.(\w+)/g, (_match, module: string, property: string) => {
    const target = runtimeModules[module];
    if (!target) throw new Error(`generated validator needs ${module}: map it in scripts/generate/validators.ts`);
    const name = property === 'default' ? runtimeNames[module]! : property;
    if (!imports.has(target)) imports.set(target, new Set());
    imports.get(target)!.add(name);
    return name;
  });
  if (/require\(/.test(rewritten)) throw new Error('generated validator still calls require()');
  const header = [...imports].map(([module, names]) => `import { ${[...names].join(', ')} } from '${module}';`).join('\n');
  return `${header}\n${rewritten.replace(/^"use strict";/, '')}`;
}
