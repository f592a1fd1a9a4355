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

export function createAjv(): Ajv {
  const ajv = new Ajv(ajvOptions);
  addKeywords(ajv);
  ajvErrors(ajv);
  return ajv;
}

export function generateValidators(pages: Record<PageId, Json>): { code: string; declarations: string; count: number } {
  const ajv = createAjv();
  const exportsMap: Record<string, string> = {};
  ajv.addSchema(readJson('auth/definitions.json') as object);
  for (const { name, file } of authForms()) {
    ajv.addSchema(file.schema);
    exportsMap[`auth_${name}`] = file.schema.$id;
  }
  const rules = readJson<PasswordDefinitions>('auth/definitions.json').definitions.new_password.allOf;
  rules.forEach((_, index) => {
    exportsMap[`password_rule_${index}`] = `auth/definitions#/definitions/new_password/allOf/${index}`;
  });
  for (const [id, schema] of Object.entries(pages)) {
    ajv.addSchema(schema);
    exportsMap[`page_${id.replace(/-/g, '_')}`] = schema.$id as string;
  }

  const code = rewriteRequires(standaloneCode(ajv, exportsMap));
  const declarations = [
    "import type { ValidateFunction } from 'ajv';",
    ...Object.keys(exportsMap).map((name) => `export declare const ${name}: ValidateFunction;`),
    '',
  ].join('\n');
  return { code, declarations, count: Object.keys(exportsMap).length };
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
