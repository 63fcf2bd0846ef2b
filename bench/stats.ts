// Small statistics of the measurements, kept pure so that a spec can hold them (test/bench-stats.spec.ts).

export function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The mean of the middle half (a quarter left off each end): a slice that a collection or the host's noise hit weighs nothing. */
export function trimmedMean(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const quarter = Math.floor(sorted.length / 4);
  return mean(sorted.slice(quarter, sorted.length - quarter));
}

/** The nearest-rank percentile `p` (0-1) of values sorted in ascending order; 0 when there are none. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

/**
 * A scenario's rate against the baseline interleaved with it: round `i` is the scenario slice's
 * rate over the mean of baseline slices `i` and `i + 1` (the slices either side of it), and the
 * ratio is the median of the rounds.
 */
export function interleavedRatio(sliceRates: number[], baselineRates: number[]): { rounds: number[]; ratio: number } {
  if (baselineRates.length !== sliceRates.length + 1)
    throw new Error('a baseline slice goes before each round and after the last');
  const rounds = sliceRates.map((rate, i) => rate / ((baselineRates[i] + baselineRates[i + 1]) / 2));
  return { rounds, ratio: median(rounds) };
}
