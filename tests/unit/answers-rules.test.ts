import { afterEach, describe, expect, it, vi } from 'vitest';
import partner from '../../schemas/partner.json';
import { localYear } from '../../src/shared/dates/local-date.ts';
import { applyChanges } from '../../src/shared/answers/apply-changes.ts';
import { evaluateCondition, type Condition } from '../../src/shared/answers/conditions.ts';
import { instanceKey, numberKey } from '../../src/shared/answers/key-naming.ts';
import { optionLabelsOf, optionsFor } from '../../src/shared/answers/option-rules.ts';
import { hiddenKeys } from '../../src/shared/answers/visibility.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import { formatPhone, formatThreeTwoFour } from '../../src/shared/text/formatters.ts';

describe('conditions (spec operators)', () => {
  const answers = { a: 'Y', n: '12', flag: true, empty: '' };
  const cases: [Condition, boolean][] = [
    [{ key: 'a', op: 'equals', value: 'Y' }, true],
    [{ key: 'a', op: 'notEquals', value: 'Y' }, false],
    [{ key: 'missing', op: 'notEquals', value: 'Y' }, true],
    [{ key: 'n', op: 'lt', value: '13' }, true],
    [{ key: 'n', op: 'lte', value: '12' }, true],
    [{ key: 'n', op: 'gt', value: '12' }, false],
    [{ key: 'n', op: 'gte', value: '12' }, true],
    [{ key: 'missing', op: 'gt', value: '0' }, false],
    [{ key: 'empty', op: 'answered' }, false],
    [{ key: 'empty', op: 'notAnswered' }, true],
    [{ key: 'flag', op: 'answered' }, true],
    [{ key: 'a', op: 'in', value: ['N', 'Y'] }, true],
    [{ key: 'missing', op: 'in', value: [''] }, true],
    [{ key: 'a', op: 'notIn', value: ['N'] }, true],
    [{ all: [{ key: 'a', op: 'equals', value: 'Y' }, { key: 'flag', op: 'equals', value: true }] }, true],
    [{ any: [{ key: 'a', op: 'equals', value: 'N' }, { key: 'empty', op: 'answered' }] }, false],
  ];
  it.each(cases)('%j is %s', (condition, expected) => {
    expect(evaluateCondition(answers, condition)).toBe(expected);
  });
});

describe('key naming', () => {
  it('numbers later instances after the prefix, or at the end when the prefix is the key', () => {
    expect(instanceKey('college_name', 'college_', 1)).toBe('college_name');
    expect(instanceKey('college_name', 'college_', 3)).toBe('college_3_name');
    expect(instanceKey('hs_class_name', 'hs_', 2)).toBe('hs_2_class_name');
    expect(instanceKey('activ_athl', 'activ_athl', 2)).toBe('activ_athl_2');
    expect(numberKey('guardian_graduate', ['parent_', 'guardian_'], 2)).toBe('guardian_2_graduate');
    expect(() => instanceKey('name', 'college_', 2)).toThrow(/prefix "college_" is not part of key "name"/);
  });

  it('produces the spec keys for every repeated block', () => {
    const keys = new Set(Object.keys(form.fields));
    for (const key of ['parent_2_first_name', 'guardian_2_graduate', 'parent_2_deceased', 'college_5_cmpl_year', 'hs_8_ib', 'honors_8_senior', 'activ_spirit_3', 'clt_intended_month', 'mailing_zip']) {
      expect(keys.has(key), key).toBe(true);
    }
  });
});

describe('applyChanges', () => {
  it('stores the chosen label in the _desc companion', () => {
    const { changed } = applyChanges(form, {}, { gender: 'F', country: 'CAN', grad_year: '2024' });
    expect(changed).toMatchObject({ gender_desc: 'Female', country_desc: 'Canada', grad_year_desc: '2024' });
    expect(applyChanges(form, { gender: 'F', gender_desc: 'Female' }, { gender: '' }).changed).toEqual({ gender: '', gender_desc: '' });
  });

  it('clears the answers of a block when it becomes hidden, and only then', () => {
    const start = { mailing_addr_same_as_perm_addr: 'N', mailing_city: 'Madison', mailing_country: 'USA', mailing_country_desc: 'United States' };
    const { changed } = applyChanges(form, start, { mailing_addr_same_as_perm_addr: 'Y' });
    expect(changed).toMatchObject({ mailing_city: '', mailing_country: '', mailing_country_desc: '' });
    // already hidden: loading answers does not clear anything
    expect(applyChanges(form, start, { first_name: 'Ada' }).changed).toEqual({ first_name: 'Ada' });
  });

  it('clears a dependent select when its controlling answer changes (church vocation), or its group (visa and majors)', () => {
    const start = { church_prof: 'Y', church_interest: 'MISS', church_interest_desc: 'Missions', visa_radio: 'N', applied_major: 'BIO', program_type: 'DE' };
    expect(applyChanges(form, start, { church_prof: 'U' }).changed).toMatchObject({ church_interest: '', church_interest_desc: '' });
    const intoVisa = applyChanges(form, start, { visa_radio: 'Y' }).changed;
    expect(intoVisa).toMatchObject({ applied_major: '', program_type: '' });
    // decision 21: moving between answers on the same side of Y keeps the major
    expect(applyChanges(form, { ...start, visa_radio: '' }, { visa_radio: 'N' }).changed).not.toHaveProperty('applied_major');
  });

  it('keeps a state that belongs to the new country and clears one that does not', () => {
    const start = { country: 'USA', state: 'WI', state_desc: 'Wisconsin' };
    expect(applyChanges(form, start, { country: 'CAN' }).changed).toMatchObject({ state: '', state_desc: '' });
    expect(applyChanges(form, { country: '', state: 'ON' }, { country: 'CAN' }).changed).not.toHaveProperty('state');
  });
});

describe('visibility and options', () => {
  it('hides Parent/Guardian 2 but its relationship when there is no second parent', () => {
    const hidden = hiddenKeys(form.pages.about, { parent_2_relationship: 'NA' });
    expect(hidden.has('parent_2_first_name')).toBe(true);
    expect(hidden.has('guardian_2_graduate')).toBe(true);
    expect(hidden.has('parent_2_relationship')).toBe(false);
  });

  it('offers "No second parent/guardian" for Parent/Guardian 2 only', () => {
    expect(optionsFor(form, 'parent_relationship', {}, []).map((item) => item.value)).not.toContain('NA');
    expect(optionsFor(form, 'parent_2_relationship', {}, []).map((item) => item.value)).toContain('NA');
  });

  it('lists years by count, direction and start', () => {
    const now = localYear(new Date(), partner.time_zone);
    const grad = optionsFor(form, 'grad_year', {}, []).map((item) => Number(item.value));
    expect(grad).toHaveLength(88);
    expect(grad[0]).toBe(now + 5);
    const plan = optionsFor(form, 'sat_plan_year', {}, []).map((item) => Number(item.value));
    expect(plan).toEqual([now, now + 1, now + 2]);
  });
});

describe('option labels by value (what a `_desc` stores)', () => {
  afterEach(() => vi.useRealTimers());
  const listed = Object.keys(form.fields).filter((key) => form.fields[key]!.options || form.fields[key]!.years);
  const labelOf = (key: string, value: string) => optionsFor(form, key, {}, []).find((item) => item.value === value)?.label;

  it('gives every list and year question the label its options show, and none for a value they lack', () => {
    expect(listed.length).toBeGreaterThan(10);
    for (const key of listed) {
      for (const item of optionsFor(form, key, {}, [])) expect(optionLabelsOf(form, key).get(item.value), key).toBe(item.label);
      for (const stray of ['', 'toString', '__proto__', '1800', 'ZZ']) expect(optionLabelsOf(form, key).get(stray), `${key} ${stray}`).toBe(labelOf(key, stray));
    }
    const excluded = listed.find((key) => form.fields[key]!.exclude?.length);
    if (excluded) expect(optionLabelsOf(form, excluded).has(form.fields[excluded]!.exclude![0]!)).toBe(false);
  });

  it('makes a year list again when the year turns', () => {
    const key = listed.find((name) => form.fields[name]!.years)!;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-07-01T12:00:00Z'));
    const before = [...optionLabelsOf(form, key).keys()];
    expect(before).toEqual(optionsFor(form, key, {}, []).map((item) => item.value));
    vi.setSystemTime(new Date('2032-07-01T12:00:00Z'));
    const after = [...optionLabelsOf(form, key).keys()];
    expect(after).toEqual(optionsFor(form, key, {}, []).map((item) => item.value));
    expect(after).not.toEqual(before);
  });
});

describe('display formats', () => {
  it('formats phones as (ddd) ddd-dddd and social-security-style values as 3-2-4', () => {
    expect(formatPhone('2625550142')).toBe('(262) 555-0142');
    expect(formatPhone('262')).toBe('(262');
    expect(formatThreeTwoFour('123456789')).toBe('123-45-6789');
    expect(formatThreeTwoFour('12345')).toBe('123-45');
  });
});
