// Generated from conformance/schema/scenario.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * An operation on the subject (`op`) or an action on a fixture (`fixture`).
 *
 * This interface was referenced by `Scenario`'s JSON-Schema
 * via the `definition` "step".
 */
export type Step = OperationStep | FixtureStep;
/**
 * RFC 6901 JSON Pointer; '' is the whole document.
 *
 * This interface was referenced by `Scenario`'s JSON-Schema
 * via the `definition` "pointer".
 */
export type Pointer = string;

/**
 * One conformance scenario: data only. See conformance/README.md#scenario-format.
 */
export interface Scenario {
  /**
   * The file's path under fixtures/scenarios/, without .yaml (lint checks it): e.g. mcp/allowlist/absent. Matrix expansions append [path].
   */
  id: string;
  title: string;
  description?: string;
  /**
   * SPEC.md clause ids this scenario checks.
   *
   * @minItems 1
   */
  spec: [string, ...string[]];
  /**
   * Free labels for --tag, except `exclusive`: under `run --jobs N` the scenario runs with nothing else in flight (it observes state a subject's lanes share, or a bound holds only while it has the machine to itself). See conformance/README.md#running-scenarios-at-once.
   */
  tags?: string[];
  /**
   * Capabilities a subject must declare (runners/PROTOCOL.md#capabilities).
   */
  requires?: string[];
  provenance?: Provenance;
  /**
   * Expand over the paths of a matrix the suite defines, by its name, or over a list of the suite's paths; lint checks each name against the suite.
   */
  matrix?: string | [string, ...string[]];
  /**
   * Fixture servers by the name steps use; each is started before the first step and always stopped.
   */
  fixtures?: {
    [k: string]: {
      kind: string;
      options?: {};
    };
  };
  /**
   * Why this scenario's times cannot stretch with run --time-scale: they are measured against a time the contract fixes (a default, a grace), which no scale moves in the subject. It then runs at its own times at any scale; the report counts it.
   */
  fixedTimes?: string;
  /**
   * Default per-step timeout.
   */
  timeoutMs?: number;
  /**
   * @minItems 1
   */
  steps: [Step, ...Step[]];
}
/**
 * Where the case comes from: `captured` from a live exchange, or `constructed` from a description.
 *
 * This interface was referenced by `Scenario`'s JSON-Schema
 * via the `definition` "provenance".
 */
export interface Provenance {
  source: string;
  date?: string;
  provider?: string;
  kind: "captured" | "constructed";
  /**
   * What the capture was made from: a HAR 1.2 file, a raw HTTP/1.1 request dump (or a curl --trace-ascii file), the recording proxy, or a hand-written capture.
   */
  format?: "har" | "raw-http" | "proxy" | "capture";
  /**
   * When the exchange was captured (ISO 8601): the HAR entry's startedDateTime, or the time of the import.
   */
  capturedAt?: string;
  /**
   * sha256 (hex) of the original input file's bytes, before redaction: it identifies the original without revealing it.
   */
  originalSha256?: string;
  /**
   * Client inputs the wire could not hold and the import guessed (requestParams from the body's extra keys, a bodyTransform removing keys the client would add, a defaulted upstream reply): `--client FILE` supplies them exactly.
   */
  derived?: string[];
}
/**
 * Only for matrix expansions whose variables have these values, e.g. {path.style: openai}.
 *
 * This interface was referenced by `Scenario`'s JSON-Schema
 * via the `definition` "when".
 */
export interface When {
  "path.style"?: ("openai" | "anthropic") | ["openai" | "anthropic", ...("openai" | "anthropic")[]];
  "path.mode"?: ("run" | "stream") | ["run" | "stream", ...("run" | "stream")[]];
  "path.op"?:
    | ("client.run" | "client.stream")
    | ["client.run" | "client.stream", ...("client.run" | "client.stream")[]];
  "path.id"?:
    | ("openai-run" | "openai-stream" | "anthropic-run" | "anthropic-stream")
    | [
        "openai-run" | "openai-stream" | "anthropic-run" | "anthropic-stream",
        ...("openai-run" | "openai-stream" | "anthropic-run" | "anthropic-stream")[]
      ];
}
/**
 * This interface was referenced by `Scenario`'s JSON-Schema
 * via the `definition` "operationStep".
 */
export interface OperationStep {
  /**
   * An operation of runners/PROTOCOL.md, or ${path.op}.
   */
  op: string;
  title?: string;
  /**
   * The operation's input; strings may use ${var}.
   */
  with?: {};
  timeoutMs?: number;
  /**
   * After an earlier step failed, this step still runs (and reports) when every step it depends on ran and passed: the step that created each handle its input names (operations.schema.json `x-creates-handle`) and every earlier fixture step. It reads no variable an earlier step captures (lint checks). A step without it does not run after a failure. See conformance/README.md#independent-steps.
   */
  independent?: true;
  when?: When;
  /**
   * Fixtures whose snapshot the engine takes the moment the operation settles (the subject's answer arrives), before anything else runs; assertions with `settled: true` read it.
   *
   * @minItems 1
   */
  snapshotOnSettle?: [string, ...string[]];
  /**
   * Variable name -> JSON Pointer into the step result {value, error, elapsedMs}.
   */
  capture?: {
    [k: string]: Pointer;
  };
  expect?: Assertion[];
}
/**
 * This interface was referenced by `Scenario`'s JSON-Schema
 * via the `definition` "assertion".
 */
export interface Assertion {
  at: Pointer;
  /**
   * Assert on this fixture's snapshot instead of the step result.
   */
  fixture?: string;
  /**
   * Assert on a captured variable instead of the step result.
   */
  var?: string;
  when?: When;
  /**
   * Shown with a failure: what the assertion proves.
   */
  because?: string;
  /**
   * Re-read the target (a fixture snapshot) until the assertion holds, at most this long.
   */
  eventuallyMs?: number;
  /**
   * Once the assertion holds, keep re-reading the target (a fixture snapshot) this long: it must go on holding. For 'nothing is left' checks, which a late reconnect or a child started after the answer would break.
   */
  holdsForMs?: number;
  /**
   * Read the fixture snapshot the engine took the moment this step's operation settled (the step lists the fixture in `snapshotOnSettle`), not a fresh one: what held when the subject answered, e.g. a connection closed before a load rejected. Never with eventuallyMs or holdsForMs.
   */
  settled?: true;
  /**
   * Deep equality (object key order ignored).
   */
  equals?: unknown;
  /**
   * JSON subset: every key/element given must match; others may exist.
   */
  subset?: unknown;
  /**
   * The key at `at` does not exist (not the same as null or empty).
   */
  absent?: true;
  present?: true;
  /**
   * Same elements, any order.
   */
  setEquals?: unknown[];
  /**
   * Same elements, same order.
   */
  orderedEquals?: unknown[];
  /**
   * A list has an element matching this subset, or a string contains this text.
   */
  contains?: unknown;
  /**
   * No list element matches this subset; a string does not contain this text.
   */
  notContains?: unknown;
  length?: number;
  atMost?: number;
  atLeast?: number;
  /**
   * A string holding JSON text whose parsed value deep-equals this one: key order and whitespace are the port's own (SPEC does not pin how a port serializes), so never match JSON text with a regular expression.
   */
  jsonEquals?: unknown;
  /**
   * A regular expression the string value matches.
   */
  matches?: string;
  type?: "string" | "number" | "boolean" | "object" | "array" | "null";
}
/**
 * This interface was referenced by `Scenario`'s JSON-Schema
 * via the `definition` "fixtureStep".
 */
export interface FixtureStep {
  fixture: string;
  action: string;
  title?: string;
  /**
   * The action's input; strings may use ${var}.
   */
  with?: unknown;
  /**
   * After an earlier step failed, this step still runs (and reports) when every step it depends on ran and passed: the step that created each handle its input names (operations.schema.json `x-creates-handle`) and every earlier fixture step. It reads no variable an earlier step captures (lint checks). A step without it does not run after a failure. See conformance/README.md#independent-steps.
   */
  independent?: true;
  when?: When;
  expect?: Assertion[];
}
