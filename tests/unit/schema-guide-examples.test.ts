/**
 * The staff guide's worked examples (schemas/README.md) are tried for real: every JSON snippet
 * is read from the guide itself, applied in order to a copy of schemas/, and after each
 * example the generator and the schema check run on the copy and must pass. A guide whose
 * JSON no longer fits the files fails here, so it cannot drift from them.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { generateAll } from '../../scripts/generate/run.ts';
import { formatProblem, runSchemaCheck } from '../../scripts/schema-check/index.ts';
import { schemasDir } from '../../scripts/schema-files.ts';

type Json = Record<string, unknown>;

interface Snippet {
  /** apply: added to what is there; create: a new file; replace: in place of what is there; remove: the entries (by identity) or keys named */
  action: 'apply' | 'create' | 'replace' | 'remove';
  file: string;
  /** JSON pointer of the object or list the snippet is added to; "/" is the file itself */
  at: string;
  json: unknown;
}

interface Example {
  heading: string;
  snippets: Snippet[];
}

const root = resolve(import.meta.dirname, '..', '..');
const guide = readFileSync(join(schemasDir, 'README.md'), 'utf8');

/** The guide's numbered sections, each with the snippets marked `<!-- apply: FILE POINTER -->`. */
function examplesOf(markdown: string): Example[] {
  const sections = markdown.split(/^## /m).slice(1).filter((section) => /^\d+\. /.test(section));
  return sections.map((section) => ({
    heading: section.slice(0, section.indexOf('\n')),
    snippets: [...section.matchAll(/<!-- (apply|create|replace|remove): (\S+) ?(\S*) -->\s*```json\n([\s\S]*?)```/g)].map((match) => ({
      action: match[1] as Snippet['action'],
      file: match[2]!,
      at: match[3] || '/',
      json: JSON.parse(match[4]!) as unknown,
    })),
  }));
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Adds `addition` to `target` as the guide tells a reader to: lists grow, objects take the new entries, values are replaced. */
function addTo(target: unknown, addition: unknown): unknown {
  if (Array.isArray(target) && Array.isArray(addition)) return [...target, ...addition];
  if (isObject(target) && isObject(addition)) {
    const merged: Json = { ...target };
    for (const [key, value] of Object.entries(addition)) merged[key] = key in target ? addTo(target[key], value) : value;
    return merged;
  }
  return addition;
}

/** What `remove` leaves of `target`: a list without the entries matching one of `named` (by their fields), an object without the keys named. */
function without(target: unknown, named: unknown): unknown {
  const names = named as unknown[];
  if (Array.isArray(target)) {
    return target.filter((entry) => !names.some((name) => isObject(name) && isObject(entry) && Object.entries(name).every(([field, value]) => entry[field] === value)));
  }
  expect(isObject(target), 'the guide removes keys from an object or entries from a list').toBe(true);
  return Object.fromEntries(Object.entries(target as Json).filter(([key]) => !names.includes(key)));
}

function apply(dir: string, snippet: Snippet): void {
  const path = join(dir, snippet.file);
  if (snippet.action === 'create') {
    expect(existsSync(path), `${snippet.file}: the guide creates it, but it is there already`).toBe(false);
    writeFileSync(path, JSON.stringify(snippet.json, null, 2));
    return;
  }
  const change = (target: unknown) => (snippet.action === 'replace' ? snippet.json : snippet.action === 'remove' ? without(target, snippet.json) : addTo(target, snippet.json));
  const file = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const steps = snippet.at.split('/').filter(Boolean);
  if (steps.length === 0) {
    writeFileSync(path, JSON.stringify(change(file), null, 2));
    return;
  }
  let parent = file as Json;
  for (const step of steps.slice(0, -1)) {
    expect(parent[step], `${snippet.file}: the guide names ${snippet.at}, which is not there`).toBeDefined();
    parent = parent[step] as Json;
  }
  const last = steps[steps.length - 1]!;
  expect(parent[last], `${snippet.file}: the guide names ${snippet.at}, which is not there`).toBeDefined();
  parent[last] = change(parent[last]);
  writeFileSync(path, JSON.stringify(file, null, 2));
}

const work = mkdtempSync(join(tmpdir(), 'schema-guide-'));
const copy = join(work, 'schemas');
const generated = join(work, 'generated');
cpSync(schemasDir, copy, { recursive: true });

afterEach(() => {
  delete process.env.SCHEMAS_DIR;
  delete process.env.GENERATED_DIR;
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const examples = examplesOf(guide);

describe('the staff guide (schemas/README.md)', () => {
  it('has the seven worked examples, each with its JSON', () => {
    expect(examples.map((example) => example.heading)).toEqual([
      '1. Change a label', '2. Add a question', '3. Add an option', '4. Add a conditional rule', "5. Bump a page's version",
      '6. Add a page', '7. Remove an option, and its Spanish',
    ]);
    for (const example of examples) expect(example.snippets.length, example.heading).toBeGreaterThan(0);
  });

  // in order: each example builds on the ones before, as the guide says
  for (const example of examples) {
    it(`${example.heading}: applied to a copy of the schemas, the generator and check:schemas pass`, async () => {
      for (const snippet of example.snippets) apply(copy, snippet);
      process.env.SCHEMAS_DIR = copy;
      process.env.GENERATED_DIR = generated;
      const result = runSchemaCheck();
      expect(result.errors.map(formatProblem)).toEqual([]);
      expect(result.warnings.map(formatProblem)).toEqual([]);
      expect(result.formBuilt).toBe(true);
      await generateAll();
    });
  }

  it('the examples show in the generated form: the new label, question, rule, version and page, the option taken back', () => {
    const model = readFileSync(join(generated, 'form-model.json'), 'utf8');
    expect(model).toContain('Former or Maiden Last Name (if any)');
    expect(model).toContain('Have you used another last name?');
    expect(model).not.toContain('With relatives near campus');
    expect(JSON.parse(model).pageOrder).toEqual(['about', 'education-ug', 'scholarships', 'final-steps']);
    // the steps are numbered by the generator, in their order
    expect(JSON.parse(readFileSync(join(generated, 'step-numbers.json'), 'utf8'))).toEqual({ '/about': 1, '/education-ug': 2, '/scholarships': 3, '/final-steps': 4 });
    const messages = readFileSync(join(generated, 'page-messages.json'), 'utf8');
    expect(messages).toContain('Please give the last name you used before.');
    const types = readFileSync(join(generated, 'types.ts'), 'utf8');
    expect(types).toContain('has_former_name');
    expect(JSON.parse(readFileSync(join(copy, 'pages/about.schema.json'), 'utf8')).version).toBe(2);
    // the app's own generated files and schemas were not touched
    expect(readFileSync(join(root, 'src/shared/generated/form-model.json'), 'utf8')).not.toContain('has_former_name');
  });

  it('npm run check:schemas, the command staff run, passes on the changed copy', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-schemas.ts'], {
      cwd: root, env: { ...process.env, SCHEMAS_DIR: copy }, encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^check:schemas OK: 4 pages, \d+ answer keys, 0 warnings/);
  });

  it("the guide's example of a failed check is what check:schemas prints for that mistake", () => {
    const broken = join(work, 'broken');
    cpSync(schemasDir, broken, { recursive: true });
    const question = examples[1]!.snippets.find((snippet) => snippet.file.startsWith('pages/') && snippet.file.endsWith('.schema.json'))!;
    apply(broken, question);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-schemas.ts'], {
      cwd: root, env: { ...process.env, SCHEMAS_DIR: broken }, encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    const shown = guide.match(/```\n(ERROR- [\s\S]*?)```/)![1]!.trim();
    expect(run.stderr.trim()).toBe(shown);
  });
});
