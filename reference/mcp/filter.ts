// The per-server `tools` map (SPEC.md 2.5, ADR gap 7 with answers A2/A3). Applied to ORIGINAL names,
// before sanitizing and prefixing, so the keys a host stores are the names the server lists.

export interface FilterOutcome<T> {
  kept: T[];
  /** Map keys that matched no listed tool: ignored, but reported so a typo is visible. */
  unknown: string[];
}

/**
 * - undefined (key absent or null): every tool.
 * - {} (present, empty): NO tool. Pinned decision 1: an agent with zero enabled tools fails closed.
 * - at least one `true`: allowlist of the true names (false entries are irrelevant).
 * - only `false` entries: drop-list over all tools.
 */
export function filterTools<T extends { name: string }>(listed: T[], map: Record<string, boolean> | undefined): FilterOutcome<T> {
  if (map === undefined) return { kept: [...listed], unknown: [] };
  const names = new Set(listed.map((tool) => tool.name));
  const unknown = Object.keys(map).filter((key) => !names.has(key));
  const isAllowlist = Object.values(map).some((on) => on);
  const kept =
    Object.keys(map).length === 0 ? [] : listed.filter((tool) => (isAllowlist ? map[tool.name] === true : map[tool.name] !== false));
  return { kept, unknown };
}
