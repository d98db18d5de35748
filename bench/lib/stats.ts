// Distributions of samples: every figure the bench prints is one of these, never a single timing.

export interface Summary {
  n: number;
  min: number;
  median: number;
  p95: number;
  max: number;
  mean: number;
}

/** The q-quantile (0..1) of sorted values, linearly interpolated between closest ranks. */
export function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  if (q <= 0) return sorted[0];
  if (q >= 1) return sorted[sorted.length - 1];
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

export function summarize(samples: readonly number[]): Summary {
  const finite = samples.filter((value) => Number.isFinite(value));
  if (!finite.length) return { n: 0, min: Number.NaN, median: Number.NaN, p95: Number.NaN, max: Number.NaN, mean: Number.NaN };
  const sorted = [...finite].sort((a, b) => a - b);
  return {
    n: sorted.length,
    min: sorted[0],
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted[sorted.length - 1],
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
  };
}

/** Element-wise a[i] / b[i]: ratios of samples taken side by side (same iteration), not of medians. */
export function pairedRatios(numerators: readonly number[], denominators: readonly number[]): number[] {
  const count = Math.min(numerators.length, denominators.length);
  return Array.from({ length: count }, (_, index) => numerators[index] / denominators[index]);
}

/** The median of a list (convenience for per-run aggregation). */
export function median(values: readonly number[]): number {
  return summarize(values).median;
}
