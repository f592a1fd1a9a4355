/**
 * How far a ratio of medians can be trusted: the visits of each page are drawn again with
 * replacement (a bootstrap, 2,000 times, from a fixed seed so a run's figures can be
 * reproduced) and the ratio taken each time; the 5th and 95th percentiles of those ratios
 * are its spread. A ratio whose spread crosses 1.0 does not tell the two pages apart.
 */
import { percentile } from '../load/stats.ts';

const RESAMPLES = 2_000;

/** A small seeded generator (mulberry32): the same seed, the same draws. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The median as the tables take it (a rank, not an average of the middle two), so the printed ratio lies inside its spread. */
const medianOf = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

/**
 * The 5th-95th percentile range of `ratio(medians)` over bootstrap resamples of each sample
 * in `samples` (one array of visits per page the ratio reads).
 */
export function ratioSpread(samples: number[][], ratio: (medians: number[]) => number): [number, number] {
  const random = seeded(20261129);
  const draws: number[] = [];
  for (let index = 0; index < RESAMPLES; index++) {
    const medians = samples.map((values) => medianOf(values.map(() => values[Math.floor(random() * values.length)]!)));
    const value = ratio(medians);
    if (Number.isFinite(value)) draws.push(value);
  }
  draws.sort((a, b) => a - b);
  return [draws[Math.floor(draws.length * 0.05)] ?? Number.NaN, draws[Math.floor(draws.length * 0.95)] ?? Number.NaN];
}

/** "0.85-1.12": a spread as the tables print it. */
export const formatSpread = ([low, high]: [number, number]) => `${low.toFixed(2)}-${high.toFixed(2)}`;
