// fixtures/FIXTURES.md is generated from the fixture registry; this fails when a fixture kind changed
// without regenerating it (npm run gen:fixture-docs), and when a kind leaves something undocumented.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { fixtureKinds } from "../../fixtures/registry.ts";
import { fixtureDocsFile, renderFixtureDocs } from "../../scripts/gen-fixture-docs.ts";

describe("fixture docs", () => {
  it(`${fixtureDocsFile} matches the fixture registry`, async () => {
    const current = await readFile(new URL(`../../${fixtureDocsFile}`, import.meta.url), "utf8").catch(() => "(missing)");
    expect(current, `${fixtureDocsFile} is stale: run npm run gen:fixture-docs`).toBe(renderFixtureDocs(fixtureKinds));
  });

  it("documents every kind's options, values, actions and snapshot", () => {
    const text = renderFixtureDocs(fixtureKinds);
    for (const kind of fixtureKinds.values()) {
      expect(text).toContain(`## \`${kind.kind}\``);
      for (const key of kind.varKeys) expect(text).toContain(`\${NAME.${key}}`);
      for (const option of Object.keys((kind.optionsSchema.properties ?? {}) as object)) expect(text).toContain(`| \`${option}\` |`);
      expect(kind.snapshotSchema, `${kind.kind} describes its snapshot`).toBeDefined();
    }
    expect(text).toContain("| `${NAME.config}` | a whole MCP config");
    expect(text).toContain("- `/connections/open` integer >= 0");
  });

  it("refuses a kind that leaves a value or an action undocumented", () => {
    const [llm] = [...fixtureKinds.values()];
    const partial = { ...llm, kind: "partial", varKeys: [...llm.varKeys, "extra"] };
    expect(() => renderFixtureDocs(new Map([["partial", partial]]))).toThrow('fixture kind "partial" does not document extra');
  });
});
