// What a conformance suite tells the generic parts (scenario, engine) about itself. The generic parts
// know no fixture kind, capability or matrix of their own: the CLI hands them a SuiteDefinition
// (toolnexus's is conformance/suite/toolnexus.ts).
import type { Environment } from "../common/environment.ts";
import type { FixtureKind } from "./fixture.ts";
import type { SuiteBoundaries } from "./boundaries/table.ts";
import type { ExpansionSuite } from "./expand.ts";
import type { TimeKeys } from "./time-scale.ts";

export interface SuiteDefinition extends ExpansionSuite {
  /** The suite's name, as reports title themselves with it: "toolnexus" -> "toolnexus compliance matrix". */
  title: string;
  /**
   * The process environment the subjects must run in (variables its fixtures' configs name): whoever
   * opens subjects applies it first (conformance/common/environment.ts).
   */
  environment: Environment;
  /** The fixture kinds a scenario may declare, by name. */
  fixtureKinds: ReadonlyMap<string, FixtureKind>;
  /** The capabilities `requires:` may name. */
  capabilities: readonly string[];
  /** The suite's rows of the boundary-value table beside the operations' own, and its explanations file. */
  boundaries: SuiteBoundaries;
  /** The keys its scenarios hold times under beyond the format's rule (`...Ms`), for `run --time-scale`. */
  timeKeys: TimeKeys;
}
