// `record` writes what the reference sends into a scenario's marked assertions (comments survive),
// and `run` then flags drift with a path diff.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers.ts";

const work = await mkdtemp(join(tmpdir(), "tnc-record-"));
afterAll(() => rm(work, { recursive: true, force: true }));

/** The CLI in process; its exit status and everything it printed. */
async function cli(...args: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await runCli(args);
  return { code, output: `${stdout}${stderr}` };
}

const scenario = (temperature: number, name = "golden") => `# yaml-language-server: $schema=../conformance/schema/scenario.schema.json
id: ${name}
title: a golden body recorded from the reference
spec: [client.request-params.merge]
tags: [recorded]
requires: [client.request-params, client.body-transform]
matrix: [openai-run, openai-stream]
fixtures:
  llm: {kind: llm-mock}
steps:
  - fixture: llm
    action: script
    with: [{text: ok}]
  # the client under test: keep this comment
  - op: client.create
    with: {handle: c, style: "\${path.style}", baseUrl: "\${llm.baseUrl}", model: m1, requestParams: {temperature: ${temperature}}, bodyTransform: {patch: []}}
  - op: "\${path.op}"
    with: {client: c, prompt: hi}
    expect:
      - at: /value/text
        equals: ok
      # recorded: the wire body
      - fixture: llm
        at: /requests/0/body
        when: {path.id: openai-run}
        equals: {}
      - fixture: llm
        at: /requests/0/body
        when: {path.id: openai-stream}
        equals: {}
  - op: client.observations
    with: {client: c}
    expect:
      - at: /value/transformInputs/0
        when: {path.id: openai-run}
        equals: {}
      - at: /value/transformInputs/0
        when: {path.id: openai-stream}
        equals: {}
`;

describe("record", () => {
  it("writes the reference's bodies, keeps comments, prints a review diff; run then flags drift by JSON path", async () => {
    const file = join(work, "golden.yaml");
    await writeFile(file, scenario(0.42));

    const dry = await cli("record", file, "--dry-run");
    expect(dry.code, dry.output).toBe(0);
    expect(dry.output).toContain("would change");
    expect(await readFile(file, "utf8")).toBe(scenario(0.42));

    const before = await cli("run", file);
    expect(before.code, "the placeholders fail before recording").toBe(1);

    const recorded = await cli("record", file);
    expect(recorded.code, recorded.output).toBe(0);
    expect(recorded.output).toContain("+ /requests/0/body/temperature: 0.42");
    expect(recorded.output).toContain("+ /value/transformInputs/0/stream: true");
    expect(recorded.output).toContain("review the diff above");
    const text = await readFile(file, "utf8");
    expect(text).toContain("# the client under test: keep this comment");
    expect(text).toContain("# recorded: the wire body");
    expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=../conformance/schema/scenario.schema.json");
    expect(text).toContain("stream_options: { include_usage: true }");

    const again = await cli("record", file);
    expect(again.output).toContain("unchanged");
    expect(await readFile(file, "utf8")).toBe(text);

    const clean = await cli("run", file);
    expect(clean.code, clean.output).toBe(0);

    // Change what the reference sends, on purpose: the recorded expectation catches it by path.
    const edited = text.replace(/requestParams: \{ ?temperature: 0\.42 ?\}/, "requestParams: {temperature: 0.7}");
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    const drift = await cli("run", file);
    expect(drift.code).toBe(1);
    expect(drift.output).toContain("/requests/0/body/temperature: expected 0.42, got 0.7");
  });

  it("refuses an assertion that covers expansions which sent different bodies, and a scenario with nothing marked", async () => {
    const file = join(work, "ambiguous.yaml");
    await writeFile(
      file,
      scenario(0.1, "ambiguous").replace(
        "        when: {path.id: openai-run}\n        equals: {}\n      - fixture: llm\n        at: /requests/0/body\n        when: {path.id: openai-stream}\n",
        "",
      ),
    );
    const ambiguous = await cli("record", file);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.output).toContain("which sent different values; split it with when:");

    const untagged = join(work, "untagged.yaml");
    await writeFile(untagged, scenario(0.1, "untagged").replace("tags: [recorded]", "tags: [golden]"));
    const nothing = await cli("record", untagged);
    expect(nothing.code).toBe(1);
    expect(nothing.output).toContain('nothing to record: tag the scenario "recorded"');
  });
});
