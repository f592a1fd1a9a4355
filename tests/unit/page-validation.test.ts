/**
 * Spec section 5, "Application answers" and "Phone", as a table: for every rule, answers
 * that must produce exactly that message on that key, and answers that must produce no
 * error on that key. The table runs against validatePage and validateApplication
 * (src/shared/validation/page-validation.ts), the one module the browser and the server
 * both import, so they agree by construction.
 *
 * Every case starts from a complete, valid application and changes a few answers. Date
 * windows are computed from today in the partner's time zone; their exact edges run on
 * a fixed clock (vi.setSystemTime).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import partner from '../../schemas/partner.json';
import type { Answers } from '../../src/shared/answers/conditions.ts';
import { completeApplication } from '../../support/fixtures/complete-application.ts';
import { localDate } from '../../src/shared/dates/local-date.ts';
import type { PageId } from '../../src/shared/form/form-model.ts';
import { validateApplication, validatePage } from '../../src/shared/validation/page-validation.ts';

type Changes = Record<string, string | boolean | undefined>;

/** A parent's phone takes a US number or one abroad: its message says both. */
const PARENT_PHONE = (n: number) => `Parent/Guardian ${n}: Please enter a valid cell phone number. A US number has 10 digits; a number abroad starts with + and its country code, e.g. +44 20 7946 0958.`;
/** A US phone's message says where a number abroad goes. */
const US_PHONE = (kind: string) => `Please provide a valid ${kind} phone number. It takes a US number of 10 digits; a number abroad goes in International Phone, shown when your permanent address is outside the USA.`;

/** Today in the partner's time zone, YYYY-MM-DD. */
function today(): string {
  return localDate(new Date(), partner.time_zone);
}

/** A date `years` and `days` away from `iso` (calendar arithmetic; 29 February rolls to 1 March). */
function shift(iso: string, years: number, days = 0): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year + years, month - 1, day + days)).toISOString().slice(0, 10);
}

const TODAY = today();
const YEAR = Number(TODAY.slice(0, 4));

/** A complete application that passes every page (the shared fixture), born exactly 18 years ago today. */
const valid: Answers = { ...completeApplication(), optin_sms_ind: false, birth_date: shift(TODAY, -18) };

const with_ = (changes: Changes): Answers => ({ ...valid, ...changes });

interface Rule {
  page: PageId;
  key: string;
  message: string;
  /** each must produce exactly `message` on `key` */
  fail: Changes[];
  /** each must produce no error on `key` */
  pass: Changes[];
  /** other keys that the failing answers also (rightly) leave in error */
  also?: string[];
}

const testsTaken = { test_taken_ind: 'Y', test_optional: 'Y', sat_taken: 'N', act_taken: 'N', clt_taken: 'N' };
const secondParent = { parent_2_relationship: 'F', parent_2_education: '2' };
const outsideUs = { country: 'GBR', state: '', zip: '' };
const mailing = { mailing_addr_same_as_perm_addr: 'N' };
const satMessage = (section: string) => `${section} scores must be between 200 and 800 in an increment of 10 (e.g., 570).`;

const rules: Rule[] = [
  // ---- about: required answers say what to do, after the field's label; "" counts as not answered
  { page: 'about', key: 'first_name', message: 'Legal First Name: please fill this in.', fail: [{ first_name: '' }, { first_name: undefined }], pass: [{}] },
  { page: 'about', key: 'last_name', message: 'Legal Last Name: please fill this in.', fail: [{ last_name: '' }], pass: [{}] },
  { page: 'about', key: 'gender', message: 'Gender: please choose an answer.', fail: [{ gender: '' }], pass: [{ gender: 'M' }, { gender: 'X' }] },
  { page: 'about', key: 'address_line_1', message: 'Address: please fill this in.', fail: [{ address_line_1: '' }], pass: [{}] },
  { page: 'about', key: 'city', message: 'City: please fill this in.', fail: [{ city: '' }], pass: [{}] },
  { page: 'about', key: 'country', message: 'Country: please choose an answer.', fail: [{ country: '', state: '', zip: '' }], pass: [{}] },

  // ---- birth date: a valid date, not earlier than 100 years ago, not later than 13 years ago
  {
    page: 'about', key: 'birth_date', message: 'Please enter your date of birth.',
    fail: [{ birth_date: '' }],
    pass: [{}, { birth_date: '2008-02-29' }],
  },
  {
    page: 'about', key: 'birth_date', message: 'A valid date of birth is required',
    fail: [{ birth_date: '2023-02-30' }, { birth_date: '2005-13-01' }, { birth_date: '03/14/2005' }],
    pass: [{}, { birth_date: '2008-02-29' }],
  },
  {
    page: 'about', key: 'birth_date', message: 'This date is not supported. Please contact help support for assistance.',
    fail: [{ birth_date: shift(TODAY, -101) }, { birth_date: '1900-01-01' }],
    pass: [{ birth_date: shift(TODAY, -99) }],
  },
  {
    page: 'about', key: 'birth_date', message: 'You must be 13 years or older to apply.',
    fail: [{ birth_date: shift(TODAY, -12) }, { birth_date: TODAY }],
    pass: [{ birth_date: shift(TODAY, -14) }],
  },

  // ---- address: state for USA and CAN, ZIP for USA
  {
    page: 'about', key: 'state', message: 'State/Province: please choose an answer.',
    fail: [{ state: '' }, { country: 'CAN', state: '', zip: 'K1A 0B1' }],
    pass: [{ country: 'CAN', state: 'ON', zip: 'K1A 0B1' }, { ...outsideUs, phone_international: '+442079460958' }, { country: 'MEX', state: '', zip: '' }],
  },
  {
    page: 'about', key: 'zip', message: 'Please enter a US ZIP code as 5 digits, or 5+4 digits (e.g. 53012-1234).',
    fail: [{ zip: '' }],
    pass: [{ country: 'CAN', state: 'ON', zip: '' }, { country: 'MEX', state: '', zip: '' }],
  },
  {
    page: 'about', key: 'zip', message: 'ZIP/Postal Code must be at least 5 characters.',
    fail: [{ zip: '1234' }, { zip: '627' }],
    pass: [{ zip: '62701' }, { zip: '62701-1234' }, { country: 'CAN', state: 'ON', zip: 'K1A' }],
  },

  // ---- mailing address effective date: Jan 1 two years ago to Dec 31 three years ahead (partner time zone)
  {
    page: 'about', key: 'mailing_addr_effective_date', message: `The minimum supported year is ${YEAR - 2}`,
    fail: [{ ...mailing, mailing_addr_effective_date: `${YEAR - 3}-12-31` }, { ...mailing, mailing_addr_effective_date: '1999-06-01' }],
    pass: [
      { ...mailing, mailing_addr_effective_date: `${YEAR - 2}-01-01` },
      { ...mailing, mailing_addr_effective_date: '' },
      // hidden (same address): not validated
      { mailing_addr_same_as_perm_addr: 'Y', mailing_addr_effective_date: '1999-06-01' },
    ],
  },
  {
    page: 'about', key: 'mailing_addr_effective_date', message: `The maximum supported year is ${YEAR + 3}`,
    fail: [{ ...mailing, mailing_addr_effective_date: `${YEAR + 4}-01-01` }],
    pass: [{ ...mailing, mailing_addr_effective_date: `${YEAR + 3}-12-31` }, { ...mailing, mailing_addr_effective_date: TODAY }],
  },

  // ---- Parent/Guardian 1: required, each message starting 'Parent/Guardian 1: '
  { page: 'about', key: 'parent_relationship', message: 'Parent/Guardian 1: please choose how this person is related to you.', fail: [{ parent_relationship: '' }], pass: [{ parent_relationship: 'G' }] },
  { page: 'about', key: 'parent_first_name', message: 'Parent/Guardian 1: please enter their first name.', fail: [{ parent_first_name: '' }], pass: [{}] },
  { page: 'about', key: 'parent_last_name', message: 'Parent/Guardian 1: please enter their last name.', fail: [{ parent_last_name: '' }], pass: [{}] },
  { page: 'about', key: 'guardian_graduate', message: `Parent/Guardian 1: please say whether they graduated from ${partner.name}.`, fail: [{ guardian_graduate: '' }], pass: [{ guardian_graduate: 'Y' }] },
  { page: 'about', key: 'parent_deceased', message: 'Parent/Guardian 1: please say whether they are deceased.', fail: [{ parent_deceased: '' }], pass: [{ parent_deceased: 'Y' }] },
  { page: 'about', key: 'parent_education', message: 'Parent/Guardian 1: please choose their highest level of education.', fail: [{ parent_education: '' }], pass: [{ parent_education: 'U' }] },

  // ---- Parent/Guardian 2: relationship; education unless 'NA' (trap 7)
  {
    page: 'about', key: 'parent_2_relationship', message: 'Parent/Guardian 2: please choose how this person is related to you.',
    // without a relationship, Parent 2 is not 'NA', so education is asked too
    fail: [{ parent_2_relationship: '' }], also: ['parent_2_education'],
    pass: [{}, secondParent],
  },
  {
    page: 'about', key: 'parent_2_education', message: 'Parent/Guardian 2: please choose their highest level of education.',
    fail: [{ parent_2_relationship: 'F' }, { parent_2_relationship: 'SM', parent_2_education: '' }],
    pass: [{ parent_2_relationship: 'NA' }, secondParent],
  },

  // ---- parent e-mails and phones, when given; Parent 2's are hidden (not validated) when 'NA'
  {
    page: 'about', key: 'parent_email_address', message: 'Parent/Guardian 1: Please enter a valid email address.',
    fail: [{ parent_email_address: 'anne@example' }, { parent_email_address: 'anne example.com' }, { parent_email_address: '@example.com' }],
    pass: [{ parent_email_address: 'anne.lovelace+apply@example.co.uk' }, { parent_email_address: '' }],
  },
  {
    page: 'about', key: 'parent_2_email_address', message: 'Parent/Guardian 2: Please enter a valid email address.',
    fail: [{ ...secondParent, parent_2_email_address: 'dad@' }],
    pass: [{ ...secondParent, parent_2_email_address: 'dad@example.com' }, { parent_2_relationship: 'NA', parent_2_email_address: 'dad@' }],
  },
  {
    page: 'about', key: 'parent_phone', message: PARENT_PHONE(1),
    fail: [{ parent_phone: '123' }, { parent_phone: '1145550100' }, { parent_phone: '(414) 555-0100' }, { parent_phone: '+0123456789' }, { parent_phone: '+12345' }],
    // a number abroad in E.164 (a + and its country code) is a parent's phone too
    pass: [{ parent_phone: '4145550100' }, { parent_phone: '' }, { parent_phone: '+2348031234567' }, { parent_phone: '+442079460958' }],
  },
  {
    page: 'about', key: 'parent_2_phone', message: PARENT_PHONE(2),
    fail: [{ ...secondParent, parent_2_phone: '4141550100' }],
    pass: [{ ...secondParent, parent_2_phone: '4145550100' }, { parent_2_relationship: 'NA', parent_2_phone: '4141550100' }],
  },

  // ---- citizenship and visa
  { page: 'about', key: 'citizenship_type', message: 'Citizen Type: please choose an answer.', fail: [{ citizenship_type: '' }], pass: [{ citizenship_type: '2' }] },
  {
    page: 'about', key: 'visa_radio', message: 'Are you currently on or are you seeking an I-20 to study in the United States? Please choose an answer.',
    fail: [{ citizenship_type: '3' }, { citizenship_type: '3', visa_radio: '' }],
    pass: [{ citizenship_type: '3', visa_radio: 'N' }, { citizenship_type: '1' }, { citizenship_type: '2' }],
  },
  {
    page: 'about', key: 'citizenship', message: 'What is your country of citizenship? Please choose an answer.',
    fail: [{ citizenship_type: '3', visa_radio: 'Y' }],
    pass: [
      { citizenship_type: '3', visa_radio: 'Y', citizenship: 'CAN' },
      { citizenship_type: '3', visa_radio: 'N' },
      // visa_radio is hidden unless citizenship_type is '3', so a stale Y asks nothing
      { citizenship_type: '1', visa_radio: 'Y' },
    ],
  },
  { page: 'about', key: 'religious_affiliation', message: 'Religious Affiliation: please choose an answer.', fail: [{ religious_affiliation: '' }], pass: [{ religious_affiliation: 'NS' }] },

  // ---- military: branch and benefits unless '6'
  { page: 'about', key: 'military_status', message: 'Please indicate your U.S. military status.', fail: [{ military_status: '' }], pass: [{}] },
  {
    page: 'about', key: 'military_branch', message: 'Branch of Service: please choose an answer.',
    fail: [{ military_status: '1', military_benefits: '33' }, { military_status: '5', military_benefits: '35' }],
    pass: [{ military_status: '6' }, { military_status: '4', military_branch: 'ARMY', military_benefits: 'N' }],
  },
  {
    page: 'about', key: 'military_benefits', message: 'Education benefits you plan to use: please choose an answer.',
    fail: [{ military_status: '2', military_branch: 'NAVY' }],
    pass: [{ military_status: '6' }, { military_status: '2', military_branch: 'NAVY', military_benefits: 'TA' }],
  },

  // ---- phone (spec "Phone"): 10 digits, area code and exchange start 2-9
  {
    page: 'about', key: 'phone_home', message: US_PHONE('home'),
    fail: [{ phone_home: '1125551234' }, { phone_home: '2121551234' }, { phone_home: '212555123' }, { phone_home: '21255512345' }, { phone_home: '(212) 555-1234' }, { phone_home: '212-555-1234' }, { phone_home: '+442079460958' }],
    pass: [{ phone_home: '2125551234' }, { phone_home: '9999999999' }, { phone_home: '', phone_mobile: '3125550199' }],
  },
  {
    page: 'about', key: 'phone_mobile', message: US_PHONE('cell'),
    fail: [{ phone_mobile: '0125550199' }, { phone_mobile: '3120550199' }, { phone_mobile: 'abcdefghij' }],
    pass: [{ phone_mobile: '3125550199' }, { phone_mobile: '' }],
  },
  {
    page: 'about', key: 'phone_mobile', message: 'Please enter a cell phone number to receive text message updates, or uncheck the box.',
    fail: [{ optin_sms_ind: true }, { optin_sms_ind: true, phone_home: '' }, { optin_sms_ind: true, phone_mobile: '' }],
    pass: [{ optin_sms_ind: true, phone_mobile: '3125550199' }, { optin_sms_ind: false }],
  },
  {
    page: 'about', key: 'phone_mobile', message: 'Please provide either a home phone or cell phone number.',
    fail: [
      { phone_home: '' },
      { phone_home: '', phone_mobile: '' },
      // the international number only counts where it is asked (outside the USA)
      { phone_home: '', phone_international: '+442079460958' },
    ],
    pass: [
      { phone_home: '', phone_mobile: '3125550199' },
      { phone_home: '2125551234' },
      { ...outsideUs, phone_home: '', phone_international: '+442079460958' },
    ],
  },

  // ---- education-ug
  { page: 'education-ug', key: 'residency_status', message: 'Housing Intent: please choose an answer.', fail: [{ residency_status: '' }], pass: [{ residency_status: 'U' }] },
  { page: 'education-ug', key: 'applied_major', message: 'What is your intended major? Please choose an answer.', fail: [{ applied_major: '' }], pass: [{ applied_major: 'UND' }] },
  { page: 'education-ug', key: 'home_schooled', message: 'Were you home-schooled? Please choose an answer.', fail: [{ home_schooled: '' }], pass: [{}, { home_schooled: 'Y', hs_name: '' }] },
  {
    page: 'education-ug', key: 'hs_name', message: 'Search for Your School: please fill this in.',
    fail: [{ hs_name: '' }],
    pass: [{}, { home_schooled: 'Y', hs_name: '' }],
  },
  {
    page: 'education-ug', key: 'grad_month', message: 'High School Graduation Date: please choose the month and the year.',
    fail: [
      { grad_month: '', grad_year: '' },
      // trap 8: home-schoolers have no school name, but a graduation date
      { home_schooled: 'Y', hs_name: '', grad_month: '', grad_year: '' },
    ],
    pass: [{}, { home_schooled: 'N', hs_name: '', grad_month: '', grad_year: '' }],
  },
  {
    page: 'education-ug', key: 'grad_year', message: 'High School Graduation Date: please choose the year.',
    fail: [{ grad_year: '' }, { home_schooled: 'Y', hs_name: '', grad_year: '' }],
    pass: [{}, { grad_year: String(YEAR + 5) }],
  },
  // a missing answer with its own message for a wrong one gets that message, not the label (docs/spec-deviations.md)
  { page: 'education-ug', key: 'hs_gpa', message: 'Please enter your GPA as a number, e.g. 3.75.', fail: [{ hs_gpa: '', gpa_scale: '' }], pass: [{}] },
  {
    page: 'education-ug', key: 'hs_gpa', message: 'Please enter your GPA as a number, e.g. 3.75.',
    fail: [{ hs_gpa: '3.75.1' }, { hs_gpa: 'A' }, { hs_gpa: '12345' }, { hs_gpa: '3.' }, { hs_gpa: '.9' }, { hs_gpa: '3.12345' }],
    pass: [{ hs_gpa: '4' }, { hs_gpa: '3.75' }, { hs_gpa: '93.5' }, { hs_gpa: '1234.5678' }, { hs_gpa: '5.2', gpa_scale: '4' }],
  },
  {
    page: 'education-ug', key: 'gpa_scale', message: 'Please choose the scale of your GPA.',
    fail: [{ gpa_scale: '' }],
    pass: [{}, { gpa_scale: '100', hs_gpa: '93' }],
  },
  {
    page: 'education-ug', key: 'counselor_email_address', message: 'Please provide a valid counselor email address.',
    fail: [{ counselor_email_address: 'counselor@school' }, { counselor_email_address: 'counselor' }],
    pass: [{ counselor_email_address: 'c.smith@central.k12.example.us' }, { counselor_email_address: '' }],
  },
  {
    page: 'education-ug', key: 'hs_class_name', message: 'Please list at least one class, or upload your transcript.',
    fail: [{ hs_class_name: '' }, { hs_class_name: '', hs_transcript: '' }],
    pass: [{}, { hs_class_name: '', hs_transcript: 'ANSWERED' }],
  },
  { page: 'education-ug', key: 'college_univ_attended', message: 'Have you attended a college or university, or earned college credit? Please choose an answer.', fail: [{ college_univ_attended: '' }], pass: [{}] },
  { page: 'education-ug', key: 'music_scholar', message: 'Are you interested in auditioning for a music scholarship? Please choose an answer.', fail: [{ music_scholar: '' }], pass: [{ music_scholar: 'Y' }] },

  // ---- tests: taken answers required when test_optional is Y (trap 6); score patterns (trap 9)
  {
    page: 'education-ug', key: 'sat_taken', message: 'Have you taken the SAT? Please choose an answer.',
    fail: [{ ...testsTaken, sat_taken: '' }],
    pass: [{ ...testsTaken }, { test_taken_ind: 'Y', test_optional: 'N' }, { test_taken_ind: 'N', test_optional: 'Y' }],
  },
  { page: 'education-ug', key: 'act_taken', message: 'Have you taken the ACT? Please choose an answer.', fail: [{ ...testsTaken, act_taken: '' }], pass: [{ ...testsTaken }, { test_taken_ind: 'Y', test_optional: 'N' }] },
  { page: 'education-ug', key: 'clt_taken', message: 'Have you taken the CLT? Please choose an answer.', fail: [{ ...testsTaken, clt_taken: '' }], pass: [{ ...testsTaken }, { test_taken_ind: 'Y', test_optional: 'N' }] },
  {
    page: 'education-ug', key: 'sat_score_math', message: satMessage('Math'),
    fail: ['190', '805', '575', '810', '0570', '57'].map((score) => ({ ...testsTaken, sat_taken: 'Y', sat_score_math: score })),
    pass: [
      ...['200', '570', '800', ''].map((score) => ({ ...testsTaken, sat_taken: 'Y', sat_score_math: score })),
      // scores are asked only once the SAT is taken
      { ...testsTaken, sat_taken: 'N', sat_score_math: '805' },
    ],
  },
  {
    page: 'education-ug', key: 'sat_score_reading_writing', message: satMessage('Reading and Writing'),
    fail: ['199', '801', '455'].map((score) => ({ ...testsTaken, sat_taken: 'Y', sat_score_reading_writing: score })),
    pass: ['200', '650', '800'].map((score) => ({ ...testsTaken, sat_taken: 'Y', sat_score_reading_writing: score })),
  },
  {
    page: 'education-ug', key: 'act_score_composite', message: 'Scores range from 1-36.',
    fail: ['0', '37', '3.5', '010', '-1'].map((score) => ({ ...testsTaken, act_taken: 'Y', act_score_composite: score })),
    pass: ['1', '21', '36'].map((score) => ({ ...testsTaken, act_taken: 'Y', act_score_composite: score })),
  },
  {
    page: 'education-ug', key: 'clt_score_composite', message: 'The score must be between 0 and 120.',
    fail: ['121', '-1', '07', '200', '1e2'].map((score) => ({ ...testsTaken, clt_taken: 'Y', clt_score_composite: score })),
    pass: ['0', '9', '85', '119', '120'].map((score) => ({ ...testsTaken, clt_taken: 'Y', clt_score_composite: score })),
  },

  // ---- final-steps
  { page: 'final-steps', key: 'counselor_waiver_request', message: 'Your right to review recommendations: please choose an answer.', fail: [{ counselor_waiver_request: '' }], pass: [{ counselor_waiver_request: 'N' }] },
  {
    page: 'final-steps', key: 'legal_agree', message: 'Please certify that your application is complete and correct.',
    fail: [{ legal_agree: false }, { legal_agree: undefined }, { legal_agree: '' }],
    pass: [{ legal_agree: true }],
  },
];

/**
 * The messages spec section 5 ("Application answers", "Phone") states; the table must cover each. A missing
 * answer says what to do after the label the spec gives (docs/spec-deviations.md).
 */
const specMessages = [
  'Legal First Name: please', 'Legal Last Name: please', 'Gender: please', 'Address: please', 'City: please', 'Country: please',
  'A valid date of birth is required', 'Please enter your date of birth.',
  'This date is not supported. Please contact help support for assistance.',
  'You must be 13 years or older to apply.',
  // a missing US ZIP says its format instead of 'ZIP/Postal Code' (docs/spec-deviations.md)
  'State/Province: please', 'ZIP/Postal Code must be at least 5 characters.',
  'The minimum supported year is {year}', 'The maximum supported year is {year}',
  'Parent/Guardian 1: ', 'Parent/Guardian 2: ',
  'Parent/Guardian N: Please enter a valid email address.', 'Parent/Guardian N: Please enter a valid cell phone number.',
  'Citizen Type: please', 'Are you currently on or are you seeking an I-20 to study in the United States?', 'What is your country of citizenship?',
  'Please indicate your U.S. military status.', 'Housing Intent: please', 'What is your intended major? Please', 'Search for Your School: please',
  'Please choose the scale of your GPA.', 'High School Graduation Date: please', 'Please provide a valid counselor email address.',
  'must be between 200 and 800 in an increment of 10 (e.g., 570).', 'Scores range from 1-36.', 'The score must be between 0 and 120.',
  'Please provide a valid home phone number.', 'Please provide a valid cell phone number.',
  'Please enter a cell phone number to receive text message updates, or uncheck the box.', 'Please provide either a home phone or cell phone number.',
];

function errorsOf(page: PageId, answers: Answers) {
  const errors = validatePage(page, answers);
  // the whole application reports the same for this page (submit runs validateApplication)
  expect(validateApplication(answers)[page] ?? {}).toEqual(errors);
  return errors;
}

describe('the valid application', () => {
  it('has no error on any page', () => {
    expect(validateApplication(valid)).toEqual({});
  });

  it('every required answer of the empty application is reported, with its spec message', () => {
    const errors = validateApplication({});
    expect(errors.about).toMatchObject({
      first_name: ['Legal First Name: please fill this in.'], last_name: ['Legal Last Name: please fill this in.'], gender: ['Gender: please choose an answer.'], birth_date: ['Please enter your date of birth.'],
      address_line_1: ['Address: please fill this in.'], city: ['City: please fill this in.'], country: ['Country: please choose an answer.'], citizenship_type: ['Citizen Type: please choose an answer.'],
      religious_affiliation: ['Religious Affiliation: please choose an answer.'], military_status: ['Please indicate your U.S. military status.'],
      phone_mobile: ['Please provide either a home phone or cell phone number.'],
      parent_relationship: ['Parent/Guardian 1: please choose how this person is related to you.'], parent_2_relationship: ['Parent/Guardian 2: please choose how this person is related to you.'],
    });
    expect(errors['education-ug']).toMatchObject({
      residency_status: ['Housing Intent: please choose an answer.'], applied_major: ['What is your intended major? Please choose an answer.'], home_schooled: ['Were you home-schooled? Please choose an answer.'],
      hs_gpa: ['Please enter your GPA as a number, e.g. 3.75.'], hs_class_name: ['Please list at least one class, or upload your transcript.'], music_scholar: ['Are you interested in auditioning for a music scholarship? Please choose an answer.'],
    });
    expect(errors['final-steps']).toMatchObject({
      counselor_waiver_request: ['Your right to review recommendations: please choose an answer.'],
      legal_agree: ['Please certify that your application is complete and correct.'],
    });
  });
});

describe.each(rules.map((rule) => [`${rule.page} ${rule.key}: ${rule.message}`, rule] as const))('%s', (_name, rule) => {
  it.each(rule.fail.map((changes) => [JSON.stringify(changes), changes] as const))('fails with exactly this message for %s', (_label, changes) => {
    const errors = errorsOf(rule.page, with_(changes));
    expect(errors[rule.key]).toEqual([rule.message]);
    // and nothing else of the valid application breaks
    expect(Object.keys(errors).sort()).toEqual([rule.key, ...(rule.also ?? [])].sort());
  });
  it.each(rule.pass.map((changes) => [JSON.stringify(changes), changes] as const))('passes for %s', (_label, changes) => {
    expect(errorsOf(rule.page, with_(changes))[rule.key]).toBeUndefined();
  });
});

describe('the table covers every message of spec section 5 "Application answers" and "Phone"', () => {
  const messages = rules.map((rule) => rule.message);
  it.each(specMessages)('%s', (specMessage) => {
    // 'Parent/Guardian N: ...' stands for both parents; {year} for the computed year
    const variants = specMessage.includes('Parent/Guardian N: ') ? ['1', '2'].map((n) => specMessage.replace('N', n)) : [specMessage.replace('{year}', '')];
    for (const variant of variants) expect(messages.some((message) => message.includes(variant)), variant).toBe(true);
  });
});

describe('date windows on a fixed clock (partner time zone)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const about = (changes: Changes) => errorsOf('about', with_({ birth_date: '2000-01-01', ...changes }));

  it('birth date: exactly 13 years ago passes, one day later does not', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-15T17:00:00Z')); // noon in Chicago
    expect(about({ birth_date: '2013-06-15' }).birth_date).toBeUndefined();
    expect(about({ birth_date: '2013-06-16' }).birth_date).toEqual(['You must be 13 years or older to apply.']);
  });

  it('birth date: exactly 100 years ago passes, one day earlier does not', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-15T17:00:00Z'));
    expect(about({ birth_date: '1926-06-15' }).birth_date).toBeUndefined();
    expect(about({ birth_date: '1926-06-14' }).birth_date).toEqual(['This date is not supported. Please contact help support for assistance.']);
  });

  it('mailing effective date: 1 January two years back to 31 December three years ahead', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-15T17:00:00Z'));
    const date = (value: string) => about({ ...mailing, mailing_addr_effective_date: value }).mailing_addr_effective_date;
    expect(date('2024-01-01')).toBeUndefined();
    expect(date('2023-12-31')).toEqual(['The minimum supported year is 2024']);
    expect(date('2029-12-31')).toBeUndefined();
    expect(date('2030-01-01')).toEqual(['The maximum supported year is 2029']);
  });

  it("uses the partner's time zone: at 03:00 UTC on 1 January it is still 31 December in Chicago", () => {
    expect(partner.time_zone).toBe('America/Chicago');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T03:00:00Z'));
    const date = (value: string) => about({ ...mailing, mailing_addr_effective_date: value }).mailing_addr_effective_date;
    expect(date('2023-01-01')).toBeUndefined();
    expect(date('2022-12-31')).toEqual(['The minimum supported year is 2023']);
    expect(date('2028-12-31')).toBeUndefined();
    expect(date('2029-01-01')).toEqual(['The maximum supported year is 2028']);
    // 13 years before 31 December 2025
    expect(about({ birth_date: '2012-12-31' }).birth_date).toBeUndefined();
    expect(about({ birth_date: '2013-01-01' }).birth_date).toEqual(['You must be 13 years or older to apply.']);
  });
});
