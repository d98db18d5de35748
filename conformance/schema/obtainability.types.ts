// Generated from conformance/schema/obtainability.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * What this machine can obtain for each runner, decided once (`conformance obtainable --json FILE`, conformance/subjects/obtainability.ts) and read by every step that requires a port: npm test's vitest, the quick bench and CI's conformance job (through TNC_OBTAINABLE, the file's path).
 */
export interface Obtainability {
  /**
   * When the decision was made (ISO 8601).
   */
  decidedAt: string;
  runners: RunnerObtainability[];
}
/**
 * This interface was referenced by `Obtainability`'s JSON-Schema
 * via the `definition` "runner".
 */
export interface RunnerObtainability {
  /**
   * The runner's folder under runners/.
   */
  name: string;
  /**
   * The pinned package, as runner.json names it.
   */
  package: string;
  toolchains: Toolchain[];
  port: PortAnswer;
}
/**
 * This interface was referenced by `Obtainability`'s JSON-Schema
 * via the `definition` "toolchain".
 */
export interface Toolchain {
  /**
   * An executable runner.json `requires`.
   */
  tool: string;
  /**
   * On PATH.
   */
  found: boolean;
  /**
   * The first line it printed of its own version.
   */
  version?: string;
}
/**
 * This interface was referenced by `Obtainability`'s JSON-Schema
 * via the `definition` "port".
 */
export interface PortAnswer {
  /**
   * The package client's answer to the runner's probe (runner.json `probe`): served (the registry serves the pinned package); refused (the registry answered and does not serve it: an install fails, exactly as without a probe); unreachable (the client could not reach its registry at all: name resolution or connection failure, so neither the package nor a source build's dependencies can be had here); hung (no answer within the probe's bound); not-asked (the runner has no probe: its install decides); no-toolchain (a required executable is missing, so no client was asked).
   */
  answer: "served" | "refused" | "unreachable" | "hung" | "not-asked" | "no-toolchain";
  /**
   * The client's own words (URLs replaced by <url>), its telling line last.
   */
  words?: string;
  elapsedMs?: number;
}
