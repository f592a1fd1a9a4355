/**
 * npm run check:schemas (spec section 5, "Development-only checks"): passes on the real
 * schemas; on a copy of them broken in one place per case, fails with a message that
 * names the file, the key and the fix.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { formatProblem, runSchemaCheck, type Problem, type ProblemKind } from '../../scripts/schema-check/index.ts';
import { loadTree } from '../../scripts/schema-check/load.ts';
import { schemasDir } from '../../scripts/schema-files.ts';
import { THEME_NAMES } from '../../src/shared/form/widget-names.ts';

type Json = Record<string, any>;

const root = resolve(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'schema-check-'));
let counter = 0;

/** A copy of schemas/ with one thing broken by `edit`; the check then reads it (SCHEMAS_DIR). */
function brokenCopy(edit: (dir: string) => void): string {
  const dir = join(work, `case-${++counter}`);
  cpSync(schemasDir, dir, { recursive: true });
  edit(dir);
  return dir;
}

function editJson(dir: string, file: string, change: (json: Json) => void): void {
  const path = join(dir, file);
  const json = JSON.parse(readFileSync(path, 'utf8')) as Json;
  change(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

function checkWith(edit: (dir: string) => void): ReturnType<typeof runSchemaCheck> {
  process.env.SCHEMAS_DIR = brokenCopy(edit);
  return runSchemaCheck();
}

function find(problems: Problem[], kind: ProblemKind, file: string, key: string): Problem {
  const found = problems.find((item) => item.kind === kind && item.file === file && item.key === key);
  expect(found, `expected ${kind} on ${file} "${key}", got:\n${problems.map(formatProblem).join('\n')}`).toBeDefined();
  return found!;
}

function runCli(dir?: string): { status: number | null; stdout: string; stderr: string } {
  const env = { ...process.env };
  if (dir) env.SCHEMAS_DIR = dir;
  else delete env.SCHEMAS_DIR;
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-schemas.ts'], { cwd: root, env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

afterEach(() => {
  delete process.env.SCHEMAS_DIR;
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the real schemas', () => {
  it('pass every check, and the form is built', () => {
    const result = runSchemaCheck();
    expect(result.errors.map(formatProblem)).toEqual([]);
    expect(result.formBuilt).toBe(true);
    expect(result.pages).toBe(3);
    expect(result.keys).toBeGreaterThan(200);
    // every data-model key is asked, reserved or a document
    expect(result.warnings.map(formatProblem)).toEqual([]);
  });

  it('npm run check:schemas exits 0 with a one-line summary', () => {
    const { status, stdout } = runCli();
    expect(status).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(stdout).toMatch(/^check:schemas OK: 3 pages, \d+ answer keys, 0 warnings/);
  });

  it('uses only widget and field names the client theme provides', () => {
    const used = new Set<string>();
    const text = JSON.stringify([...runSchemaCheckFiles()]);
    for (const match of text.matchAll(/"ui:(widget|field)":"([^"]+)"/g)) used.add(`${match[1]}:${match[2]}`);
    for (const name of used) {
      const [kind, value] = name.split(':') as ['widget' | 'field', string];
      expect((kind === 'widget' ? THEME_NAMES.widgets : THEME_NAMES.fields) as readonly string[]).toContain(value);
    }
    // the fields the .ui.json files use are exactly the theme's fields
    expect([...used].filter((name) => name.startsWith('field:')).map((name) => name.slice(6)).sort()).toEqual([...THEME_NAMES.fields].sort());
  });
});

function runSchemaCheckFiles(): Json[] {
  const tree = loadTree(schemasDir);
  return [...tree.files].filter(([file]) => /^(pages|definitions)\/.*\.ui\.json$/.test(file)).map(([, json]) => json);
}

describe('(a) every answer key a page produces is in the data model', () => {
  it('a key written on the page', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.schema.json', (page) => {
      page.properties.personal.properties.parent_3_name = { title: 'Parent 3', type: 'string' };
    }));
    const found = find(result.errors, 'bad configuration', 'pages/about.schema.json', 'parent_3_name');
    expect(formatProblem(found)).toBe('schemas/pages/about.schema.json: "parent_3_name": not in the data model (schemas/data-model.json). Fix: add it there, or correct the key.');
    expect(result.formBuilt).toBe(false);
  });

  it('a key written in a definition, for each instance', () => {
    const result = checkWith((dir) => editJson(dir, 'definitions/parent.schema.json', (definition) => {
      definition.properties.parent_nickname = { title: 'Nickname', type: 'string' };
    }));
    for (const key of ['parent_nickname', 'parent_2_nickname']) {
      const found = find(result.errors, 'bad configuration', 'pages/about.schema.json', key);
      expect(found.message).toContain('written as "parent_nickname" in schemas/definitions/parent.schema.json');
    }
  });

  it('a data model that is not valid against its meta schema', () => {
    const result = checkWith((dir) => editJson(dir, 'data-model.json', (model) => {
      model.keys.first_name.type = 'text';
    }));
    const found = find(result.errors, 'bad configuration', 'data-model.json', 'keys.first_name.type');
    expect(formatProblem(found)).toContain('schemas/meta/data-model.schema.json');
  });

  it('a file that is not valid JSON', () => {
    const result = checkWith((dir) => writeFileSync(join(dir, 'definitions/honor.schema.json'), '{ "type": "object", }'));
    expect(formatProblem(find(result.errors, 'bad configuration', 'definitions/honor.schema.json', ''))).toMatch(/^schemas\/definitions\/honor\.schema\.json: not valid JSON/);
  });
});

describe('(b) extra keys: named by a rule or condition, asked by no page', () => {
  it('a ui:hideWhen condition', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.ui.json', (ui) => {
      ui.military.military_branch['ui:hideWhen'] = { key: 'militry_status', op: 'equals', value: '6' };
    }));
    const found = find(result.errors, 'extra keys', 'pages/about.ui.json', 'militry_status');
    expect(formatProblem(found)).toContain('no page asks it and it is not in the data model');
    expect(found.fix).toMatch(/correct the key/);
  });

  it('a required list', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/education-ug.schema.json', (page) => {
      page.properties.high_school.required.push('hs_gpa_weighted');
    }));
    find(result.errors, 'extra keys', 'pages/education-ug.schema.json', 'hs_gpa_weighted');
  });

  it('an allOf if/when condition in a definition', () => {
    const result = checkWith((dir) => editJson(dir, 'definitions/address.schema.json', (definition) => {
      definition.allOf[0].if.when.key = 'nation';
    }));
    find(result.errors, 'extra keys', 'definitions/address.schema.json', 'nation');
  });

  it('a clear list', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.ui.json', (ui) => {
      ui.ethnicity_race.ethnicity_hispanic_desc['ui:clearOnHide'] = ['ethnicity_hispanic_desc', 'hispanic_origin'];
    }));
    find(result.errors, 'extra keys', 'pages/about.ui.json', 'hispanic_origin');
  });

  it('a ui:hideAllBut keep list', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.ui.json', (ui) => {
      ui.parent_2['ui:hideAllBut'].keep = ['parent_relation'];
    }));
    find(result.errors, 'extra keys', 'pages/about.ui.json', 'parent_relation');
  });

  it('a key of the data model that no page asks is allowed in a condition (reserved keys)', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/final-steps.ui.json', (ui) => {
      ui.documents.supporting_document['ui:hideWhen'] = { key: 'entry_term', op: 'equals', value: 'SP2027' };
    }));
    expect(result.errors.map(formatProblem)).toEqual([]);
  });
});

describe('(c) an answer key on more than one page', () => {
  it('names both pages', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/final-steps.schema.json', (page) => {
      page.properties.documents.properties.hs_gpa = { title: 'GPA', type: 'string' };
    }));
    const found = find(result.errors, 'bad configuration', 'pages/final-steps.schema.json', 'hs_gpa');
    expect(found.message).toContain('schemas/pages/education-ug.schema.json and schemas/pages/final-steps.schema.json');
    expect(found.fix).toMatch(/one page only/);
  });
});

describe('(d) a prefix that is not part of its key', () => {
  it('a data-model prefix the key does not start with', () => {
    const result = checkWith((dir) => editJson(dir, 'data-model.json', (model) => {
      model.keys.guardian_graduate.prefix = 'parent_';
    }));
    const found = find(result.errors, 'prefix not part of key', 'data-model.json', 'guardian_graduate');
    expect(formatProblem(found)).toContain('"prefix" "parent_" is not the start of the key');
  });

  it('a definition x-prefixes entry that none of its keys starts with', () => {
    const result = checkWith((dir) => editJson(dir, 'definitions/parent.schema.json', (definition) => {
      definition['x-prefixes'] = ['parent_', 'guardan_'];
    }));
    const found = find(result.errors, 'prefix not part of key', 'definitions/parent.schema.json', 'guardan_');
    expect(found.message).toContain('not the start of any of its keys');
    // and instance 2 can no longer number guardian_graduate
    const numbered = find(result.errors, 'prefix not part of key', 'definitions/parent.schema.json', 'guardian_graduate');
    expect(numbered.message).toContain('instance 2');
  });

  it('an x-prefix that makes keys the data model does not list', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/education-ug.schema.json', (page) => {
      page.properties.tests.properties.sat['x-prefix'] = 'sats_';
    }));
    const found = find(result.errors, 'prefix not part of key', 'pages/education-ug.schema.json', 'sats_taken');
    expect(formatProblem(found)).toContain('x-prefix "sats_"');
    expect(formatProblem(found)).toContain('not in the data model');
  });

  it('an x-rename that makes a key the data model does not list', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/education-ug.schema.json', (page) => {
      page.properties.tests.properties.clt['x-rename'].test_month = 'taken_month';
    }));
    const found = find(result.errors, 'prefix not part of key', 'pages/education-ug.schema.json', 'clt_taken_month');
    expect(found.message).toContain('x-rename "test_month" -> "taken_month"');
  });
});

describe('(e) add-another maximum', () => {
  it('above 10', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/education-ug.schema.json', (page) => {
      page.properties.colleges.properties.college['x-repeat'].max = 12;
    }));
    const found = find(result.errors, 'add-another maximum', 'pages/education-ug.schema.json', 'college');
    expect(formatProblem(found)).toBe('schemas/pages/education-ug.schema.json: "college": add-another maximum 12 is above 10 (spec section 5). Fix: set "x-repeat": { "max": 10 } or less.');
  });
});

describe('(f) missing configuration', () => {
  it('a page of the frame without its .ui.json', () => {
    const result = checkWith((dir) => unlinkSync(join(dir, 'pages/final-steps.ui.json')));
    const found = find(result.errors, 'missing configuration', 'pages/final-steps.ui.json', 'final-steps');
    expect(found.message).toContain('schemas/text/frame.json "steps"');
  });

  it('a page of the frame without its .schema.json', () => {
    const result = checkWith((dir) => editJson(dir, 'text/frame.json', (frame) => {
      frame.steps.push({ path: '/essay', number: 4, label: 'Essay' });
    }));
    find(result.errors, 'missing configuration', 'pages/essay.schema.json', 'essay');
    find(result.errors, 'missing configuration', 'pages/essay.ui.json', 'essay');
  });

  it('an options $ref that does not resolve', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.schema.json', (page) => {
      page.properties.personal.properties.gender.$ref = '../options/genders.json';
    }));
    const found = find(result.errors, 'missing configuration', 'pages/about.schema.json', 'gender');
    expect(formatProblem(found)).toContain('$ref "../options/genders.json" does not resolve');
  });

  it('a definition $ref that does not resolve', () => {
    const result = checkWith((dir) => editJson(dir, 'definitions/college.schema.json', (definition) => {
      definition.properties.college_school.$ref = 'schools.schema.json';
    }));
    find(result.errors, 'missing configuration', 'definitions/college.schema.json', 'college_school');
  });

  it('a ui:widget the client theme does not provide', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.ui.json', (ui) => {
      ui.personal.gender['ui:widget'] = 'radios';
    }));
    const found = find(result.errors, 'missing configuration', 'pages/about.ui.json', 'gender');
    expect(formatProblem(found)).toContain('ui:widget "radios" is not provided by the client theme');
    expect(found.fix).toContain('radio');
  });

  it('a ui:field the client theme does not provide', () => {
    const result = checkWith((dir) => editJson(dir, 'definitions/college.ui.json', (ui) => {
      ui.college_completion['ui:field'] = 'monthAndYear';
    }));
    find(result.errors, 'missing configuration', 'definitions/college.ui.json', 'college_completion');
  });

  it('a coded answer without an option list', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.schema.json', (page) => {
      page.properties.religion.properties.religious_affiliation = { title: 'Religious Affiliation', type: 'string' };
    }));
    const found = find(result.errors, 'missing configuration', 'pages/about.schema.json', 'religious_affiliation');
    expect(found.message).toContain('without an option list or year list');
  });

  it('a ui:optionsFilter without what it filters by', () => {
    const result = checkWith((dir) => editJson(dir, 'definitions/address.ui.json', (ui) => {
      ui.state['ui:optionsFilter'] = { field: 'country', when_blank: ['USA', 'CAN'] };
    }));
    find(result.errors, 'missing configuration', 'definitions/address.ui.json', 'state');
  });

  it('partner.json not valid against schemas/meta/partner.schema.json', () => {
    const result = checkWith((dir) => editJson(dir, 'partner.json', (partner) => {
      delete partner.time_zone;
    }));
    const found = find(result.errors, 'missing configuration', 'partner.json', 'time_zone');
    expect(formatProblem(found)).toContain('schemas/meta/partner.schema.json');
  });

  it('banners.json not valid against schemas/meta/banners.schema.json', () => {
    const result = checkWith((dir) => editJson(dir, 'banners.json', (banners) => {
      banners.banners[0].start = '12/16/2024';
    }));
    find(result.errors, 'missing configuration', 'banners.json', 'banners.0.start');
  });

  it('a banner or reminder rule naming a deadline deadlines.json does not have', () => {
    const result = checkWith((dir) => {
      editJson(dir, 'banners.json', (banners) => { banners.banners[0].deadline = 'deadline-june'; });
      editJson(dir, 'reminders.json', (reminders) => { reminders.rules[0].deadlines = ['deadline-may']; });
    });
    expect(formatProblem(find(result.errors, 'missing configuration', 'banners.json', 'deadline-jan'))).toContain('deadline-june');
    expect(formatProblem(find(result.errors, 'missing configuration', 'reminders.json', 'week-before'))).toContain('deadline-may');
  });

  it('deadlines out of order, and a reminder without its unsubscribe link or with a placeholder the server does not fill', () => {
    const result = checkWith((dir) => {
      editJson(dir, 'deadlines.json', (dates) => { dates.deadlines[1].date = '2027-01-01'; });
      editJson(dir, 'reminders.json', (reminders) => {
        reminders.rules[1].text = reminders.rules[1].text.replace('{unsubscribe_url}', '{stop_link}');
        reminders.send_between = { from: '20:00', until: '09:00' };
      });
    });
    expect(formatProblem(find(result.errors, 'bad configuration', 'deadlines.json', 'deadline-mar'))).toContain('date order');
    const day = result.errors.filter((item) => item.file === 'reminders.json' && item.key === 'day-before').map(formatProblem).join('\n');
    expect(day).toContain('{stop_link}');
    expect(day).toContain('does not give {unsubscribe_url}');
    find(result.errors, 'bad configuration', 'reminders.json', 'send_between');
  });
});

describe('(g) a conditional rule that cannot work', () => {
  it('an unknown operator, with the operators and the likely one', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.ui.json', (ui) => {
      ui.mailing.mailing_addr_effective_date['ui:hideWhen'].op = 'notEqual';
    }));
    const found = find(result.errors, 'bad configuration', 'pages/about.ui.json', 'mailing_addr_same_as_perm_addr');
    expect(found.message).toContain('"op": "notEqual" is no operator');
    expect(found.message).toContain('did you mean "notEquals"?');
    expect(found.fix).toContain('"notIn"');
    expect(found.at).toEqual({ file: 'pages/about.ui.json', path: ['mailing', 'mailing_addr_effective_date', 'ui:hideWhen', 'op'] });
  });

  it('a value written as the option\'s label, in a schema\'s if/when: the codes listed and the right one named', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.schema.json', (page) => {
      const rule = page.properties.contact.allOf.find((item: Json) => item.if.when.key === 'optin_sms_ind');
      rule.if.when = { key: 'mailing_addr_same_as_perm_addr', op: 'equals', value: 'Yes' };
    }));
    const found = find(result.errors, 'bad configuration', 'pages/about.schema.json', 'mailing_addr_same_as_perm_addr');
    expect(found.message).toContain('value "Yes" is no code of');
    expect(found.message).toContain('"Y" (Yes), "N" (No)');
    expect(found.message).toContain('never true');
    expect(found.fix).toBe('write the code "Y" (the code of "Yes")');
  });

  it('a list of values for "in" is read value by value; "" stands for no answer', () => {
    const result = checkWith((dir) => editJson(dir, 'definitions/address.ui.json', (ui) => {
      ui.state['ui:hideWhen'].value = ['USA', 'Canada', ''];
    }));
    const found = find(result.errors, 'bad configuration', 'definitions/address.ui.json', 'country');
    expect(found.message).toContain('"Canada" is no code');
    expect(found.fix).toBe('write the code "CAN" (the code of "Canada")');
    expect(found.at?.path.at(-1)).toBe(1);
  });

  it('a check box compared with a word instead of true or false', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/about.schema.json', (page) => {
      const rule = page.properties.contact.allOf.find((item: Json) => item.if.when.key === 'optin_sms_ind');
      rule.if.when.value = 'true';
    }));
    expect(find(result.errors, 'bad configuration', 'pages/about.schema.json', 'optin_sms_ind').fix).toBe('write true or false (no quotes)');
  });
});

describe('structural errors of the generator are reported too', () => {
  it('an x-override naming a property the definition does not have', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/education-ug.schema.json', (page) => {
      page.properties.tests.properties.act['x-override'] = { takn: { title: 'Have you taken the ACT?' } };
    }));
    const found = find(result.errors, 'bad configuration', 'pages/education-ug.schema.json', 'takn');
    expect(found.fix).toContain('taken');
  });

  it('ui:tabs naming a field the section does not have (found when the form is built)', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/education-ug.ui.json', (ui) => {
      ui.classes['ui:tabs'].tabs[0].fields = ['classes'];
    }));
    const found = find(result.errors, 'bad configuration', 'pages/education-ug.ui.json', 'hs_classes_tabs');
    expect(found.message).toContain('classes');
  });
});

describe('warnings', () => {
  it('a data-model key no page asks is a warning, not a failure', () => {
    const result = checkWith((dir) => editJson(dir, 'data-model.json', (model) => {
      model.keys.nickname = { type: 'string' };
      model.keys.intake_campus = { type: 'code', reserved: true };
    }));
    expect(result.errors).toEqual([]);
    const found = find(result.warnings, 'unused key', 'data-model.json', 'nickname');
    expect(found.fix).toContain('"reserved": true');
    expect(result.warnings.some((item) => item.key === 'intake_campus')).toBe(false);
  });
});

describe('pages outside the frame', () => {
  it('a page file that no step lists is a warning', () => {
    const result = checkWith((dir) => writeFileSync(join(dir, 'pages/essay.schema.json'), JSON.stringify({ type: 'object', properties: {} })));
    expect(result.errors).toEqual([]);
    const found = find(result.warnings, 'missing configuration', 'pages/essay.schema.json', '');
    expect(formatProblem(found)).toContain('not listed in schemas/text/frame.json "steps"');
  });
});

describe('npm run check:schemas on broken schemas', () => {
  it('exits 1 and prints each problem with its file, key and fix', () => {
    const dir = brokenCopy((copy) => editJson(copy, 'pages/about.schema.json', (page) => {
      page.properties.personal.properties.parent_3_name = { title: 'Parent 3', type: 'string' };
    }));
    const { status, stderr } = runCli(dir);
    expect(status).toBe(1);
    expect(stderr).toContain('ERROR- BAD CONFIGURATION');
    // with the line and column of the key, as editors and terminals link them
    expect(stderr).toMatch(/schemas\/pages\/about\.schema\.json:\d+:\d+: "parent_3_name": not in the data model \(schemas\/data-model\.json\)\. Fix: add it there, or correct the key\./);
    expect(stderr).toMatch(/check:schemas failed: 1 error, 0 warnings/);
  });
});

describe('a uiSchema entry at the wrong level', () => {
  it('is refused with the file, the key and where to move it', () => {
    const result = checkWith((dir) => editJson(dir, 'pages/education-ug.ui.json', (ui) => {
      ui.high_school.hs_gpa = ui.high_school.gpa.hs_gpa; // the GPA sits inside the "gpa" group
      delete ui.high_school.gpa.hs_gpa;
    }));
    const found = find(result.errors, 'bad configuration', 'pages/education-ug.ui.json', 'hs_gpa');
    expect(found.message).toContain('not one of its questions');
    expect(found.fix).toMatch(/move the entry inside the block/);
  });
});
