// The gate on the boundary-value table: every admitted cell is covered by a scenario or explained in
// the checked-in explanations file, and every explanation still explains something (its field exists,
// its class is one the field admits, no scenario covers the cell now, no other entry explains it).
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import type { BoundaryExplanations, Explanation } from "../../schema/boundaries.types.ts";
import { compileSchema } from "../../../runners/protocol/json-schema.ts";
import { parseScenarioText, type Diagnostic, type ScenarioFile } from "../load.ts";
import { toDiagnostics } from "../validate.ts";
import { at } from "../lint/diagnostic.ts";
import type { BoundaryClass } from "./classes.ts";
import type { BoundaryField } from "./table.ts";

const validateExplanations = compileSchema<BoundaryExplanations>(createRequire(import.meta.url)("../../schema/boundaries.schema.json"));

/** Where a cell stands: covered (by these scenarios), explained (by the entry at this line), or neither. */
export type CellStatus =
  { status: "covered"; scenarios: string[] } | { status: "explained"; kind: Explanation["kind"]; line: number } | { status: "unexplained" };

export interface BoundaryGate {
  table: Map<string, BoundaryField>;
  /** Field id -> class -> status, in the table's order. */
  cells: Map<string, Map<BoundaryClass, CellStatus>>;
  diagnostics: Diagnostic[];
}

/** Read and check the explanations file against the table. A missing or malformed file is itself a diagnostic. */
export async function gateBoundaries(table: Map<string, BoundaryField>, path: string): Promise<BoundaryGate> {
  const file = relative(process.cwd(), resolve(path)) || path;
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) =>
    error.code === "ENOENT" ? undefined : Promise.reject(error),
  );
  if (text === undefined) {
    const gate = judge(table, undefined, []);
    return {
      ...gate,
      diagnostics: [
        {
          file,
          line: 1,
          column: 1,
          message: `no boundary explanations file (${gate.diagnostics.length} cells unexplained)`,
          hint: `create ${file}: {explanations: [...]}`,
        },
        ...gate.diagnostics,
      ],
    };
  }
  const { scenario: parsed, diagnostics } = parseScenarioText(file, text);
  if (diagnostics.length) return { ...judge(table, undefined, []), diagnostics };
  if (!validateExplanations(parsed.data))
    return { ...judge(table, undefined, []), diagnostics: toDiagnostics(validateExplanations.errors ?? [], parsed) };
  return judge(table, parsed, parsed.data.explanations);
}

/** Each cell's status, and a diagnostic for each unexplained cell and each stale or doubled explanation. */
export function judge(table: Map<string, BoundaryField>, file: ScenarioFile | undefined, explanations: Explanation[]): BoundaryGate {
  const diagnostics: Diagnostic[] = [];
  const explained = new Map<string, { kind: Explanation["kind"]; line: number }>();
  explanations.forEach((entry, index) => {
    const line = file!.locate(["explanations", index]).line;
    entry.fields.forEach((fieldId, fieldIndex) => {
      const field = table.get(fieldId);
      if (!field) {
        diagnostics.push(
          at(
            file!,
            ["explanations", index, "fields", fieldIndex],
            `stale explanation: there is no input field "${fieldId}"`,
            "remove it (the field was renamed or removed), or name a field of the table (`lint --coverage` lists them)",
          ),
        );
        return;
      }
      for (const name of entry.classes) {
        const cell = field.cells.get(name);
        const where = ["explanations", index, "classes", entry.classes.indexOf(name)];
        if (!cell) {
          diagnostics.push(
            at(
              file!,
              where,
              `${fieldId} admits no "${name}" value (its type admits: ${[...field.cells.keys()].join(", ")})`,
              `remove "${name}" for this field`,
            ),
          );
        } else if (cell.size) {
          diagnostics.push(
            at(
              file!,
              ["explanations", index, "fields", fieldIndex],
              `stale explanation: ${fieldId} ${name} is covered now, by ${[...cell].sort().join(", ")}`,
              `remove ${fieldId} (or "${name}") from this entry`,
            ),
          );
        } else if (explained.has(`${fieldId} ${name}`)) {
          diagnostics.push(
            at(
              file!,
              where,
              `${fieldId} ${name} is already explained at line ${explained.get(`${fieldId} ${name}`)!.line}`,
              "keep one explanation per cell",
            ),
          );
        } else {
          explained.set(`${fieldId} ${name}`, { kind: entry.kind, line });
        }
      }
    });
  });
  const cells = new Map<string, Map<BoundaryClass, CellStatus>>();
  const unexplained: string[] = [];
  for (const [fieldId, field] of table) {
    const statuses = new Map<BoundaryClass, CellStatus>();
    for (const [name, scenarios] of field.cells) {
      const explanation = explained.get(`${fieldId} ${name}`);
      if (scenarios.size) statuses.set(name, { status: "covered", scenarios: [...scenarios].sort() });
      else if (explanation) statuses.set(name, { status: "explained", ...explanation });
      else {
        statuses.set(name, { status: "unexplained" });
        unexplained.push(`${fieldId} ${name}`);
      }
    }
    cells.set(fieldId, statuses);
  }
  const fileName = file?.file ?? "the boundary explanations file";
  for (const cell of unexplained) {
    const position = file ? file.locate(["explanations"]) : { line: 1, column: 1 };
    diagnostics.push({
      file: fileName,
      ...position,
      message: `boundary cell ${cell} is neither covered by a scenario nor explained`,
      hint: `write a scenario whose step gives it that value, or add an entry (fields, classes, kind, reason) to ${fileName}`,
    });
  }
  return { table, cells, diagnostics };
}
