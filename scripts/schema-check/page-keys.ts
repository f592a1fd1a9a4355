/**
 * The answer keys each page produces, with where each one is written. It walks the page
 * schemas with the generator's own expansion (scripts/generate/expand.ts: definitions,
 * x-prefix, x-rename, x-instance, x-repeat, x-prefixes), so the check and the form agree,
 * but it does not stop at the first problem and it works even when the form cannot be built.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  SchemaError, finalKey, isDefinitionRef, makeScope, mergeDefinition, rootedRef, type Json, type Scope,
} from '../generate/expand.ts';
import type { SchemaTree } from './load.ts';
import { problem, type Problem } from './problems.ts';

export interface KeyOrigin {
  key: string;
  page: string;
  pageFile: string;
  /** the file the question is written in (the page, or a definition it uses) */
  writtenIn: string;
  /** the property name as written */
  name: string;
  /** the question's schema as merged at the use site */
  schema: Json;
  /** how a use site changed the name: 'x-prefix "sat_"', 'x-rename "test_month" -> "intended_month"' */
  transform?: string;
}

/** One use of a definition, with the prefixes that number its keys and the keys it produced. */
export interface DefinitionUse {
  page: string;
  /** where "x-prefixes" is written: the use site (page) or the definition */
  prefixesFile: string;
  definitionFile: string;
  prefixes: string[];
  instance: number;
  keys: string[];
}

export interface PageWalk {
  page: string;
  file: string;
  keys: KeyOrigin[];
  uses: DefinitionUse[];
  problems: Problem[];
}

interface Frame {
  scope: Scope;
  writtenIn: string;
  prefix: string;
  rename: Record<string, string>;
  uses: DefinitionUse[];
}

export function walkPage(tree: SchemaTree, page: string): PageWalk {
  const file = `pages/${page}.schema.json`;
  const result: PageWalk = { page, file, keys: [], uses: [], problems: [] };
  const schema = tree.files.get(file);
  if (!schema) return result; // reported by the configuration check
  const seen = new Map<string, KeyOrigin>();

  const visit = (name: string, raw: Json, frame: Frame, instance?: number): void => {
    if (!raw || typeof raw !== 'object') return;
    const repeat = raw['x-repeat'] as Json | undefined;
    if (repeat) {
      const { ['x-repeat']: _repeat, ...single } = raw;
      const max = typeof repeat.max === 'number' && Number.isInteger(repeat.max) && repeat.max >= 1 && repeat.max <= 10 ? repeat.max : 1;
      for (let n = 1; n <= max; n++) visit(name, single, frame, n);
      return;
    }
    if (isDefinitionRef(raw.$ref)) {
      const target = rootedRef(frame.writtenIn, raw.$ref);
      if (!existsSync(join(tree.dir, target))) return; // reported by the configuration check
      let merged: { schema: Json; defFile: string };
      try {
        merged = mergeDefinition(frame.writtenIn, raw);
      } catch (error) {
        if (!(error instanceof SchemaError)) throw error;
        result.problems.push(problem('bad configuration', error.file, error.key, error.message.split('\n')[0]!.replace(/^[^:]+: ("[^"]*": )?/, ''), error.fix));
        return;
      }
      const inner = makeScope({ file, parent: frame.scope, schema: merged.schema, instance });
      const use: DefinitionUse = {
        page,
        prefixesFile: raw['x-prefixes'] ? frame.writtenIn : merged.defFile,
        definitionFile: merged.defFile,
        prefixes: (merged.schema['x-prefixes'] ?? []) as string[],
        instance: inner.instance,
        keys: [],
      };
      result.uses.push(use);
      const child: Frame = {
        scope: inner,
        writtenIn: merged.defFile,
        prefix: String(merged.schema['x-prefix'] ?? ''),
        rename: (merged.schema['x-rename'] ?? {}) as Record<string, string>,
        uses: [...frame.uses, use],
      };
      for (const [childName, grandchild] of Object.entries((merged.schema.properties ?? {}) as Json)) visit(childName, grandchild, child);
      return;
    }
    if (raw.type === 'object' || raw.properties) {
      for (const [childName, grandchild] of Object.entries((raw.properties ?? {}) as Json)) visit(childName, grandchild, frame, instance);
      return;
    }
    const key = finalKey(frame.scope, name);
    const renamed = frame.rename[name];
    const transform = [
      frame.prefix ? `x-prefix "${frame.prefix}"` : '',
      renamed ? `x-rename "${name}" -> "${renamed}"` : '',
    ].filter(Boolean).join(' and ') || undefined;
    const origin: KeyOrigin = { key, page, pageFile: file, writtenIn: frame.writtenIn, name, schema: raw, ...(transform ? { transform } : {}) };
    const earlier = seen.get(key);
    if (earlier) {
      const numbered = [...frame.uses].reverse().find((use) => use.instance > 1);
      if (numbered) {
        result.problems.push(problem('prefix not part of key', numbered.prefixesFile, key,
          `instance ${numbered.instance} of schemas/${numbered.definitionFile} repeats this key of instance 1, because the key does not start with any of its "x-prefixes" (${numbered.prefixes.map((prefix) => `"${prefix}"`).join(', ') || 'none'})`,
          `list a prefix the key starts with in "x-prefixes", or rename the key so it starts with one`));
      } else {
        result.problems.push(problem('bad configuration', file, key,
          `asked twice on the page (${earlier.writtenIn === frame.writtenIn ? `both in ${frame.writtenIn}` : `in ${earlier.writtenIn} and ${frame.writtenIn}`})`,
          'remove one of the two questions, or give one a prefix (x-prefix)'));
      }
      return;
    }
    seen.set(key, origin);
    result.keys.push(origin);
    for (const use of frame.uses) use.keys.push(key);
  };

  const scope = makeScope({ file, parent: undefined, schema });
  const top: Frame = { scope, writtenIn: file, prefix: String(schema['x-prefix'] ?? ''), rename: (schema['x-rename'] ?? {}) as Record<string, string>, uses: [] };
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Json)) visit(name, raw, top);
  return result;
}

export function walkPages(tree: SchemaTree): PageWalk[] {
  return tree.steps.filter((step) => tree.files.has(step.schemaFile)).map((step) => walkPage(tree, step.id));
}
