/**
 * Expands the authored schema files (pages with $ref'd definitions, prefixes, instances,
 * repeaters) into final, flat answer keys. Used by the form-model generator and by the
 * schema check, so both see the form the same way.
 */
import { dirname, join, normalize } from 'node:path';
import { numberKey } from '../../src/shared/answers/key-naming.ts';
import { readJson } from '../schema-files.ts';

export type Json = Record<string, any>;

export class SchemaError extends Error {
  constructor(readonly file: string, readonly key: string, message: string, readonly fix: string) {
    super(`${file}: ${key ? `"${key}": ` : ''}${message}\n    fix: ${fix}`);
  }
}

/** A scope: a definition (or page) being expanded, and how its base keys become final keys. */
export interface Scope {
  file: string;
  local(base: string): string;
  parent: Scope | undefined;
  /** final keys produced inside this scope */
  produced: Set<string>;
  /** base names declared inside this scope (leaves at any depth) */
  declared: Set<string>;
  instance: number;
  texts: Record<string, string>;
}

export function finalKey(scope: Scope, base: string): string {
  let key = base;
  for (let current: Scope | undefined = scope; current; current = current.parent) key = current.local(key);
  return key;
}

/** A key named in a rule or condition: the scope's own key if it declares it, else an outer one's, else as written. */
export function resolveKey(scope: Scope, key: string): string {
  for (let current: Scope | undefined = scope; current; current = current.parent) {
    if (current.declared.has(key)) return finalKey(current, key);
  }
  return key;
}

export function fillText(text: string, scope: Scope): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => scope.texts[name] ?? whole);
}

/** A $ref written in `fromFile`, as a path under schemas/ (refs already rooted stay as they are). */
export function rootedRef(fromFile: string, ref: string): string {
  return /^(definitions|options)\//.test(ref) ? ref : normalize(join(dirname(fromFile), ref));
}

/** Rewrites every $ref in a definition's schema so it no longer depends on where it was written. */
function rootRefs(fromFile: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => rootRefs(fromFile, item));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) =>
    [key, key === '$ref' && typeof item === 'string' ? rootedRef(fromFile, item) : rootRefs(fromFile, item)]));
}

export function loadRef(fromFile: string, ref: string): { file: string; json: Json } {
  const file = rootedRef(fromFile, ref);
  try {
    return { file, json: readJson<Json>(file) };
  } catch (error) {
    throw new SchemaError(fromFile, '', `$ref "${ref}" cannot be read (${(error as Error).message})`, `point $ref at an existing file under schemas/`);
  }
}

export function isDefinitionRef(ref: unknown): ref is string {
  return typeof ref === 'string' && /(^|\/)definitions\//.test(ref) || (typeof ref === 'string' && ref.endsWith('.schema.json'));
}

export function isOptionsRef(ref: unknown): ref is string {
  return typeof ref === 'string' && /(^|\/)options\//.test(ref);
}

/** The schema of a property with its definition merged in (use site wins), and the definition's ui. */
export function mergeDefinition(file: string, raw: Json): { schema: Json; ui: Json; defFile: string } {
  const loaded = loadRef(file, raw.$ref as string);
  const defFile = loaded.file;
  const def = rootRefs(defFile, loaded.json) as Json;
  let ui: Json = {};
  try {
    ui = readJson<Json>(defFile.replace(/\.schema\.json$/, '.ui.json'));
  } catch {
    ui = {};
  }
  const { $ref: _ref, ...site } = raw;
  const properties: Json = { ...(def.properties ?? {}) };
  for (const [group, extra] of Object.entries((site['x-add-properties'] ?? {}) as Json)) {
    if (!properties[group]) throw new SchemaError(file, group, 'x-add-properties names a group the definition does not have', `use one of: ${Object.keys(properties).join(', ')}`);
    properties[group] = { ...properties[group], properties: { ...(properties[group].properties ?? {}), ...extra } };
  }
  for (const [name, override] of Object.entries((site['x-override'] ?? {}) as Json)) {
    if (!properties[name]) throw new SchemaError(file, name, 'x-override names a property the definition does not have', `use one of: ${Object.keys(properties).join(', ')}`);
    properties[name] = { ...properties[name], ...override };
  }
  for (const name of (site['x-exclude-properties'] ?? []) as string[]) delete properties[name];
  // a definition's description is a note for staff; a use site may give the applicant one
  const { description: _note, ...defWithoutNote } = def;
  const schema: Json = {
    ...defWithoutNote,
    ...site,
    properties,
    required: [...(def.required ?? []), ...(site.required ?? [])],
    allOf: [...(def.allOf ?? []), ...(site.allOf ?? [])],
    errorMessage: mergeErrorMessages(def.errorMessage, site.errorMessage),
    'x-prefixes': site['x-prefixes'] ?? def['x-prefixes'],
  };
  return { schema, ui, defFile };
}

function mergeErrorMessages(a: unknown, b: unknown): Json | undefined {
  if (!a && !b) return undefined;
  const left = (a ?? {}) as Json;
  const right = (b ?? {}) as Json;
  return { ...left, ...right, required: { ...(left.required ?? {}), ...(right.required ?? {}) } };
}

/** Base names of every leaf under a schema object (for scoping), following definitions. */
export function declaredNames(file: string, schema: Json, names = new Set<string>()): Set<string> {
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Json)) {
    if (isDefinitionRef(child.$ref)) {
      names.add(name);
      continue;
    }
    if (child.type === 'object' || child.properties) {
      names.add(name);
      declaredNames(file, child, names);
    } else {
      names.add(name);
    }
  }
  return names;
}

export function makeScope(options: {
  file: string; parent: Scope | undefined; schema: Json; instance?: number; texts?: Record<string, string>;
}): Scope {
  const { file, parent, schema } = options;
  const prefix = (schema['x-prefix'] ?? '') as string;
  const rename = (schema['x-rename'] ?? {}) as Record<string, string>;
  const prefixes = (schema['x-prefixes'] ?? []) as string[];
  const instance = options.instance ?? (schema['x-instance'] as number | undefined) ?? 1;
  const declared = declaredNames(file, schema);
  return {
    file,
    parent,
    produced: new Set(),
    declared,
    instance,
    texts: { ...(parent?.texts ?? {}), ...(options.texts ?? {}), n: String(instance) },
    // own names get the prefix and renames; every key from inside is numbered
    local(key) {
      const named = declared.has(key) ? prefix + (rename[key] ?? key) : key;
      return instance > 1 ? numberKey(named, prefixes, instance) : named;
    },
  };
}
