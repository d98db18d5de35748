// Version labels as runners, listings and users write them (0.16.0, 1.0.0-rc.1, 0.9.0rc1, 1.0.0.post1),
// and their order: the one reading of a version for `history` (its --versions, a runner's
// versions.list, its columns) and for the runner registry (NAME@VERSION's build folder).

/** What a version label may hold at all: no spaces, no @, no path separator (it names a build folder). */
export const isVersionLabel = (text: string) => /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/.test(text);

interface ParsedVersion {
  numbers: number[];
  /** -1 a pre-release (1.0.0-rc.1, 1.0.0rc1, 1.0.0.dev1), 0 the release, 1 a post-release (1.0.0.post1). */
  rank: number;
  suffix: string[];
}

const versionPattern = /^v?(\d+(?:\.\d+)*)(?:[-.]?([0-9A-Za-z][0-9A-Za-z.-]*))?(?:\+[0-9A-Za-z.-]+)?$/;

function parseVersion(version: string): ParsedVersion | undefined {
  const match = versionPattern.exec(version.trim());
  if (!match) return undefined;
  const suffix = match[2] ? match[2].split(/[.-]/).filter(Boolean) : [];
  return { numbers: match[1].split(".").map(Number), rank: !suffix.length ? 0 : /^post/i.test(suffix[0]) ? 1 : -1, suffix };
}

/** A semver-style label that looks like a version (digits first): what a version list may hold. */
export const looksLikeVersion = (text: string) => parseVersion(text) !== undefined;

/** Semver order (numerically per part, a pre-release before its release); what is no version sorts last, by text. */
export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) return left ? -1 : right ? 1 : a.localeCompare(b);
  for (let index = 0; index < Math.max(left.numbers.length, right.numbers.length); index++) {
    const difference = (left.numbers[index] ?? 0) - (right.numbers[index] ?? 0);
    if (difference) return Math.sign(difference);
  }
  if (left.rank !== right.rank) return Math.sign(left.rank - right.rank);
  for (let index = 0; index < Math.max(left.suffix.length, right.suffix.length); index++) {
    const [x, y] = [left.suffix[index], right.suffix[index]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const [xNumber, yNumber] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (xNumber && yNumber && Number(x) !== Number(y)) return Math.sign(Number(x) - Number(y));
    if (xNumber !== yNumber) return xNumber ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.localeCompare(b);
}

/** Sorted semver-wise, each once. */
export const sortVersions = (versions: Iterable<string>) => [...new Set(versions)].sort(compareVersions);

/** A version as a user or a listing command writes it: a label (isVersionLabel) with digits first (0.16.0, 1.0.0-rc.1, 0.9.0rc1). */
export const isVersionToken = (text: string) => isVersionLabel(text) && looksLikeVersion(text);
