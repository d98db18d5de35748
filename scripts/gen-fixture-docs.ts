// Generates fixtures/FIXTURES.md from the fixture registry (each kind's options schema, published
// values, actions, tools and snapshot schema), so the document cannot drift from the code.
// `npm run gen:fixture-docs` writes it; `--check` fails when it is stale (so does a test).
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { FixtureKind } from "../conformance/scenario/fixture.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
export const fixtureDocsFile = "fixtures/FIXTURES.md";

type Schema = Record<string, unknown>;

/** A short type: `"a" | "b"`, `string[]`, `{[key]: string}`, `object`, `integer >= 0`. */
function typeText(schema: Schema | undefined): string {
  if (!schema) return "any";
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" \\| ");
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).map(typeText).join(" \\| ");
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (!types.length) return "any";
  return types
    .map((type) => {
      if (type === "array") return `${wrap(typeText(schema.items as Schema | undefined))}[]`;
      if (type === "object" && typeof schema.additionalProperties === "object" && !schema.properties)
        return `{[key]: ${typeText(schema.additionalProperties as Schema)}}`;
      const bounds = [
        schema.minimum !== undefined ? `>= ${schema.minimum}` : "",
        schema.maximum !== undefined ? `<= ${schema.maximum}` : "",
      ]
        .filter(Boolean)
        .join(", ");
      return bounds ? `${type} ${bounds}` : type;
    })
    .join(" \\| ");
}

const wrap = (text: string) => (text.includes(" ") ? `(${text})` : text);
const cell = (text: string) => text.replace(/\n/g, " ");

/** The snapshot as a bullet tree of JSON Pointers, each with its type and meaning. */
function outline(schema: Schema, pointer = "", depth = 0): string[] {
  const lines: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [key, child] of Object.entries(properties)) {
    const at = `${pointer}/${key}`;
    const required = ((schema.required ?? []) as string[]).includes(key) ? "" : " (optional)";
    const description = child.description ? `: ${child.description}` : "";
    lines.push(`${"  ".repeat(depth)}- \`${at}\` ${typeText(child)}${required}${description}`);
    const items = child.items as Schema | undefined;
    if (child.properties) lines.push(...outline(child, at, depth + 1));
    else if (items?.properties) lines.push(...outline(items, `${at}/N`, depth + 1));
  }
  return lines;
}

/** A part (values, snapshot) already shown for an earlier kind is named, not repeated. */
function once(part: string[], shownFor: Map<string, string>, kind: string): string[] {
  const text = part.join("\n");
  const first = shownFor.get(text);
  if (first) return [`As for [\`${first}\`](#${first}).`];
  shownFor.set(text, kind);
  return part;
}

function renderKind(kind: FixtureKind, shownFor: Map<string, string>): string[] {
  const docs = kind.docs;
  if (!docs) throw new Error(`fixture kind "${kind.kind}" has no docs: add them beside its definition`);
  const undocumented = [...kind.varKeys.filter((key) => !docs.vars[key]), ...kind.actions.filter((action) => !docs.actions?.[action])];
  if (undocumented.length) throw new Error(`fixture kind "${kind.kind}" does not document ${undocumented.join(", ")}`);
  const lines = [`## \`${kind.kind}\``, "", docs.summary, ""];

  const options = Object.entries((kind.optionsSchema.properties ?? {}) as Record<string, Schema>);
  lines.push("**Options** (`options:`, checked by lint)", "");
  if (options.length) {
    lines.push("| option | type | meaning |", "|---|---|---|");
    for (const [name, schema] of options) lines.push(`| \`${name}\` | ${typeText(schema)} | ${cell(String(schema.description ?? ""))} |`);
  } else lines.push("None.");
  lines.push("");

  lines.push("**Values** (use them in a step's `with` as `${NAME.KEY}`)", "");
  lines.push(
    ...once(
      ["| value | holds |", "|---|---|", ...kind.varKeys.map((key) => `| \`\${NAME.${key}}\` | ${cell(docs.vars[key])} |`)],
      shownFor,
      kind.kind,
    ),
  );
  lines.push("");

  lines.push("**Actions** (a step `{fixture: NAME, action: ACTION, with: INPUT}`)", "");
  if (kind.actions.length) for (const action of kind.actions) lines.push(`- \`${action}\`: ${docs.actions![action]}`);
  else lines.push("None.");
  lines.push("");

  if (docs.tools?.length) {
    lines.push(
      "**Tools** (as the server lists them; option `names` renames them)",
      "",
      "| tool | description | input schema | a call returns |",
      "|---|---|---|---|",
    );
    for (const tool of docs.tools)
      lines.push(
        `| \`${tool.name}\` | ${tool.description ?? "(none)"} | \`${JSON.stringify(tool.inputSchema)}\` | ${cell(tool.behaviour ?? "")} |`,
      );
    lines.push("");
  }

  lines.push("**Snapshot** (what an assertion with `fixture: NAME` reads; `at` is a pointer into it)", "");
  if (kind.observes === false) lines.push("Always empty: this kind observes nothing, so lint refuses an assertion on its snapshot.");
  else if (kind.snapshotSchema) lines.push(...once(outline(kind.snapshotSchema), shownFor, kind.kind));
  else lines.push("Not described.");
  if (docs.snapshot) lines.push("", docs.snapshot);
  lines.push("");
  return lines;
}

export function renderFixtureDocs(kinds: ReadonlyMap<string, FixtureKind>): string {
  const list = [...kinds.values()];
  const lines = [
    "# Fixture kinds",
    "",
    "<!-- Generated from fixtures/registry.ts by scripts/gen-fixture-docs.ts. Do not edit; run `npm run gen:fixture-docs`. -->",
    "",
    "A scenario declares fixtures by name, `fixtures: {NAME: {kind: KIND, options: {...}}}`; each is",
    "started before the first step and always stopped. A step passes a fixture's published values to the",
    "subject as `${NAME.KEY}`, acts on it with `{fixture: NAME, action: ACTION, with: INPUT}`, and asserts",
    "on what it saw with `{fixture: NAME, at: POINTER, ...}` (its snapshot). Lint checks the options, the",
    "values, the actions and, where the snapshot's type says so, the matchers (conformance/README.md).",
    "",
    "| kind | what it is | actions |",
    "|---|---|---|",
    ...list.map(
      (kind) =>
        `| [\`${kind.kind}\`](#${kind.kind}) | ${cell(kind.docs?.summary.split(". ")[0].replace(/\.$/, "") ?? "")} | ${kind.actions.join(", ") || "-"} |`,
    ),
    "",
  ];
  const shownFor = new Map<string, string>();
  for (const kind of list) lines.push(...renderKind(kind, shownFor));
  return `${lines.join("\n").trimEnd()}\n`;
}

async function main(check: boolean): Promise<void> {
  const { fixtureKinds } = await import("../fixtures/registry.ts");
  const rendered = renderFixtureDocs(fixtureKinds);
  const current = await readFile(root + fixtureDocsFile, "utf8").catch(() => "");
  if (current === rendered) return;
  if (check) {
    console.error(`${fixtureDocsFile} is stale: run npm run gen:fixture-docs`);
    process.exitCode = 1;
  } else {
    await writeFile(root + fixtureDocsFile, rendered);
    console.log(`wrote ${fixtureDocsFile}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main(process.argv.includes("--check"));
