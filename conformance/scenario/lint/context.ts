// What the checks of one scenario share: its declared fixtures and the variables set so far.
import type { SuiteDefinition } from "../suite-definition.ts";
import type { Shape } from "../operand-types.ts";

export type Fixtures = Record<string, { kind: string; options?: unknown }>;

export interface CheckContext {
  fixtureKinds: SuiteDefinition["fixtureKinds"];
  fixtures: Fixtures;
  /** False when the scenario's `fixtures` is malformed: which names it declares is not known. */
  fixturesKnown: boolean;
  /** Variables set so far, each with the shape of what it holds where that is declared. */
  available: Map<string, Shape | undefined>;
  /** A name whose definition lint cannot see (malformed fixtures) is not reported as undefined. */
  unknowable: (name: string) => boolean;
}
