import { describe, expect, it } from 'vitest';
import { normalisedMailbox } from '../../src/server/accounts/mailbox.ts';

describe('the inbox an address delivers to', () => {
  it('ignores case and plus-addressing everywhere', () => {
    for (const spelling of ['ana@example.org', 'Ana@Example.ORG', 'ana+1@example.org', 'ANA+twin.two@example.org', ' ana@example.org.']) {
      expect(normalisedMailbox(spelling)).toBe('ana@example.org');
    }
    expect(normalisedMailbox('ana.maria@example.org')).toBe('ana.maria@example.org'); // dots count where the provider is not known to ignore them
  });

  it('ignores dots, and googlemail.com, where the provider is Gmail', () => {
    for (const spelling of ['ana.maria@gmail.com', 'a.n.a.m.a.r.i.a@gmail.com', 'AnaMaria+apply@googlemail.com']) {
      expect(normalisedMailbox(spelling)).toBe('anamaria@gmail.com');
    }
  });

  it('leaves what is no address as it is', () => {
    expect(normalisedMailbox('+tag@example.org')).toBe('+tag@example.org');
    expect(normalisedMailbox('no-at-sign')).toBe('no-at-sign');
  });
});
