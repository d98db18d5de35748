// How a failing step is named in check ids and messages: the op a matrix path chose, the step's title,
// the target an assertion reads (result, fixture, captured variable).
import { describe, expect, it } from "vitest";
import { runScenario } from "../../../conformance/engine/run.ts";
import { toolnexusSuite } from "../../../conformance/suite/toolnexus.ts";
import { expandYaml, fakeSubject, ok } from "../helpers.ts";

const suiteFixtures = { fixtureKinds: toolnexusSuite.fixtureKinds };

describe("failure names", () => {
  it("a matrix step's check id names the op its path chose; a titled step's failure carries the title", async () => {
    const yaml =
      `id: t.names\ntitle: t\nspec: [core.tool-result]\nmatrix: [openai-stream]\nsteps:\n` +
      `  - op: "\${path.op}"\n    title: the call\n    with: {client: c, prompt: hi}\n    expect:\n      - {at: /value/text, equals: hello}\n`;
    const result = await runScenario(
      expandYaml(yaml)[0],
      fakeSubject(() => ok({ text: "bye" })),
      suiteFixtures,
    );
    expect(result.failures?.map((failure) => [failure.check, failure.stepTitle, failure.message.split(":").slice(0, 3).join(":")])).toEqual(
      [["step 1 (client.stream) /value/text", "the call", 'inline.yaml:10: step 1 (op client.stream, "the call"), result at /value/text']],
    );
  });

  it("an untitled step's failure has no stepTitle; an assertion on a captured variable says `var NAME`", async () => {
    const yaml =
      `id: t.var\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: runner.echo\n    with: {value: 1}\n` +
      `    capture: {got: /value/value}\n    expect:\n      - {var: got, at: "", equals: 2}\n`;
    const result = await runScenario(
      expandYaml(yaml)[0],
      fakeSubject((_, input) => ok(input)),
      suiteFixtures,
    );
    expect(result.failures).toHaveLength(1);
    expect("stepTitle" in result.failures![0]).toBe(false);
    expect(result.failures![0]).toMatchObject({ check: 'step 1 (runner.echo) var got ""', target: "var got" });
    expect(result.message).toMatch(/^inline\.yaml:9: step 1 \(op runner\.echo\), var got at \(whole document\): not equal/);
  });
});
