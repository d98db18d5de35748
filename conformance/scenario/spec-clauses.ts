// Reads the clause ids SPEC.md defines: `<a id="ID"></a>**ID**` at the start of a rule.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const specPath = fileURLToPath(new URL("../../SPEC.md", import.meta.url));

const clausePattern = /<a id="([a-z0-9][a-z0-9.-]*[a-z0-9])"><\/a>\*\*\1\*\*/g;

export interface SpecClause {
  id: string;
  line: number;
  text: string;
}

export function parseSpecClauses(markdown: string): SpecClause[] {
  const clauses: SpecClause[] = [];
  markdown.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(clausePattern)) {
      const text = line.slice((match.index ?? 0) + match[0].length).replace(/^\s*[—-]\s*/, "");
      clauses.push({ id: match[1], line: index + 1, text });
    }
  });
  return clauses;
}

export async function readSpecClauses(path = specPath): Promise<SpecClause[]> {
  return parseSpecClauses(await readFile(path, "utf8"));
}
