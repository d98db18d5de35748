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
});
