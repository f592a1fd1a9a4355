/**
 * Details of the schemas an applicant meets, without a browser: the generator's default
 * lengths, the run-time configuration checks, international phones in E.164 (the
 * server's save too), and the option lists and rules an applicant trips on.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import dataModel from '../../schemas/data-model.json';
import partner from '../../schemas/partner.json';
import frame from '../../schemas/text/frame.json';
import { buildForm } from '../../scripts/generate/form-model.ts';
import { schemasDir } from '../../scripts/schema-files.ts';
import { storedChanges } from '../../src/server/answers/answer-changes.ts';
import { applyChanges } from '../../src/shared/answers/apply-changes.ts';
import { optionsFor } from '../../src/shared/answers/option-rules.ts';
import { configurationProblems, type DataModelKeys } from '../../src/shared/form/configuration-checks.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import type { FormModel } from '../../src/shared/form/form-model.ts';
import { toE164 } from '../../src/shared/text/phone-international.ts';
import { validatePage } from '../../src/shared/validation/page-validation.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';

const work = mkdtempSync(join(tmpdir(), 'spec-lines-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => void delete process.env.SCHEMAS_DIR);

const labels = (key: string) => optionsFor(form, key, {}, []).map((item) => item.label);
const values = (key: string) => optionsFor(form, key, {}, []).map((item) => item.value);

describe('the generator gives a text input its default length by widget (spec section 9)', () => {
  it('45 for a plain text input, 1500 for a text area, the schema\'s own where it has one', () => {
    const dir = join(work, 'textarea');
    cpSync(schemasDir, dir, { recursive: true });
    // counselor_last_name is a plain text answer: shown as a text area, it gets the text area's limit
    const eduUiFile = join(dir, 'pages', 'education-ug.ui.json');
    const eduUi = JSON.parse(readFileSync(eduUiFile, 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;
    const counselor = Object.entries(eduUi).find(([, section]) => typeof section === 'object' && section && 'counselor_first_name' in section)?.[0] ?? 'counselor';
    eduUi[counselor] = { ...eduUi[counselor], counselor_last_name: { 'ui:widget': 'textarea' } };
    writeFileSync(eduUiFile, JSON.stringify(eduUi));
    process.env.SCHEMAS_DIR = dir;
    const built = buildForm();
    const properties = built.validation['education-ug'].properties as Record<string, { maxLength?: number }>;
    expect(properties.counselor_last_name?.maxLength).toBe(1500);
    expect(properties.counselor_first_name?.maxLength).toBe(45);
    expect(properties.counselor_email_address?.maxLength).toBe(100);
  });
});

describe('development-only checks at run time (spec section 5)', () => {
  const steps = frame.steps;
  it('finds nothing wrong in the real configuration', () => {
    expect(configurationProblems(form, dataModel as DataModelKeys, steps, partner.default_route)).toEqual([]);
  });

  it('names a missing page, a key outside the data model, a prefix not in its key, a key on two pages and an add-another over 10', () => {
    const broken = structuredClone(form) as FormModel;
    broken.pages.about.keys.push('favourite_colour', 'hs_gpa');
    broken.pages['education-ug'].repeaters[0]!.max = 11;
    broken.pages.about.visibility.push({ when: { key: 'no_such_answer', op: 'answered' }, keys: ['first_name'], clear: [] });
    const model = structuredClone(dataModel) as DataModelKeys;
    model.keys.guardian_x = { instances: 2, prefix: 'parent_' };
    const problems = configurationProblems(broken, model, [...steps, { path: '/scholarships' }], '/welcome');
    expect(problems.map((item) => item.kind).sort()).toEqual([
      'add-another maximum', 'bad configuration', 'bad configuration', 'extra keys', 'missing configuration', 'missing configuration', 'prefix not part of key',
    ]);
    expect(problems.find((item) => item.kind === 'missing configuration')?.message).toContain('/scholarships');
  });
});

describe('international phone numbers are checked and stored in E.164 (spec-decisions 17)', () => {
  it('accepts spaces, dots, dashes, brackets, a (0) and a 00 prefix', () => {
    for (const typed of ['+44 20 7946 0958', '+44.20.7946.0958', '+44-20-7946-0958', '+44 (0)20 7946 0958', '0044 20 7946 0958', ' +442079460958 ']) {
      expect(toE164(typed), typed).toBe('+442079460958');
    }
    expect(toE164('')).toBe('');
    // without its country code a number is kept as written, never turned into bare digits
    expect(toE164(' 020 7946 0958 ')).toBe('020 7946 0958');
    expect(toE164('call me')).toBe('call me');
  });

  it('the message\'s own example passes the page rule once normalised, a number without its country code does not', () => {
    const base = { ...completeApplication(), country: 'GBR', state: '', zip: '' };
    expect(validatePage('about', { ...base, phone_international: toE164('+44 20 7946 0958') }).phone_international).toBeUndefined();
    expect(validatePage('about', { ...base, phone_international: toE164('020 7946 0958') }).phone_international).toEqual([
      'Please provide an international number with its country code, e.g. +44 20 7946 0958.',
    ]);
  });

  it('the server stores what the browser sent in E.164, whatever its separators', () => {
    expect(storedChanges({ phone_international: '+44 (20) 7946-0958' }).values.phone_international).toBe('+442079460958');
    expect(storedChanges({ phone_international: '44 20 7946 0958' }).values.phone_international).toBe('44 20 7946 0958');
  });
});

describe('option lists and rules an applicant meets', () => {
  it('majors are listed by name', () => {
    const names = labels('applied_major');
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('religion lists Hindu and Buddhist', () => {
    expect(labels('religious_affiliation')).toEqual(expect.arrayContaining(['Hindu', 'Buddhist']));
  });

  it('Micronesia, the Marshall Islands and Palau are countries, not US states', () => {
    expect(values('country')).toEqual(expect.arrayContaining(['FSM', 'MHL', 'PLW']));
    expect(values('state')).not.toEqual(expect.arrayContaining(['FM']));
    expect(values('state').filter((code) => ['FM', 'MH', 'PW'].includes(code))).toEqual([]);
  });

  it('ACT and CLT can be answered "not planning to take it", which asks for no date', () => {
    expect(labels('act_taken')).toContain('Not planning to take it');
    const answers = { ...completeApplication(), test_taken_ind: 'Y', test_optional: 'Y', sat_taken: 'Y', act_taken: 'NP', clt_taken: 'NP' };
    expect(validatePage('education-ug', answers)).toEqual({});
    const hidden = form.pages['education-ug'].visibility.filter((rule) => rule.keys.includes('act_plan_month'));
    expect(hidden.length).toBeGreaterThan(0);
  });

  it('half credits (7.5) are accepted, letters are not', () => {
    const answers = { ...completeApplication(), college_univ_attended: 'Y', college_name: 'Riverton College', college_credits_earned: '7.5', college_credits_in_prog: '12' };
    expect(validatePage('education-ug', answers).college_credits_earned).toBeUndefined();
    expect(validatePage('education-ug', { ...answers, college_credits_earned: '7,5' }).college_credits_earned).toEqual(['Credits earned must be a number of credits, e.g. 30 or 7.5.']);
  });

  it('a college abroad has a country, and a foreign school hides and clears its state', () => {
    expect(form.fields.college_country?.page).toBe('education-ug');
    const { answers } = applyChanges(form, { hs_state: 'WI', hs_country: '' }, { hs_country: 'DEU' });
    expect(answers.hs_state).toBe('');
    const { answers: college } = applyChanges(form, { college_state: 'WI' }, { college_country: 'FRA' });
    expect(college.college_state).toBe('');
  });

  it('legal_agree says what to do (docs/spec-deviations.md)', () => {
    expect(validatePage('final-steps', { counselor_waiver_request: 'Y' }).legal_agree).toEqual(['Please certify that your application is complete and correct.']);
  });
});
