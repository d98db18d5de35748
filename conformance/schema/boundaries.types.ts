// Generated from conformance/schema/boundaries.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * Why a cell of the boundary-value table (an input field x a boundary class its type admits) has no scenario (SPEC-BOUNDARIES.yaml). Lint fails on a cell that is neither covered nor explained here, and on an entry that names a field that no longer exists, a class the field's type does not admit, or a cell a scenario now covers.
 */
export interface BoundaryExplanations {
  explanations: Explanation[];
}
/**
 * This interface was referenced by `BoundaryExplanations`'s JSON-Schema
 * via the `definition` "explanation".
 */
export interface Explanation {
  /**
   * Field ids as the table names them: GROUP.KEY (client.create.timeoutMs, mcp-server.timeout).
   *
   * @minItems 1
   */
  fields: [string, ...string[]];
  /**
   * Every class named holds for every field named: each pair is one cell.
   *
   * @minItems 1
   */
  classes: [
    (
      | "absent"
      | "null"
      | "empty"
      | "zero"
      | "negative"
      | "fractional"
      | "above-default"
      | "non-ascii"
      | "wrong-type"
    ),
    ...(
      | "absent"
      | "null"
      | "empty"
      | "zero"
      | "negative"
      | "fractional"
      | "above-default"
      | "non-ascii"
      | "wrong-type"
    )[]
  ];
  /**
   * no-meaning: the value cannot reach the behaviour under test, or means nothing there. not-yet-covered: it has a meaning and no scenario yet (a debt, counted in lint's output).
   */
  kind: "no-meaning" | "not-yet-covered";
  /**
   * One line a reviewer can check.
   */
  reason: string;
}
