import { describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import lookupText from '../../schemas/text/lookup.json';
import { answersHiddenBy, repeatersHiddenBy, ruleControllers } from '../../src/shared/answers/hidden-answers.ts';
import { form } from '../../src/shared/form/form-model-data.ts';
import { pluralText } from '../../src/shared/text/plural.ts';

describe('answers a change would hide', () => {
  it('names the entered answers a radio choice hides, from the schema rules, and nothing for typing', () => {
    const answers = { mailing_addr_same_as_perm_addr: 'N', mailing_address_line_1: '12 Lane', mailing_city: 'Provo', mailing_state: '' };
    expect(answersHiddenBy(form, answers, { mailing_addr_same_as_perm_addr: 'Y' }).sort()).toEqual(['mailing_address_line_1', 'mailing_city']);
    expect(answersHiddenBy(form, answers, { mailing_addr_same_as_perm_addr: '' }).sort()).toEqual(['mailing_address_line_1', 'mailing_city']);
    expect(answersHiddenBy(form, answers, { mailing_city: 'Orem' })).toEqual([]);
    expect(answersHiddenBy(form, { mailing_addr_same_as_perm_addr: 'N' }, { mailing_addr_same_as_perm_addr: 'Y' })).toEqual([]);
  });

  it('knows the answers a rule reads: a visibility rule\'s or an option rule\'s, and no other', () => {
    const keys = ruleControllers(form);
    for (const key of ['country', 'parent_2_relationship', 'college_univ_attended', 'visa_radio', 'church_prof']) expect(keys.has(key), key).toBe(true);
    for (const key of ['state', 'citizenship', 'first_name', 'parent_relationship']) expect(keys.has(key), key).toBe(false);
  });

  it('follows rules through: leaving the test questions hides the scores below them', () => {
    const answers = { test_taken_ind: 'Y', test_optional: 'Y', sat_taken: 'Y', sat_score_math: '700' };
    expect(answersHiddenBy(form, answers, { test_taken_ind: 'N' }).sort()).toEqual(['sat_score_math', 'sat_taken', 'test_optional']);
  });

  it('finds the add-another groups a choice hides whole', () => {
    expect(repeatersHiddenBy(form, { college_univ_attended: 'N' })).toContain('add_college');
    expect(repeatersHiddenBy(form, { college_univ_attended: 'Y' })).not.toContain('add_college');
  });
});

describe('plural texts from the schema files', () => {
  it('says one and other in English', () => {
    expect(pluralText(lookupText.status_count, 1)).toMatch(/^1 school found/);
    expect(pluralText(lookupText.status_count, 2)).toMatch(/^2 schools found/);
    expect(pluralText(frame.inactivity.body, 1)).toContain('in 1 second because');
    expect(pluralText(frame.inactivity.body, 0)).toContain('in 0 seconds because');
    expect(pluralText(frame.hidden_answers.removes, 1)).toContain('1 answer you entered');
  });
});
