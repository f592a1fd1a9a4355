/**
 * An application file item in words: required, optional or not needed for this applicant;
 * its state with the day it changed, in the partner's time zone and as the language writes
 * dates; and what a refresh that brought new states says to a screen reader.
 */
import { describe, expect, it } from 'vitest';
import fileItems from '../../schemas/file-items.json';
import spanish from '../../src/shared/generated/es/schemas/file-items.json';
import { calendarDay, changedStates, requirementWord, stateLine } from '../../src/shared/file-items/item-words.ts';

const texts = fileItems.texts;

describe('an item in words', () => {
  it('says Required, Optional, or Not needed when its rule does not hold on the answers', () => {
    expect(requirementWord({ id: 'transcript', required: true, state: 'missing', changed_at: null })).toBe(texts.required);
    expect(requirementWord({ id: 'counselor-recommendation', required: false, state: 'missing', changed_at: null })).toBe(texts.optional);
    expect(requirementWord({ id: 'test-scores', required: false, state: 'missing', changed_at: null })).toBe(texts.not_needed);
  });

  it('dates a state in the partner\'s time zone, as each language writes it', () => {
    // 03:00 UTC on the 6th is still the 5th in Chicago
    const item = { id: 'transcript', required: true, state: 'received' as const, changed_at: '2026-12-06T03:00:00.000Z' };
    expect(stateLine(item, 'en')).toBe('Received on December 5, 2026');
    expect(stateLine(item, 'es', spanish.texts)).toBe('Recibido el 5 de diciembre de 2026');
    expect(stateLine({ ...item, state: 'missing', changed_at: null }, 'en')).toBe('Missing');
    expect(calendarDay('2026-12-19', 'en')).toBe('December 19, 2026');
    expect(calendarDay('2026-12-19', 'es')).toBe('19 de diciembre de 2026');
  });

  it('announces the items whose state a refresh changed, and nothing on the first read', () => {
    const before = [
      { id: 'transcript', required: true, state: 'requested' as const, changed_at: '2026-12-01T15:00:00Z' },
      { id: 'test-scores', required: true, state: 'missing' as const, changed_at: null },
    ];
    const after = [{ ...before[0]!, state: 'received' as const, changed_at: '2026-12-05T15:00:00Z' }, before[1]!];
    expect(changedStates(undefined, after, 'en')).toBe('');
    expect(changedStates(before, before, 'en')).toBe('');
    expect(changedStates(before, after, 'en')).toBe('Official high school transcript: Received on December 5, 2026');
  });
});
