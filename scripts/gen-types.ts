// Generates TypeScript types from the JSON Schemas, so each contract is defined once (in JSON Schema).
// `npm run gen:types` writes them; `--check` (used by the tests) fails when a generated file is stale.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { compile, type JSONSchema } from "json-schema-to-typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const readSchema = async (path: string) => JSON.parse(await readFile(root + path, "utf8"));

interface GeneratedTypes {
  /** What the types are generated from, named in the banner. */
  schema: string;
  output: string;
  name: string;
  /** Builds the schema to compile when it is not `schema` itself (default: read `schema`). */
  build?: () => Promise<JSONSchema>;
  /** json-schema-to-typescript's default for objects that do not say (default false: no index signature). */
  openObjects?: boolean;
  /**
   * Types this schema takes by `$ref` from another schema whose generated file already declares them:
   * name -> that file (relative import). The compiler declares a referenced type in every file that
   * uses it; this keeps one declaration and re-exports it, so the two cannot drift apart.
   */
  importsFrom?: Record<string, string>;
}

export const generatedTypes: GeneratedTypes[] = [
  { schema: "conformance/schema/scenario.schema.json", output: "conformance/schema/scenario.types.ts", name: "Scenario" },
  { schema: "conformance/schema/report.schema.json", output: "conformance/schema/report.types.ts", name: "Report" },
  { schema: "conformance/schema/diff.schema.json", output: "conformance/schema/diff.types.ts", name: "ReportDiff" },
  { schema: "conformance/schema/baseline.schema.json", output: "conformance/schema/baseline.types.ts", name: "Baseline" },
  { schema: "conformance/schema/boundaries.schema.json", output: "conformance/schema/boundaries.types.ts", name: "BoundaryExplanations" },
  { schema: "conformance/schema/obtainability.schema.json", output: "conformance/schema/obtainability.types.ts", name: "Obtainability" },
  { schema: "runners/protocol/runner-manifest.schema.json", output: "runners/protocol/runner-manifest.types.ts", name: "RunnerManifest" },
  // A result's value, a request's input, an error's details: any object, Record<string, unknown>.
  {
    schema: "runners/protocol/protocol.schema.json",
    output: "runners/protocol/protocol.types.ts",
    name: "ProtocolMessage",
    openObjects: true,
  },
  {
    schema: "runners/protocol/operations.schema.json and runners/protocol/outputs.schema.json",
    output: "runners/protocol/operations.types.ts",
    name: "Operations",
    build: operationsMap,
    // `{type: "object"}` there means any object (a body, a schema): Record<string, unknown>, not {}.
    openObjects: true,
  },
  {
    schema: "conformance/schema/capture.schema.json",
    output: "conformance/schema/capture.types.ts",
    name: "Capture",
    importsFrom: { Provenance: "./scenario.types.ts" },
  },
];

/** "client.run" -> "ClientRun". */
const pascal = (op: string) => op.replace(/(^|[.-])(\w)/g, (_, _sep, letter: string) => letter.toUpperCase());

/**
 * One schema from the two operation files: `Operations` maps every operation name to its `input`
 * (operations.schema.json) and `output` (outputs.schema.json), named ClientRunInput, ClientRunOutput...
 * The shared parts of both keep their names (scriptedAnswers, RunResult, Usage...).
 */
async function operationsMap(): Promise<JSONSchema> {
  const inputs = await readSchema("runners/protocol/operations.schema.json");
  const outputs = await readSchema("runners/protocol/outputs.schema.json");
  const ops = Object.keys(inputs.$defs).filter((name) => name.includes("."));
  const defs: Record<string, JSONSchema> = {};
  // A name without a dot is a part the operations share (scriptedAnswers, RunResult...), kept by its name.
  for (const file of [inputs, outputs])
    for (const [name, schema] of Object.entries<JSONSchema>(file.$defs)) if (!name.includes(".")) defs[name] = schema;
  const properties: Record<string, JSONSchema> = {};
  for (const op of ops) {
    defs[`${pascal(op)}Input`] = { ...inputs.$defs[op], title: `${pascal(op)}Input` };
    defs[`${pascal(op)}Output`] = { ...outputs.$defs[op], title: `${pascal(op)}Output` };
    properties[op] = {
      type: "object",
      properties: { input: { $ref: `#/$defs/${pascal(op)}Input` }, output: { $ref: `#/$defs/${pascal(op)}Output` } },
      required: ["input", "output"],
      additionalProperties: false,
    };
  }
  return {
    title: "Operations",
    description: "Every operation of runners/PROTOCOL.md: its input and its output (a result's value).",
    type: "object",
    properties,
    required: ops,
    additionalProperties: false,
    $defs: defs,
  } as JSONSchema;
}

export async function renderTypes(entry: GeneratedTypes): Promise<string> {
  const schema = entry.build ? await entry.build() : await readSchema(entry.schema);
  const compiled = await compile(schema, entry.name, {
    bannerComment: `// Generated from ${entry.schema} by scripts/gen-types.ts. Do not edit; run \`npm run gen:types\`.`,
    additionalProperties: entry.openObjects ?? false,
    unreachableDefinitions: true,
    // A `$ref` to another schema file ("scenario.schema.json#/$defs/...") is read from beside this one.
    cwd: root + entry.output.slice(0, entry.output.lastIndexOf("/") + 1),
    style: { singleQuote: false, printWidth: 110 },
  });
  return importDeclared(compiled, entry.importsFrom ?? {});
}

/** Replace each named declaration (its doc comment, `export interface NAME {` ... `}` at column 0) by an import. */
function importDeclared(source: string, importsFrom: Record<string, string>): string {
  let out = source;
  const imports: string[] = [];
  for (const [name, from] of Object.entries(importsFrom)) {
    const declaration = new RegExp(`(?:/\\*\\*(?:[^*]|\\*(?!/))*\\*/\\n)?export interface ${name} \\{\\n[\\s\\S]*?\\n\\}\\n`);
    if (!declaration.test(out)) throw new Error(`gen-types: ${name} is not declared in the output, so it cannot be imported from ${from}`);
    out = out.replace(declaration, "");
    imports.push(`import type { ${name} } from "${from}";\nexport type { ${name} };\n`);
  }
  if (!imports.length) return out;
  // After the banner (the first line), before the declarations.
  const bannerEnd = out.indexOf("\n") + 1;
  return out.slice(0, bannerEnd) + "\n" + imports.join("") + out.slice(bannerEnd);
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
