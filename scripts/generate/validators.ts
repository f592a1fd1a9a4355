import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { ajvOptions } from '../../src/shared/validation/ajv-options.ts';
import { authForms, readJson } from '../schema-files.ts';

// the CommonJS module's default export arrives as `.default` under Node's ESM loader
const standaloneCode = (standaloneModule as unknown as { default?: typeof standaloneModule }).default ?? standaloneModule;

interface PasswordDefinitions {
  definitions: { new_password: { allOf: unknown[] } };
}

/** Runtime helpers ajv's output requires, mapped to our ES module equivalents. */
const runtimeImports: Record<string, string> = {
  'ajv/dist/runtime/ucs2length': 'ucs2length',
  'ajv/dist/runtime/equal': 'equal',
};

export function generateValidators(): { code: string; declarations: string; count: number } {
  const ajv = new Ajv(ajvOptions);
  ajvErrors(ajv);

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

  const code = rewriteRequires(standaloneCode(ajv, exportsMap));
  const declarations = [
    "import type { ValidateFunction } from 'ajv';",
    ...Object.keys(exportsMap).map((name) => `export declare const ${name}: ValidateFunction;`),
    '',
  ].join('\n');
  return { code, declarations, count: Object.keys(exportsMap).length };
}

function rewriteRequires(code: string): string {
  const imports = new Set<string>();
  const rewritten = code.replace(/require\("([^"]+)"\)\.default/g, (_match, module: string) => {
    const name = runtimeImports[module];
    if (!name) throw new Error(`generated validator needs ${module}: add it to src/shared/validation/ajv-runtime.ts`);
    imports.add(name);
    return name;
  });
  if (/require\(/.test(rewritten)) throw new Error('generated validator still calls require()');
  const header = `import { ${[...imports].join(', ') || 'equal'} } from '../validation/ajv-runtime.ts';\n`;
  return header + rewritten.replace(/^"use strict";/, '');
}
