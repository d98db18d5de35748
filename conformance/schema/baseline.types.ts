// Generated from conformance/schema/baseline.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * A subject's expected failures (runners/NAME/expected-failures.yaml). Strict: an unlisted failure fails the run, and so does a listed entry that now passes.
 */
export interface Baseline {
  /**
   * The runner name this baseline belongs to.
   */
  subject: string;
  /**
   * The package and version the entries were measured against, e.g. toolnexus==0.21.0.
   */
  package?: string;
  entries: Entry[];
}
/**
 * This interface was referenced by `Baseline`'s JSON-Schema
 * via the `definition` "entry".
 */
export interface Entry {
  /**
   * An expanded scenario id, e.g. client.request-params.merge[openai-run].
   */
  scenario: string;
  /**
   * The status this scenario is expected to end with.
   */
  status: "fail" | "error";
  /**
   * The SPEC.md clause the divergence is about.
   */
  clause: string;
  /**
   * port-differs: the port does not do what SPEC says; spec-pinned: SPEC pinned a choice the port did not make; port-bug: a real bug a port maintainer should fix.
   */
  classification: "port-differs" | "spec-pinned" | "port-bug";
  /**
   * One line a port maintainer can act on.
   */
  reason: string;
  /**
   * false only where the port's outcome depends on timing it does not control (the reason must say which): a pass is then not stale, as pytest's xfail(strict=False). Any other unexpected status still fails the run.
   */
  strict?: boolean;
}
