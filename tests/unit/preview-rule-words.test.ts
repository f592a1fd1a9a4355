import { describe, expect, it } from 'vitest';
import { evaluateCondition, type Answers, type Condition } from '../../src/shared/answers/conditions.ts';
import type { FormModel } from '../../src/shared/form/form-model.ts';
import { conditionWords, opposite, shownWhenWords } from '../../preview/rule-words.ts';

const model = {
  fields: {
    citizenship_type: { key: 'citizenship_type', title: 'Citizen Type', type: 'code', options: 'citizenship' },
    visa_radio: { key: 'visa_radio', title: 'Visa', type: 'code', options: 'yes-no' },
    country: { key: 'country', title: 'Country', type: 'code', options: 'countries' },
    sat_taken_unsure: { key: 'sat_taken_unsure', title: 'Not sure', type: 'boolean' },
    hs_transcript: { key: 'hs_transcript', title: 'High School Transcript', type: 'document' },
  },
  options: {
    citizenship: [{ value: '1', label: 'Citizen' }, { value: '3', label: 'International' }],
    'yes-no': [{ value: 'Y', label: 'Yes' }, { value: 'N', label: 'No' }],
    countries: [{ value: 'USA', label: 'United States' }, { value: 'CAN', label: 'Canada' }],
  },
} as unknown as FormModel;

describe('a rule in words for the staff preview', () => {
  it('says what shows a question, in the schema labels, turning the hiding rule round', () => {
    const hideWhen: Condition = { any: [{ key: 'citizenship_type', op: 'notEquals', value: '3' }, { key: 'visa_radio', op: 'notEquals', value: 'Y' }] };
    expect(shownWhenWords(model, hideWhen)).toBe('Citizen Type is International and Visa is Yes');
  });

  it('names list values and blanks', () => {
    expect(shownWhenWords(model, { key: 'country', op: 'notIn', value: ['', 'USA', 'CAN'] })).toBe('Country is blank, United States or Canada');
    expect(conditionWords(model, { key: 'sat_taken_unsure', op: 'equals', value: true })).toBe('Not sure checked');
    expect(conditionWords(model, { key: 'hs_transcript', op: 'notEquals', value: 'ANSWERED' })).toBe('High School Transcript is not uploaded');
    expect(conditionWords(model, { all: [{ key: 'country', op: 'answered' }, { any: [{ key: 'visa_radio', op: 'equals', value: 'Y' }, { key: 'visa_radio', op: 'equals', value: 'N' }] }] }))
      .toBe('Country is answered and (Visa is Yes or Visa is No)');
  });

  it('turns a rule round exactly: the opposite holds where the rule does not (answers blank or numbers)', () => {
    const rules: Condition[] = [
      { key: 'country', op: 'notIn', value: ['', 'USA'] },
      { any: [{ key: 'country', op: 'notAnswered' }, { key: 'country', op: 'equals', value: 'USA' }] },
      { all: [{ key: 'visa_radio', op: 'lt', value: '3' }, { key: 'visa_radio', op: 'gte', value: '1' }] },
    ];
    const answers: Answers[] = [{}, { country: 'USA' }, { country: 'CAN' }, { country: '', visa_radio: '2' }, { visa_radio: '5' }];
    for (const rule of rules) for (const given of answers) expect(evaluateCondition(given, opposite(rule))).toBe(!evaluateCondition(given, rule));
  });
});
