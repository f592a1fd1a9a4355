import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { authForms, readJson } from '../schema-files.ts';
import { expandedDataModel } from './data-model.ts';

const bannerComment = '/* Generated from schemas/ by scripts/generate.ts. Do not edit by hand. */';

/** Replaces `$ref`s to our own schema ids with the referenced schema, so compile() sees plain types. */
function inlineRefs(schema: unknown, lookup: (ref: string) => unknown): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(item, lookup));
  if (!schema || typeof schema !== 'object') return schema;
  const object = schema as Record<string, unknown>;
  if (typeof object.$ref === 'string') return inlineRefs(lookup(object.$ref), lookup);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === 'errorMessage' || key === '$id') continue;
    if (key === 'const' && value && typeof value === 'object' && '$data' in value) continue; // compares to another field
    copy[key] = inlineRefs(value, lookup);
  }
  return copy;
}

function pointer(root: unknown, path: string): unknown {
  return path.split('/').filter(Boolean).reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], root);
}

export async function generateTypes(): Promise<string> {
  const definitions = readJson('auth/definitions.json');
  const lookup = (ref: string): unknown => {
    const [id, path = ''] = ref.split('#');
    if (id !== 'definitions') throw new Error(`unknown $ref ${ref}`);
    return pointer(definitions, path);
  };
  const options = { bannerComment: '', additionalProperties: false, strictIndexSignatures: true, format: false };
  const parts = [bannerComment];
  parts.push(await compile(readJson<JSONSchema>('meta/partner.schema.json'), 'Partner', options));
  parts.push(await compile(readJson<JSONSchema>('meta/banners.schema.json'), 'Banners', options));
  parts.push(await compile(readJson<JSONSchema>('meta/deadlines.schema.json'), 'Deadlines', options));
  parts.push(await compile(readJson<JSONSchema>('meta/reminders.schema.json'), 'Reminders', options));
  parts.push(await compile(readJson<JSONSchema>('meta/data-model.schema.json'), 'DataModel', options));
  parts.push(await compile(answersSchema(), 'Answers', options));
  for (const { name, file } of authForms()) {
    const typeName = `${name[0]!.toUpperCase()}${name.slice(1)}Form`;
    const schema = { ...(inlineRefs(file.schema, lookup) as object), title: typeName, additionalProperties: false };
    parts.push(await compile(schema as JSONSchema, typeName, options));
  }
  return parts.join('\n');
}

/** Every answer key with its stored type; coded answers have their _desc companion. */
function answersSchema(): JSONSchema {
  const properties: Record<string, JSONSchema> = {};
  for (const [key, entry] of Object.entries(expandedDataModel().keys)) {
    properties[key] = entry.type === 'boolean' ? { type: 'boolean' } : { type: 'string' };
    if (entry.type === 'code') properties[`${key}_desc`] = { type: 'string' };
  }
  return { title: 'Answers', description: 'The answers of one applicant, by key (schemas/data-model.json).', type: 'object', properties, additionalProperties: false };
}
