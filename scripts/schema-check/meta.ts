/** Checks a settings file against its JSON Schema under schemas/meta/ (partner, banners, data model). */
import Ajv from 'ajv';
import type { SchemaTree } from './load.ts';
import { problem, type Problem, type ProblemKind } from './problems.ts';

export function checkAgainstMeta(tree: SchemaTree, file: string, metaFile: string, kind: ProblemKind): Problem[] {
  const data = tree.files.get(file);
  const meta = tree.files.get(metaFile);
  if (!meta) {
    if (tree.problems.some((item) => item.file === metaFile)) return [];
    return [problem('missing configuration', metaFile, '', `the schema for ${file} is missing`, `restore schemas/${metaFile}`)];
  }
  if (!data) {
    if (tree.problems.some((item) => item.file === file)) return [];
    return [problem('missing configuration', file, '', 'the file is missing', `create schemas/${file} (its shape is schemas/${metaFile})`)];
  }
  const ajv = new Ajv({ allErrors: true, strict: false });
  const { $id: _id, ...schema } = meta;
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    return [problem('bad configuration', metaFile, '', `not a valid JSON Schema (${(error as Error).message})`, `correct schemas/${metaFile}`)];
  }
  if (validate(data)) return [];
  return (validate.errors ?? []).map((error) => {
    const params = error.params as { additionalProperty?: string; missingProperty?: string; allowedValues?: unknown[] };
    const named = params.additionalProperty ?? params.missingProperty;
    const where = [...error.instancePath.split('/').filter(Boolean), ...(named ? [named] : [])].join('.');
    const detail = error.keyword === 'additionalProperties'
      ? 'an unknown property'
      : error.keyword === 'required'
        ? 'required but missing'
        : `${error.message ?? 'invalid'}${params.allowedValues ? ` (${params.allowedValues.join(', ')})` : ''}`;
    return problem(kind, file, where, `not valid against schemas/${metaFile}: ${detail}`, `correct it so the file matches schemas/${metaFile}`);
  });
}
