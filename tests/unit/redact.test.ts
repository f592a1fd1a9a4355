import { describe, expect, it } from 'vitest';
import { redactAddress } from '../../src/server/lib/redact.ts';

describe('redactAddress', () => {
  it('hides the credentials an address carries before its host, however they are spelt', () => {
    expect(redactAddress('fetch failed for https://office:Sw0rdfish@hooks.example.edu/in?x=1'))
      .toBe('fetch failed for https://[redacted]@hooks.example.edu/in?x=1');
    // an @ inside the password does not leave its tail behind
    expect(redactAddress('postgres://app:p@ss@db.example.edu:5432/apply')).toBe('postgres://[redacted]@db.example.edu:5432/apply');
    expect(redactAddress('"http://:only-password@host/" and smtp://u:v@mail.example.edu'))
      .toBe('"http://[redacted]@host/" and smtp://[redacted]@mail.example.edu');
  });

  it('leaves an address without credentials, and an @ in its query, as they are', () => {
    expect(redactAddress('https://hooks.example.edu/in/path?name=a@b.example')).toBe('https://hooks.example.edu/in/path?name=a@b.example');
  });

  it('still hides tokens in the query', () => {
    expect(redactAddress('/about?token=abc123&x=1')).toBe('/about?token=[redacted]&x=1');
  });

  it('hides the e-mail address the reset link carries, so the access log does not name the applicant', () => {
    expect(redactAddress('/reset?username=ada%40example.org&id=abc')).toBe('/reset?username=[redacted]&id=[redacted]');
  });

  it('hides an office key sent in an address by mistake, under any parameter name or in the path', () => {
    const key = `ok_${'Ab3-_'.repeat(8)}xyz`;
    expect(redactAddress(`/api/office/applicants?email=a%40b.org&key=${key}`)).toBe('/api/office/applicants?email=[redacted]&key=ok_[redacted]');
    expect(redactAddress(`/api/office/${key}/file`)).toBe('/api/office/ok_[redacted]/file');
  });
});
