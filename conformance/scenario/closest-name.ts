// "Did you mean ...?": the one nearest-name search for lint (clause ids, capabilities) and the
// command line (commands, runner names).

/**
 * The candidate within a typo's reach of `word` (a swap, a missing, extra or wrong letter per 3
 * letters, and at least `minimumReach` edits), case ignored, if any.
 */
export function closestName(word: string, candidates: Iterable<string>, minimumReach = 1): string | undefined {
  const reach = Math.max(minimumReach, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = reach + 1;
  for (const candidate of candidates) {
    const distance = typoDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Edit distance where swapping two neighbouring letters counts as one edit (optimal string alignment). */
function typoDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
