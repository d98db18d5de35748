// Generated from conformance/schema/baseline.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * This interface was referenced by `Baseline`'s JSON-Schema
 * via the `definition` "entry".
 */
export type Entry = {
  /**
   * An expanded scenario id, e.g. client/request-params/top-level[openai-run].
   */
  scenario: string;
  /**
   * The status this scenario is expected to end with.
   */
  status: "fail" | "error";
  /**
   * The check ids expected to fail (conformance/README.md#check-ids), e.g. 'step 3 (client.run) llm /requests/0/body/system'. Required for status fail: a failure on any other check fails the run, and a listed check that holds is stale. `npm run conformance -- baseline --update FILE --runner NAME` rewrites them from a run.
   *
   * @minItems 1
   */
  checks?: [string, ...string[]];
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
};

/**
 * A subject's expected failures (runners/NAME/expected-failures.yaml). Strict: an unlisted failure fails the run, and so does a listed scenario failing on a check its entry does not list, a listed scenario that now passes, or a listed check that now holds.
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
  measured?: Measured;
  /**
   * Why no run has measured this subject yet (the installer's own words where it could not be obtained); then entries is empty. A baseline says measured or notMeasured, not both.
   */
  notMeasured?: string;
  entries: Entry[];
}
/**
 * The run the entries agree with: when, by which command, against what. `baseline --update` over the whole suite writes it when the file ends matching the run.
 *
 * This interface was referenced by `Baseline`'s JSON-Schema
 * via the `definition` "measured".
 */
export interface Measured {
  /**
   * The day of that run, YYYY-MM-DD.
   */
  date: string;
  /**
   * The conformance command that ran it, e.g. npm run conformance -- run --runner go@source --source <checkout>.
   */
  command: string;
  /**
   * What it ran against when the package line alone does not say, e.g. upstream commit 6cb8bd1 (tag v0.16.0).
   */
  against?: string;
}
