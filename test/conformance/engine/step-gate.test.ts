// The names and reasons of steps that did not run after a failure: a step whose op is a path variable
// is named by the op its path chose (or as written when that cannot be resolved), and a step kept back
// by several earlier steps lists each of them.
import { describe, expect, it } from "vitest";
import { runScenario } from "../../../conformance/engine/run.ts";
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { expandYaml, fakeSubject, ok, recordingFixture } from "../helpers.ts";

const fails = `  - op: runner.echo\n    with: {value: 1}\n    expect:\n      - {at: /value/value, equals: 2}\n`;

describe("steps not run", () => {
  it("are named by the op the path chose, or as written when it names no path variable", async () => {
    const yaml =
      `id: t.gate\ntitle: t\nspec: [core.tool-result]\nmatrix: [openai-stream]\nsteps:\n${fails}` +
      `  - op: "\${path.op}"\n    with: {client: c, prompt: hi}\n  - op: "\${nope}"\n    with: {}\n`;
    const result = await runScenario(
      expandYaml(yaml)[0],
      fakeSubject((_, input) => ok(input)),
      { fixtureKinds: toolnexusSuite.fixtureKinds },
    );
    expect(result.notRun?.map((step) => step.name)).toEqual(["step 2 (client.stream)", "step 3 (${nope})"]);
  });

  it("list every earlier step they depend on that did not pass, each with why", async () => {
    const fixture = recordingFixture();
    const yaml =
      `id: t.deps\ntitle: t\nspec: [core.tool-result]\nfixtures: {srv: {kind: recording}}\nsteps:\n` +
      `  - op: toolkit.create\n    with: {handle: t1}\n    expect:\n      - {at: /value/status, equals: {x: 1}}\n` +
      `  - fixture: srv\n    action: poke\n  - op: toolkit.tools\n    independent: true\n    with: {toolkit: t1}\n`;
    const result = await runScenario(
      expandYaml(yaml)[0],
      fakeSubject(() => ok({ status: {} })),
      { fixtureKinds: new Map([[fixture.kind.kind, fixture.kind]]) },
    );
    expect(result.notRun?.map((step) => step.reason)).toEqual([
      "step 1 (toolkit.create) failed, and this step is not marked independent",
      "it depends on step 2 (fixture srv poke) (a fixture step), which did not run; step 1 (toolkit.create) (it creates toolkit t1), which failed",
    ]);
  });
});
