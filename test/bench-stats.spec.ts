import { interleavedRatio, median, percentile, trimmedMean } from '../bench/stats';

describe('the benchmark statistics', () => {
  it('takes the nearest-rank percentile of sorted answer times', () => {
    const times = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100 ms
    expect(percentile(times, 0.5)).toBe(50);
    expect(percentile(times, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('gives the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('averages the middle half, so that a few slices a collection hit move nothing', () => {
    expect(trimmedMean([10, 11, 12, 13, 500, -400, 11, 12])).toBe(11.5);
    expect(trimmedMean([7])).toBe(7);
  });

  it('judges each round against the baseline slices either side of it', () => {
    // The machine halves its speed from the second baseline slice on: the scenario's slices halve too.
    const { rounds, ratio } = interleavedRatio([400, 200, 200], [1000, 500, 500, 500]);
    expect(rounds.map((r) => Math.round(r * 1000) / 1000)).toEqual([0.533, 0.4, 0.4]);
    expect(ratio).toBe(0.4);
  });

  it('leaves out a slow spell that only one round met', () => {
    // A scenario at 40 % of the baseline, but its third slice ran in a spell at half speed.
    const { ratio } = interleavedRatio([400, 400, 200, 400, 400, 400], [1000, 1000, 1000, 1000, 1000, 1000, 1000]);
    expect(ratio).toBe(0.4);
  });

  it('refuses slices without a baseline on both sides', () => {
    expect(() => interleavedRatio([400, 400], [1000, 1000])).toThrow(/before each round and after the last/);
  });
});
