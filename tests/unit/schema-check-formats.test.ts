/**
 * check:schemas --format json and --format github: a CI system puts each problem on the
 * line that caused it, so the line and column must be those of the key in the JSON source.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { schemasDir } from '../../scripts/schema-files.ts';

const root = resolve(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'schema-check-formats-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let counter = 0;
function copyWith(file: string, edit: (text: string) => string): string {
  const dir = join(work, `case-${++counter}`);
  cpSync(schemasDir, dir, { recursive: true });
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  return dir;
}

function runCli(format: string, dir?: string) {
  const env = { ...process.env };
  if (dir) env.SCHEMAS_DIR = dir;
  else delete env.SCHEMAS_DIR;
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-schemas.ts', '--format', format], { cwd: root, env, encoding: 'utf8' });
}

/** The page with a question the data model does not list, written on a line of its own. */
const unknownQuestion = (dir?: string) => dir ?? copyWith('pages/about.schema.json', (text) => {
  const page = JSON.parse(text);
  page.properties.personal.properties.parent_3_name = { title: 'Parent 3', type: 'string' };
  return JSON.stringify(page, null, 2);
});

function lineOf(dir: string, file: string, line: number): string {
  return readFileSync(join(dir, file.replace(/^schemas\//, '')), 'utf8').split('\n')[line - 1]!;
}

describe('check:schemas --format json', () => {
  it('on sound schemas: ok, no problems, exit 0', () => {
    const run = runCli('json');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ ok: true, errors: [], warnings: [], pages: 3, formBuilt: true });
  });

  it('names the file, key, fix, line and column of the key as written', () => {
    const dir = unknownQuestion();
    const run = runCli('json', dir);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.ok).toBe(false);
    const found = report.errors.find((item: { key: string }) => item.key === 'parent_3_name');
    expect(found).toMatchObject({ kind: 'bad configuration', file: 'schemas/pages/about.schema.json', fix: expect.stringContaining('add it there') });
    const line: string = lineOf(dir, found.file, found.line);
    expect(line.slice(found.column - 1)).toMatch(/^"parent_3_name":/);
  });

  it('a file that does not parse points at its syntax error', () => {
    const dir = copyWith('options/countries.json', (text) => text.replace(/"\s*,/, '" ,,'));
    const report = JSON.parse(runCli('json', dir).stdout);
    const found = report.errors.find((item: { file: string }) => item.file === 'schemas/options/countries.json');
    expect(found.message).toMatch(/not valid JSON/);
    expect(lineOf(dir, found.file, found.line).slice(found.column - 1)).toMatch(/^,/);
  });
});

/**
 * Two slips in a conditional rule that used to pass every check and stop applicants: a misspelt
 * operator, and a value written as the option's label where answers are stored as codes.
 */
const ruleSlips = () => copyWith('pages/about.ui.json', (text) => {
  const ui = JSON.parse(text);
  ui.mailing.mailing_addr_effective_date['ui:hideWhen'].op = 'notEqual';
  ui.military.military_branch = { ...ui.military.military_branch, 'ui:hideWhen': { key: 'military_status', op: 'equals', value: 'No U.S. military affiliation' } };
  return JSON.stringify(ui, null, 2);
});

/** A Spanish text removed, however short ("12.º" for "12th"). */
const shortTextUntranslated = () => copyWith('i18n/es/definitions/honor.schema.json', (text) => {
  const overlay = JSON.parse(text);
  delete overlay.properties.honors_grades.properties.honors_senior;
  return JSON.stringify(overlay, null, 2);
});

describe('check:schemas refuses a rule that cannot work, on its line', () => {
  it('in text: file, line and column of the operator and of the value, the operators and the codes', () => {
    const dir = ruleSlips();
    const run = runCli('text', dir);
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').map((line) => line.trim());
    const operator = lines.find((line) => line.includes('"notEqual" is no operator'))!;
    const [, file, line, column] = /^schemas\/(\S+?):(\d+):(\d+): /.exec(operator) ?? [];
    expect(file).toBe('pages/about.ui.json');
    expect(lineOf(dir, file!, Number(line)).slice(Number(column) - 1)).toMatch(/^"op": "notEqual"/);
    expect(operator).toContain('did you mean "notEquals"?');
    const value = lines.find((line) => line.includes('"No U.S. military affiliation" is no code'))!;
    const [, valueFile, valueLine, valueColumn] = /^schemas\/(\S+?):(\d+):(\d+): /.exec(value) ?? [];
    expect(lineOf(dir, valueFile!, Number(valueLine)).slice(Number(valueColumn) - 1)).toMatch(/^"value": "No U.S. military affiliation"/);
    expect(value).toContain('"6" (No U.S. military affiliation)');
    expect(value).toContain('Fix: write the code "6"');
  });

  it('in the CI format: one annotation on each line', () => {
    const dir = ruleSlips();
    const run = runCli('github', dir);
    expect(run.status).toBe(1);
    const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::error '));
    for (const [needle, written] of [['"notEqual" is no operator', /^"op": "notEqual"/], ['is no code', /^"value": "No U.S. military affiliation"/]] as const) {
      const found = annotations.find((line) => line.includes(needle));
      const match = /^::error file=schemas\/(\S+?),line=(\d+),col=(\d+),/.exec(found ?? '');
      expect(match, run.stdout).not.toBeNull();
      expect(lineOf(dir, match![1]!, Number(match![2])).slice(Number(match![3]) - 1)).toMatch(written);
    }
  });
});

describe('check:schemas finds a missing Spanish text however short, on its line in every format', () => {
  it('text, JSON and CI formats all place it on the English text', () => {
    const dir = shortTextUntranslated();
    const text = runCli('text', dir).stderr.split('\n').map((line) => line.trim()).find((line) => line.includes('no es text for "12th"'))!;
    const [, file, line, column] = /^schemas\/(\S+?):(\d+):(\d+): /.exec(text) ?? [];
    expect(file).toBe('definitions/honor.schema.json');
    expect(lineOf(dir, file!, Number(line)).slice(Number(column) - 1)).toMatch(/^"title": "12th"/);
    expect(text).toContain('Fix: add "properties.honors_grades.properties.honors_senior.title" to schemas/i18n/es/definitions/honor.schema.json');

    const json = JSON.parse(runCli('json', dir).stdout).errors.find((item: { message: string }) => item.message.includes('"12th"'));
    expect(json).toMatchObject({ kind: 'missing translation', file: 'schemas/i18n/es/definitions/honor.schema.json', sourceFile: 'schemas/definitions/honor.schema.json', line: Number(line), column: Number(column) });

    const annotation = runCli('github', dir).stdout.split('\n').find((entry) => entry.includes('12th'));
    expect(annotation).toMatch(new RegExp(`^::error file=schemas/definitions/honor\\.schema\\.json,line=${line},col=${column},`));
  });
});

describe('check:schemas --format github', () => {
  it('one error annotation per problem, on the file, line and column of the key', () => {
    const dir = unknownQuestion();
    const run = runCli('github', dir);
    expect(run.status).toBe(1);
    const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::error '));
    const ours = annotations.find((line) => line.includes('parent_3_name'));
    const match = /^::error file=schemas\/pages\/about\.schema\.json,line=(\d+),col=(\d+),title=check%3Aschemas%3A bad configuration::schemas\/pages\/about\.schema\.json: "parent_3_name": not in the data model/.exec(ours ?? '');
    expect(match, run.stdout).not.toBeNull();
    expect(lineOf(dir, 'pages/about.schema.json', Number(match![1])).slice(Number(match![2]) - 1)).toMatch(/^"parent_3_name":/);
  });

  it('on sound schemas: no annotation and the one-line summary', () => {
    const run = runCli('github');
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(/^::/m);
    expect(run.stdout).toMatch(/^check:schemas OK: 3 pages/m);
  });

  it('an unknown format is refused with the formats it knows', () => {
    const run = runCli('xml');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--format must be one of text, json, github/);
  });
});
