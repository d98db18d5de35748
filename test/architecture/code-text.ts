// The text a source file's code holds, read with TypeScript's parser: string literals, template text,
// regular expressions and identifiers, each with its line. Comments are left out on purpose: a
// comment may explain a generic layer with an example from the suite; code may not hold the suite.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";

export interface CodeText {
  /** The file and line, relative to the repository: `conformance/report/html.ts:215`. */
  at: string;
  text: string;
}

function* typeScriptFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) yield* typeScriptFiles(join(dir, entry.name));
    else if (/\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield join(dir, entry.name);
  }
}

/** Every piece of code text in the TypeScript files under `folder` (relative to `repo`). */
export function codeTexts(repo: string, folder: string): CodeText[] {
  const found: CodeText[] = [];
  for (const file of typeScriptFiles(join(repo, folder))) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const name = relative(repo, file).split(sep).join("/");
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isRegularExpressionLiteral(node) || ts.isIdentifier(node)) {
        found.push({ at: `${name}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`, text: node.text });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Whether `text` names `word` as a whole name: `client.cancel` in "needs client.cancel", not in "client.cancelled". */
export function names(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-]|\\.\\w)`, "i").test(text);
}
