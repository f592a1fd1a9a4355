import { describe, expect, it } from 'vitest';
import { formatSpread, ratioSpread } from '../../bench/form/ratio-spread.ts';

describe('the spread of a ratio of medians', () => {
  it('is the ratio itself when every visit took the same time', () => {
    expect(ratioSpread([[200, 200, 200], [100, 100, 100]], ([a, b]) => a! / b!)).toEqual([2, 2]);
  });

  it('holds the ratio of the medians, and widens with the visits\' own spread', () => {
    const steady = ratioSpread([[100, 101, 99, 100, 102], [100, 99, 101, 100, 98]], ([a, b]) => a! / b!);
    const noisy = ratioSpread([[60, 100, 140, 80, 120], [100, 99, 101, 100, 98]], ([a, b]) => a! / b!);
    expect(steady[0]).toBeLessThanOrEqual(1);
    expect(steady[1]).toBeGreaterThanOrEqual(1);
    expect(noisy[1] - noisy[0]).toBeGreaterThan(steady[1] - steady[0]);
    expect(noisy[1] - noisy[0]).toBeGreaterThan(0.2);
  });

  it('gives the same figures for the same visits (a fixed seed)', () => {
    const samples = [[60, 100, 140, 80, 120], [90, 110, 100]];
    expect(ratioSpread(samples, ([a, b]) => a! / b!)).toEqual(ratioSpread(samples, ([a, b]) => a! / b!));
    expect(formatSpread([0.8456, 1.1234])).toBe('0.85-1.12');
  });
});
