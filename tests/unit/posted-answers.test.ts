import { describe, expect, it } from 'vitest';
import { postedChanges } from '../../src/server/answers/posted-answers.ts';

const posted = (fields: string, values: [string, string][]) => new URLSearchParams([['_fields', fields], ...values]);

describe('postedChanges', () => {
  it('takes the changed answers the form had controls for, an unticked box as false', () => {
    const body = posted('first_name last_name optin_sms_ind race_asian gender', [['first_name', 'Ada'], ['last_name', 'Same'], ['race_asian', 'on'], ['gender', 'F']]);
    expect(postedChanges('about', body, { last_name: 'Same', optin_sms_ind: true })).toEqual({ first_name: 'Ada', optin_sms_ind: false, race_asian: true, gender: 'F' });
  });

  it('leaves alone a key of another page, one the form did not name, and a control posted twice', () => {
    const body = posted('test_taken_ind first_name', [['test_taken_ind', 'Y'], ['middle_name', 'Unlisted'], ['first_name', 'A'], ['first_name', 'B']]);
    expect(postedChanges('about', body, {})).toEqual({});
  });

  it('clears an answer whose field was posted empty, and changes nothing for an empty field with no answer', () => {
    const body = posted('first_name middle_name', [['first_name', ''], ['middle_name', '']]);
    expect(postedChanges('about', body, { first_name: 'Was' })).toEqual({ first_name: '' });
  });
});
