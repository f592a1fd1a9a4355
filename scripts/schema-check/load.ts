/**
 * Reads the schema tree the checks look at: every JSON file under the schemas directory
 * (schemas/, or SCHEMAS_DIR), parsed, plus the page list of the frame. Unreadable files
 * become problems here, so each check can assume parsed JSON.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from '../generate/expand.ts';
import { currentSchemasDir } from '../schema-files.ts';
import { problem, type Problem } from './problems.ts';

export interface PageStep {
  id: string;
  path: string;
  schemaFile: string;
  uiFile: string;
}

export interface SchemaTree {
  dir: string;
  /** parsed JSON by path under the schemas directory, e.g. "pages/about.schema.json" */
  files: Map<string, Json>;
  /** the application pages, from text/frame.json "steps" */
  steps: PageStep[];
  problems: Problem[];
}

function listFiles(dir: string, relative = ''): string[] {
  const here = join(dir, relative);
  if (!existsSync(here)) return [];
  return readdirSync(here).sort().flatMap((name) => {
    const path = relative ? `${relative}/${name}` : name;
    if (statSync(join(dir, path)).isDirectory()) return listFiles(dir, path);
    return name.endsWith('.json') ? [path] : [];
  });
}

export function loadTree(dir: string = currentSchemasDir()): SchemaTree {
  const files = new Map<string, Json>();
  const problems: Problem[] = [];
  for (const path of listFiles(dir)) {
    try {
      files.set(path, JSON.parse(readFileSync(join(dir, path), 'utf8')) as Json);
    } catch (error) {
      problems.push(problem('bad configuration', path, '', `not valid JSON (${(error as Error).message})`, 'correct the JSON syntax (a missing comma or quote, a trailing comma)'));
    }
  }
  const steps: PageStep[] = [];
  const frame = files.get('text/frame.json');
  if (!frame) {
    if (!problems.some((item) => item.file === 'text/frame.json')) {
      problems.push(problem('missing configuration', 'text/frame.json', '', 'the frame text with the list of pages ("steps") is missing', 'restore schemas/text/frame.json'));
    }
  } else if (!Array.isArray(frame.steps)) {
    problems.push(problem('missing configuration', 'text/frame.json', 'steps', 'has no "steps" list, so no page is known', 'add "steps": [{ "path": "/about", "label": "About You" }, ...]'));
  } else {
    for (const step of frame.steps as Json[]) {
      if (typeof step?.path !== 'string' || !/^\/[a-z0-9-]+$/.test(step.path)) {
        problems.push(problem('missing configuration', 'text/frame.json', String(step?.path ?? ''), 'a step needs a "path" such as "/about"', 'give each step a "path" made of "/" and the page name'));
        continue;
      }
      const id = step.path.slice(1);
      steps.push({ id, path: step.path, schemaFile: `pages/${id}.schema.json`, uiFile: `pages/${id}.ui.json` });
    }
  }
  return { dir, files, steps, problems };
}

const SCHEMA_KEYWORDS = new Set([
  'properties', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'items', 'required', 'errorMessage', 'when',
  'all', 'any', 'definitions', 'tabs', 'groups', 'keep', 'fields',
]);

/** A name that is a property (or answer key), not a keyword of the schema or ui language. */
function isPropertyName(name: string): boolean {
  return !SCHEMA_KEYWORDS.has(name) && !/^\d+$/.test(name) && !/^(ui:|x-|\$)/.test(name);
}

/** Calls `visit` on every object in a JSON value with the nearest property name it sits under. */
export function walkJson(value: unknown, visit: (node: Json, property: string) => void, property = ''): void {
  if (Array.isArray(value)) {
    value.forEach((item) => walkJson(item, visit, property));
    return;
  }
  if (!value || typeof value !== 'object') return;
  visit(value as Json, property);
  for (const [name, child] of Object.entries(value as Json)) walkJson(child, visit, isPropertyName(name) ? name : property);
}
