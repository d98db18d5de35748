// Generates TypeScript types from the JSON Schemas, so each contract is defined once (in JSON Schema).
// `npm run gen:types` writes them; `--check` (used by the tests) fails when a generated file is stale.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";

const root = fileURLToPath(new URL("..", import.meta.url));

export const generatedTypes = [
  { schema: "conformance/schema/scenario.schema.json", output: "conformance/schema/scenario.types.ts", name: "Scenario" },
  { schema: "conformance/schema/report.schema.json", output: "conformance/schema/report.types.ts", name: "Report" },
  { schema: "conformance/schema/baseline.schema.json", output: "conformance/schema/baseline.types.ts", name: "Baseline" },
  { schema: "runners/protocol/runner-manifest.schema.json", output: "runners/protocol/runner-manifest.types.ts", name: "RunnerManifest" },
  { schema: "runners/protocol/protocol.schema.json", output: "runners/protocol/protocol.types.ts", name: "ProtocolMessage" },
  { schema: "conformance/schema/capture.schema.json", output: "conformance/capture/capture.types.ts", name: "Capture" },
];

export async function renderTypes(entry: (typeof generatedTypes)[number]): Promise<string> {
  const schema = JSON.parse(await readFile(root + entry.schema, "utf8"));
  return compile(schema, entry.name, {
    bannerComment: `// Generated from ${entry.schema} by scripts/gen-types.ts. Do not edit; run \`npm run gen:types\`.`,
    additionalProperties: false,
    unreachableDefinitions: true,
    style: { singleQuote: false, printWidth: 110 },
  });
}

async function main(check: boolean): Promise<void> {
  let stale = 0;
  for (const entry of generatedTypes) {
    const rendered = await renderTypes(entry);
    const current = await readFile(root + entry.output, "utf8").catch(() => "");
    if (current === rendered) continue;
    if (check) {
      console.error(`${entry.output} is stale: run npm run gen:types`);
      stale++;
    } else {
      await writeFile(root + entry.output, rendered);
      console.log(`wrote ${entry.output}`);
    }
  }
  if (stale) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main(process.argv.includes("--check"));
