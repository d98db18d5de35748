// The boundary-value table: for every input field (each operation's, from runners/protocol's input
// schemas, and each of the suite's own groups), each class its type admits, with the scenarios whose
// steps give that field a value of that class. Measured from the expanded steps, not remembered.
import { isRecord } from "../../common/json.ts";
import { inputSchema, isOperationName, operationNames } from "../../../runners/protocol/protocol.ts";
import type { ExpandedScenario } from "../expand.ts";
import { admittedClasses, classify, type BoundaryClass, type FieldSchema } from "./classes.ts";

/** Fields read from the same kind of object: an operation's input, an MCP server entry, a scripted reply. */
export interface BoundaryGroup {
  /** The prefix of its fields' ids: `client.create` gives `client.create.timeoutMs`. */
  name: string;
  fields: Record<string, FieldSchema>;
  /** The fields every such object must hold: they have no `absent` cell. */
  required?: readonly string[];
}

/** One object a scenario gives, read as a group's fields: a key it lacks is that field `absent`. */
export interface BoundaryRecord {
  group: string;
  values: Record<string, unknown>;
  /** Keys merged into an object completed elsewhere (a fixture's extra keys): a key it lacks says nothing. */
  partial?: boolean;
}

/** What a suite adds to the operations' fields: its own groups, where its scenarios give them, and the explanations file. */
export interface SuiteBoundaries {
  /** The checked-in file that explains each empty cell (a path). */
  explanationsFile: string;
  groups: BoundaryGroup[];
  /** Every object of the suite's groups one expanded scenario gives (its fixtures' options, its steps' inputs). */
  records(scenario: ExpandedScenario): BoundaryRecord[];
}

export interface BoundaryField {
  id: string;
  schema: FieldSchema;
  /** Each admitted class -> the (unexpanded) ids of the scenarios that give the field a value of it. */
  cells: Map<BoundaryClass, Set<string>>;
}

/** Every operation of the runner protocol as a group: its input's properties are its fields. */
export function operationGroups(): BoundaryGroup[] {
  return operationNames.map((op) => {
    const schema = inputSchema(op);
    return { name: op, fields: (schema.properties ?? {}) as Record<string, FieldSchema>, required: schema.required ?? [] };
  });
}

/** The operation a step runs in this expansion: its `op`, or the path variable it names (`${path.op}`). */
function operationOf(op: string, pathVars: Record<string, string>): string {
  const name = /^\$\{([^{}]+)\}$/.exec(op)?.[1];
  return name !== undefined && pathVars[name] !== undefined ? pathVars[name] : op;
}

/** Each operation step's input, as a record of that operation's group. */
export function operationRecords(scenario: ExpandedScenario): BoundaryRecord[] {
  return scenario.steps.flatMap(({ step }) => {
    if (!("op" in step)) return [];
    const op = operationOf(step.op, scenario.pathVars);
    return isOperationName(op) && isRecord(step.with ?? {}) ? [{ group: op, values: (step.with ?? {}) as Record<string, unknown> }] : [];
  });
}

/** The table over `scenarios`: the operations' groups and the suite's, each field with its admitted classes. */
export function boundaryTable(
  scenarios: ExpandedScenario[],
  suite: Pick<SuiteBoundaries, "groups" | "records">,
): Map<string, BoundaryField> {
  const groups = [...operationGroups(), ...suite.groups];
  const table = new Map<string, BoundaryField>();
  const fieldsByGroup = new Map<string, { key: string; field: BoundaryField }[]>();
  for (const group of groups) {
    const fields = Object.entries(group.fields).map(([key, schema]) => ({
      key,
      field: {
        id: `${group.name}.${key}`,
        schema,
        cells: new Map(admittedClasses(schema, group.required?.includes(key)).map((name) => [name, new Set<string>()])),
      },
    }));
    fieldsByGroup.set(group.name, fields);
    for (const { field } of fields) table.set(field.id, field);
  }
  for (const scenario of scenarios) {
    for (const record of [...operationRecords(scenario), ...suite.records(scenario)]) {
      for (const { key, field } of fieldsByGroup.get(record.group) ?? []) {
        if (record.partial && !(key in record.values)) continue;
        for (const name of classify(record.values[key], field.schema)) field.cells.get(name)?.add(scenario.baseId);
      }
    }
  }
  return table;
}
