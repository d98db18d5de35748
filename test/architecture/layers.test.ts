// The folders of the repository form layers, drawn in conformance/README.md "## Layers" (the folders of
// conformance/ and runners/ one by one, the others whole): a folder imports only folders drawn below it,
// so the generic parts (scenario, engine, report) never reach up into the toolnexus suite or the CLI,
// a runner never into the harness that drives it, and reference/ into nothing. No folder may be in an
// import cycle with another, and no file with another (inside a folder too). Each failure names the
// file:line of the import to move.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { toolnexusSuite } from "../../conformance/suite/toolnexus.ts";
import { operationCapabilities } from "../../runners/protocol/protocol.ts";
import { codeTexts, names } from "./code-text.ts";
import { crossFolderImports, fileImports, importCycles, type Import } from "./imports.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const readme = "conformance/README.md";

/** The layers as drawn (repository paths): top first, one line each, peers (which may not import each other) split by `|`. */
function documentedLayers(): string[][] {
  const text = readFileSync(repo + readme, "utf8");
  const block = /\n## Layers\n[\s\S]*?\n```\n([\s\S]*?)\n```/.exec(text);
  if (!block) throw new Error(`${readme}: no "## Layers" section with a fenced block of folders, top layer first`);
  return block[1]
    .split("\n")
    .map((line) =>
      line
        .split("|")
        .map((folder) => folder.trim())
        .filter(Boolean),
    )
    .filter((layer) => layer.length);
}

/** The folders conformance/README.md calls generic: "Generic folders: `common/`, ...". */
function genericFolders(): string[] {
  const line = /^Generic folders: (.+)$/m.exec(readFileSync(repo + readme, "utf8"));
  if (!line) throw new Error(`${readme}: no "Generic folders: \`common/\`, ..." line under "## Layers"`);
  return [...line[1].matchAll(/`([a-z-]+)\/`/g)].map((match) => `conformance/${match[1]}`);
}

// A file at the repository's root (package.json, for the version) is no folder: it sits below them all.
const roots = ["conformance", "fixtures", "reference", "runners", "bench", "scripts", "test"];
const imports = crossFolderImports(repo, roots).filter((edge) => edge.target.includes("/"));
const describeImport = (edge: Import) => `${edge.at} (${edge.from} -> ${edge.to})`;

describe("layers", () => {
  it("reads the imports (a sanity check that the graph is not empty)", () => {
    for (const [from, to] of [
      ["conformance/engine", "conformance/scenario"],
      ["conformance/subjects", "runners/ts"],
      ["fixtures", "conformance/scenario"],
      ["test", "reference"],
    ]) {
      expect(
        imports.some((edge) => edge.from === from && edge.to === to),
        `${from} -> ${to}`,
      ).toBe(true);
    }
  });

  it("has no import cycle between folders", () => {
    const cycles = importCycles(imports).map(
      (cycle) =>
        `cycle ${[...cycle.map((edge) => edge.from), cycle[0].from].join(" -> ")}:\n${cycle.map((edge) => `  ${describeImport(edge)}`).join("\n")}`,
    );
    expect(cycles, cycles.join("\n")).toEqual([]);
  });

  it("has no import cycle between files either, inside a folder too (type-only imports included: they say the same dependency)", () => {
    const cycles = importCycles(fileImports(repo, roots)).map(
      (cycle) =>
        `cycle ${[...cycle.map((edge) => edge.from), cycle[0].from].join(" -> ")}:\n${cycle.map((edge) => `  ${edge.at}`).join("\n")}`,
    );
    expect(cycles, cycles.join("\n")).toEqual([]);
  });

  it(`imports only downwards in the order ${readme} draws`, () => {
    const layers = documentedLayers();
    const level = new Map<string, number>(
      layers.flatMap((layer, index) => layer.map((folder) => [folder, layers.length - index] as const)),
    );
    const problems: string[] = [];
    for (const edge of imports) {
      for (const folder of [edge.from, edge.to]) {
        if (!level.has(folder)) problems.push(`${edge.at}: ${folder} is not drawn in ${readme} "## Layers"`);
      }
      if (level.has(edge.from) && level.has(edge.to) && level.get(edge.to)! >= level.get(edge.from)!) {
        problems.push(`${describeImport(edge)}: ${edge.to} is not below ${edge.from} in ${readme} "## Layers"`);
      }
    }
    const unique = [...new Set(problems)];
    expect(unique, unique.join("\n")).toEqual([]);
  });

  it("keeps toolnexus's fixtures out of the generic layers: fixtures/ is drawn above them, the CLI hands the kinds down", () => {
    const layers = documentedLayers().flat();
    const generic = new Set(genericFolders());
    const below = layers.slice(layers.indexOf("fixtures") + 1);
    expect(layers, `${readme} "## Layers" draws no fixtures`).toContain("fixtures");
    expect(
      [...generic].filter((folder) => !below.includes(folder)),
      "generic folders drawn above fixtures/",
    ).toEqual([]);
  });

  it("keeps the model runner and the protocol free of the harness: runners/ts and runners/protocol import nothing of conformance/", () => {
    const problems = imports
      .filter((edge) => (edge.from === "runners/ts" || edge.from === "runners/protocol") && edge.to.startsWith("conformance/"))
      .map((edge) => `${describeImport(edge)}: a runner author copies runners/ts and runners/protocol alone`);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("keeps reference/ (the implementation under test) free of the harness: it imports no other folder", () => {
    const problems = imports
      .filter((edge) => edge.from === "reference")
      .map((edge) => `${describeImport(edge)}: reference/ imports nothing of the repository (copy what it needs)`);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("keeps toolnexus's names out of the generic folders' code: its title, capabilities, matrices and fixture kinds come as data", () => {
    const folders = genericFolders();
    expect(folders.length, `${readme} "Generic folders:" names no folder`).toBeGreaterThan(0);
    // Read from the suite and the protocol schema, so a capability added there is guarded too.
    const ids = [
      ...new Set([
        ...toolnexusSuite.capabilities,
        ...operationCapabilities,
        ...Object.keys(toolnexusSuite.matrices),
        ...toolnexusSuite.fixtureKinds.keys(),
      ]),
    ];
    const title = toolnexusSuite.title.toLowerCase();
    const problems = folders
      .flatMap((folder) => codeTexts(repo, folder))
      .flatMap(({ at, text }) => [
        ...(text.toLowerCase().includes(title)
          ? [`${at}: "${title}" in ${JSON.stringify(text.slice(0, 80))}: take the suite's title as a parameter (SuiteDefinition.title)`]
          : []),
        ...ids
          .filter((id) => names(text, id))
          .map(
            (id) =>
              `${at}: "${id}" in ${JSON.stringify(text.slice(0, 80))}: the suite's knowledge (conformance/suite/, runners/protocol/*.schema.json), given to this layer as data`,
          ),
      ]);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
