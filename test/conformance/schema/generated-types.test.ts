// The TypeScript types are generated from the JSON Schemas; this fails when someone edits a schema
// without regenerating (npm run gen:types).
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generatedTypes, renderTypes } from "../../../scripts/gen-types.ts";

describe("generated types", () => {
  for (const entry of generatedTypes) {
    it(`${entry.output} matches ${entry.schema}`, async () => {
      const current = await readFile(new URL(`../../../${entry.output}`, import.meta.url), "utf8");
      expect(current, `${entry.output} is stale: run npm run gen:types`).toBe(await renderTypes(entry));
    });
  }

  // A type two schemas share is declared once: the file that takes it by $ref imports it.
  for (const entry of generatedTypes.filter((candidate) => candidate.importsFrom)) {
    for (const [name, from] of Object.entries(entry.importsFrom!)) {
      it(`${entry.output} imports ${name} from ${from}, which declares it`, async () => {
        const own = await renderTypes(entry);
        const declaring = generatedTypes.find((candidate) => candidate.output.endsWith(from.replace("./", "/")))!;
        expect(own).not.toMatch(new RegExp(`export interface ${name} \\{`));
        expect(await renderTypes(declaring)).toMatch(new RegExp(`export interface ${name} \\{`));
      });
    }
  }
});
