import { describe, expect, it } from 'vitest';
import { evaluateCondition, type Answers, type Condition } from '../../src/shared/answers/conditions.ts';
import type { FormModel } from '../../src/shared/form/form-model.ts';
import { conditionWords, neverTrue, opposite, ruleTexts, shownWhenWords, visibilityWords } from '../../preview/rule-words.ts';

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

  it('says the rule in the language of the texts the preview shows', () => {
    const hideWhen: Condition = { any: [{ key: 'citizenship_type', op: 'notEquals', value: '3' }, { key: 'visa_radio', op: 'notEquals', value: 'Y' }] };
    expect(shownWhenWords(model, hideWhen, ruleTexts('es'))).toBe('Citizen Type es International y Visa es Yes');
    expect(visibilityWords(model, { key: 'country', op: 'notAnswered' }, ruleTexts('es')).words).toBe('Se muestra cuando Country tiene respuesta');
  });

  it('marks a rule that can never be true, and why', () => {
    // a label where the code is stored: never true, so the section it shows never shows
    const label = visibilityWords(model, { key: 'visa_radio', op: 'notEquals', value: 'Yes' });
    expect(label).toEqual({ words: 'Shown when Visa is Yes. Never shown: "Yes" is no answer “Visa” can have ("Y", "N")', never: true });
    // a misspelt operator: the hiding rule is never true, so it always shows
    expect(visibilityWords(model, { key: 'visa_radio', op: 'notEqual' as never, value: 'Y' }))
      .toEqual({ words: 'Always shown: the rule that hides it can never be true (“notEqual” is no operator the form knows)', never: true });
    expect(visibilityWords(model, { any: [{ key: 'visa_radio', op: 'notAnswered' }, { key: 'visa_radio', op: 'notEqual' as never, value: 'Y' }] }).words)
      .toMatch(/^Cannot work as written: “notEqual” is no operator/);
    expect(neverTrue(model, { key: 'sat_taken_unsure', op: 'equals', value: 'true' })).toContain('is a check box');
    // sound rules are left alone
    expect(neverTrue(model, { key: 'country', op: 'in', value: ['', 'USA'] })).toBeUndefined();
    expect(visibilityWords(model, { key: 'visa_radio', op: 'notEquals', value: 'Y' }).never).toBe(false);
  });
});
