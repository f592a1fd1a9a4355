/**
 * check:schemas on the application file's items (schemas/file-items.json): the real file
 * passes; a copy broken in one place fails naming the file, the item or text and the fix:
 * the file against its schema, a duplicate id, a required_when on no question, with a
 * misspelt operator or with an option's title for its code, a placeholder the application
 * does not fill, a missing or mis-placeholdered Spanish text. The Spanish reaches the
 * server's texts and the client's Spanish build.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { formatProblem, runSchemaCheck, type Problem } from '../../scripts/schema-check/index.ts';
import { schemasDir } from '../../scripts/schema-files.ts';
import fileItems from '../../schemas/file-items.json';
import serverSpanish from '../../src/shared/generated/i18n-es-server.json';
import clientSpanish from '../../src/shared/generated/es/schemas/file-items.json';
import { fileIn } from '../../src/server/i18n/language-texts.ts';

type Json = Record<string, any>;

const work = mkdtempSync(join(tmpdir(), 'schema-file-items-'));
let counter = 0;

function checkCopy(edit: (dir: string) => void): Problem[] {
  const dir = join(work, `case-${++counter}`);
  cpSync(schemasDir, dir, { recursive: true });
  edit(dir);
  process.env.SCHEMAS_DIR = dir;
  return runSchemaCheck().errors;
}

function editJson(dir: string, file: string, change: (json: Json) => void): void {
  const path = join(dir, file);
  const json = JSON.parse(readFileSync(path, 'utf8')) as Json;
  change(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

const lines = (problems: Problem[]) => problems.map(formatProblem);

afterEach(() => {
  delete process.env.SCHEMAS_DIR;
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('schemas/file-items.json', () => {
  it('passes as it is', () => {
    expect(lines(runSchemaCheck().errors).filter((line) => line.includes('file-items'))).toEqual([]);
  });

  it('is checked against its schema', () => {
    const errors = lines(checkCopy((dir) => editJson(dir, 'file-items.json', (json) => {
      json.items[0].provided_by = ['postman'];
      delete json.decision_days;
    })));
    expect(errors.some((line) => line.includes('schemas/file-items.json: "items.0.provided_by.0"') && line.includes('meta/file-items.schema.json'))).toBe(true);
    expect(errors.some((line) => line.includes('"decision_days": not valid against schemas/meta/file-items.schema.json: required but missing'))).toBe(true);
  });

  it('refuses two items with one id', () => {
    const errors = lines(checkCopy((dir) => editJson(dir, 'file-items.json', (json) => {
      json.items[2].id = 'transcript';
    })));
    expect(errors).toContain('schemas/file-items.json: "transcript": two items have this id, so their states would be stored as one. Fix: give each item its own id (and never rename one applicants already have).');
  });

  it('refuses a required_when on a key no page asks', () => {
    const errors = lines(checkCopy((dir) => editJson(dir, 'file-items.json', (json) => {
      json.items[1].required_when = { all: [{ key: 'test_optinal', op: 'equals', value: 'Y' }] };
    })));
    expect(errors).toEqual([expect.stringContaining('schemas/file-items.json: "test_optinal": the item "test-scores" is required when "test_optinal"')]);
    expect(errors[0]).toContain('no page asks');
  });

  it('refuses a misspelt operator and an option title for its code, in words', () => {
    const op = lines(checkCopy((dir) => editJson(dir, 'file-items.json', (json) => {
      json.items[1].required_when.op = 'equal';
    })));
    expect(op).toEqual([expect.stringContaining('"op": "equal" is no operator, so this condition is never true (did you mean "equals"?)')]);
    const value = lines(checkCopy((dir) => editJson(dir, 'file-items.json', (json) => {
      json.items[1].required_when.value = 'Yes';
    })));
    expect(value).toEqual([expect.stringContaining('the condition\'s value "Yes" is no code of')]);
    expect(value[0]).toContain('write the code "Y"');
  });

  it('refuses a placeholder the application does not fill, in a text or a counselor mail', () => {
    const errors = lines(checkCopy((dir) => {
      editJson(dir, 'file-items.json', (json) => {
        json.texts.complete = 'Your file is complete. Expect a decision by {deadline}.';
        json.items[0].counselor_request.subject = '{student} asks you for their transcript';
      });
      editJson(dir, 'i18n/es/file-items.json', (json) => {
        json.texts.complete = 'Su expediente está completo. Recibirá una decisión a más tardar el {deadline}.';
        json.items[0].counselor_request.subject = '{student} le pide su certificado de notas';
      });
    }));
    expect(errors).toContain('schemas/file-items.json: "texts.complete": the text names {deadline}, which the application does not fill. Fix: use only {date}.');
    expect(errors.find((line) => line.includes('"transcript": its counselor_request subject names {student}'))).toContain('{applicant}, {school}');
  });

  it('refuses an item or text with no Spanish, or with other placeholders in Spanish', () => {
    const errors = lines(checkCopy((dir) => {
      editJson(dir, 'file-items.json', (json) => {
        json.items.push({ id: 'portfolio', title: 'Portfolio', description: 'Upload your portfolio.', provided_by: ['applicant'], required: false });
      });
      editJson(dir, 'i18n/es/file-items.json', (json) => {
        delete json.texts.heading;
        json.texts.intro = json.texts.intro.replace('{days}', '{dias}');
      });
    }));
    expect(errors).toEqual(expect.arrayContaining([
      expect.stringContaining('schemas/i18n/es/file-items.json: "items[id=portfolio].title": no es text for "Portfolio"'),
      expect.stringContaining('schemas/i18n/es/file-items.json: "items[id=portfolio].description": no es text'),
      expect.stringContaining('schemas/i18n/es/file-items.json: "texts.heading": no es text for "Your application file"'),
      expect.stringContaining('"texts.intro": the placeholders differ: English has {days}, es has {dias}'),
    ]));
  });
});

describe('the Spanish texts of the file', () => {
  it('reach the server (fileIn) and the client\'s Spanish build, merged by item id', () => {
    expect((serverSpanish.files as Record<string, unknown>)['file-items.json']).toBeDefined();
    const spanish = fileIn('es', 'file-items.json', fileItems);
    expect(spanish.texts.heading).toBe('Su expediente de solicitud');
    expect(spanish.items.find((item) => item.id === 'transcript')!.title).toBe('Certificado oficial de notas de la escuela secundaria');
    // codes and rules stay as they are
    expect(spanish.items.find((item) => item.id === 'test-scores')!.required_when).toEqual(fileItems.items[1]!.required_when);
    expect(clientSpanish.texts.required).toBe('Obligatorio');
    expect(clientSpanish.items.map((item) => item.id)).toEqual(fileItems.items.map((item) => item.id));
  });
});
