// A runner manifest (runners/NAME/runner.json) a person wrote wrong is refused naming the file, the line
// and what was expected there, as scenarios and baselines are (conformance/common/schema-error.ts).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readManifest } from "../../../conformance/subjects/runner-registry.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-manifest-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function manifest(name: string, text: string): Promise<string> {
  await mkdir(join(dir, name));
  await writeFile(join(dir, name, "runner.json"), text);
  return join(dir, name, "runner.json");
}

const valid = '{\n  "name": "x",\n  "description": "d",\n  "language": "go",\n  "package": "p",\n  "start": ["bin/x"]';

describe("readManifest", () => {
  it("reads a valid manifest", async () => {
    await manifest("good", `${valid}\n}\n`);
    expect((await readManifest("good", dir)).start).toEqual(["bin/x"]);
  });

  it("names the line of an unknown key, a wrong type and a syntax error, and what was expected; refuses what only YAML allows", async () => {
    const unknown = await manifest("unknown", `${valid},\n  "strat": ["bin/x"]\n}\n`);
    await expect(readManifest("unknown", dir)).rejects.toThrow(
      `${unknown}:7: invalid runner manifest at (top): unknown key "strat" (expected one of: name, description, language, package, requires,`,
    );
    const wrongType = await manifest("wrong-type", valid.replace('"start": ["bin/x"]', '"start": "bin/x"') + "\n}\n");
    await expect(readManifest("wrong-type", dir)).rejects.toThrow(
      `${wrongType}:6: invalid runner manifest at /start: must be array, found "bin/x" (a string)`,
    );
    const yamlOnly = await manifest("yaml-only", `${valid},\n}\n`);
    await expect(readManifest("yaml-only", dir)).rejects.toThrow(`${yamlOnly}: not JSON: `);
    const broken = await manifest("broken", `${valid}\n`);
    await expect(readManifest("broken", dir)).rejects.toThrow(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:\\d+: `));
  });
});
