// What this machine obtains, as npm test prints it at its start and end and as the step summary
// carries it: one line per runner, its state, its toolchain, and the client's telling line.
import { describe, expect, it } from "vitest";
import { formatObtainability, renderObtainabilityMarkdown } from "../../../conformance/report/obtainability.ts";
import type { Obtainability } from "../../../conformance/schema/obtainability.types.ts";

const decision: Obtainability = {
  decidedAt: "2026-12-04T00:00:00.000Z",
  runners: [
    {
      name: "csharp",
      package: "Toolnexus 0.16.0",
      toolchains: [{ tool: "dotnet", found: true, version: "10.0.401" }],
      port: { answer: "refused", words: "restore\nNU1101: no Toolnexus" },
    },
    { name: "go", package: "golang@v0.16.0", toolchains: [{ tool: "go", found: false }], port: { answer: "no-toolchain" } },
    {
      name: "python",
      package: "toolnexus==0.21.0",
      toolchains: [{ tool: "python3", found: true, version: "Python 3.11.7" }],
      port: { answer: "unreachable", words: "pip\nConnection refused | twice" },
    },
    { name: "ts", package: "reference", toolchains: [], port: { answer: "not-asked" } },
  ],
};

describe("what this machine obtains, said", () => {
  it("on the console: one line per runner, and what each state shown means", () => {
    expect(formatObtainability(decision, "npm test starts")).toEqual([
      "npm test starts (decided 2026-12-04T00:00:00.000Z):",
      "  csharp  REFUSED         dotnet (10.0.401); its registry answered and refused Toolnexus 0.16.0: NU1101: no Toolnexus (csharp@source obtainable: its registry answers (built from source))",
      "  go      NOT OBTAINABLE  go missing; go not on PATH",
      "  python  NOT OBTAINABLE  python3 (Python 3.11.7); its package client could not reach its registry: Connection refused | twice",
      "  ts      obtainable      no probe: its install decides",
      "  (REFUSED: the registry answered and does not serve the pinned package: where it is required, that is a failure)",
      "  (NOT OBTAINABLE: excused here: a toolchain is missing or the package client could not reach its registry at all)",
      "  (obtainable: its toolchain is here and its package client reaches its registry (or the runner has no probe))",
    ]);
  });

  it("in the step summary: the same rows as a table, its cells escaped", () => {
    const markdown = renderObtainabilityMarkdown(decision);
    expect(markdown).toContain("### What this machine obtains (decided 2026-12-04T00:00:00.000Z)");
    expect(markdown).toContain("| go | NOT OBTAINABLE | go missing | go not on PATH |");
    expect(markdown).toContain(
      "| python | NOT OBTAINABLE | python3 (Python 3.11.7) | its package client could not reach its registry: Connection refused \\| twice |",
    );
    expect(markdown.split("\n").filter((line) => line.startsWith("| ")).length).toBe(5);
  });
});
