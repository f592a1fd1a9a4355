import { describe, expect, it } from 'vitest';
import { counselorAddress, counselorLinkUrl, counselorRequestMail } from '../../src/server/file-items/counselor-requests.ts';
import { counselorLinkToken, requestOfToken } from '../../src/server/file-items/counselor-link-token.ts';

/**
 * The counselor's mail carries what an applicant typed (their name, their school) under the
 * office's name: it can add no header, no line to the subject, no second recipient.
 */
describe('the counselor\'s mail', () => {
  const base = { to: 'counselor@school.example.org', itemId: 'transcript', link: 'https://apply.example.edu/counselor#t', expiresAt: new Date('2027-01-15T18:00:00Z') };

  it('keeps what the applicant typed on one bounded line, in the subject and the text', () => {
    const mail = counselorRequestMail({ ...base, language: 'en', applicant: 'Eve\r\nBcc: victim@example.org\u2028X-Evil: 1', school: `Central\nHigh ${'x'.repeat(500)}` });
    expect(mail.subject).not.toMatch(/[\r\n\u2028\u2029]/);
    expect(mail.subject).toBe('Eve Bcc: victim@example.org X-Evil: 1 asks you to send their transcript to Concordia Heights University');
    expect(mail.text).toContain('Eve Bcc: victim@example.org X-Evil: 1, a student at Central High xxx');
    expect(mail.text).not.toContain('x'.repeat(101));
    expect(mail.to).toBe(base.to);
    expect(mail.text).toContain('January 15, 2027');
    expect(mail.text).toContain(base.link);
  });

  it('is written in the counselor\'s language, dates included', () => {
    const mail = counselorRequestMail({ ...base, language: 'es', applicant: 'Ada Lovelace', school: 'Central High School' });
    expect(mail.text).toContain('15 de enero de 2027');
    expect(mail.senderName).toContain('Admisiones');
  });

  it('takes one plain address only', () => {
    for (const good of ['counselor@school.example.org', ' Ms.Rivera+ada@central-high.k12.example.us ']) expect(counselorAddress(good), good).toBe(good.trim());
    for (const bad of ['', 'a@b', 'a b@school.org', 'a@school.org, b@school.org', 'Eve <a@school.org>', 'a@school.org\r\nBcc: b@x.org', 'a@-school.org', `${'a'.repeat(65)}@school.org`, 'a@school.org.', '"a"@school.org', 'a@[127.0.0.1]']) {
      expect(counselorAddress(bad), bad).toBeUndefined();
    }
  });

  it('puts the token in the link\'s fragment, and takes back only a token it signed', () => {
    const id = '0f6b1d3e-2c4a-4e5f-9a8b-7c6d5e4f3a2b';
    const token = counselorLinkToken('key', id);
    expect(counselorLinkUrl('https://apply.example.edu', token, 'es')).toBe(`https://apply.example.edu/counselor?lang=es#${token}`);
    expect(counselorLinkUrl('https://apply.example.edu', token, 'en')).toBe(`https://apply.example.edu/counselor#${token}`);
    expect(requestOfToken('key', token)).toBe(id);
    expect(requestOfToken('other key', token)).toBeUndefined();
    expect(requestOfToken('key', `${id}.${token.split('.')[1]!.slice(1)}`)).toBeUndefined();
    expect(requestOfToken('key', token.toUpperCase())).toBeUndefined();
    expect(requestOfToken('key', 42)).toBeUndefined();
  });
});
