// The boundary-value table as lint prints it: one row per field, one column per class, each cell the
// number of scenarios that cover it, `ok` for explained as meaningless, `debt` for not yet covered,
// `--` for unexplained (lint fails on those) and blank where the field's type admits no such value.
import { boundaryClasses, type BoundaryClass } from "./classes.ts";
import type { BoundaryGate, CellStatus } from "./gate.ts";

const short: Record<BoundaryClass, string> = {
  absent: "absent",
  null: "null",
  empty: "empty",
  zero: "zero",
  negative: "neg",
  fractional: "frac",
  "above-default": "dflt+1",
  "non-ascii": "non-ascii",
  "wrong-type": "wrong",
};

function cellText(cell: CellStatus | undefined): string {
  if (!cell) return "";
  if (cell.status === "covered") return String(cell.scenarios.length);
  if (cell.status === "unexplained") return "--";
  return cell.kind === "no-meaning" ? "ok" : "debt";
}

export interface BoundaryCounts {
  fields: number;
  cells: number;
  covered: number;
  noMeaning: number;
  debt: number;
  unexplained: number;
}

export function countCells(gate: Pick<BoundaryGate, "cells">): BoundaryCounts {
  const all = [...gate.cells.values()].flatMap((row) => [...row.values()]);
  const count = (test: (cell: CellStatus) => boolean) => all.filter(test).length;
  return {
    fields: gate.cells.size,
    cells: all.length,
    covered: count((cell) => cell.status === "covered"),
    noMeaning: count((cell) => cell.status === "explained" && cell.kind === "no-meaning"),
    debt: count((cell) => cell.status === "explained" && cell.kind === "not-yet-covered"),
    unexplained: count((cell) => cell.status === "unexplained"),
  };
}

export function formatBoundarySummary(gate: Pick<BoundaryGate, "cells">, file: string): string {
  const counts = countCells(gate);
  return `boundary table: ${counts.fields} fields, ${counts.cells} cells: ${counts.covered} covered by scenarios, ${counts.noMeaning} explained as meaningless, ${counts.debt} not yet covered (debt, ${file}), ${counts.unexplained} unexplained`;
}

export function formatBoundaryTable(gate: Pick<BoundaryGate, "cells">, file: string): string[] {
  const width = Math.max(5, ...[...gate.cells.keys()].map((id) => id.length));
  const widths = boundaryClasses.map((name) => Math.max(short[name].length, 4));
  const line = (first: string, cells: string[]) =>
    `${first.padEnd(width)}  ${cells.map((cell, index) => cell.padStart(widths[index])).join(" ")}`.trimEnd();
  const lines = [
    line(
      "field",
      boundaryClasses.map((name) => short[name]),
    ),
  ];
  for (const [id, row] of gate.cells)
    lines.push(
      line(
        id,
        boundaryClasses.map((name) => cellText(row.get(name))),
      ),
    );
  lines.push(
    "N: scenarios that give the field such a value; ok: explained as meaningless; debt: not yet covered (explained); --: unexplained; blank: the type admits none",
  );
  lines.push(formatBoundarySummary(gate, file));
  return lines;
}
