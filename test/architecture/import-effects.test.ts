// No module sets the process environment when it is imported: an environment that appears because some
// file happened to be loaded (the fixture registry once set the MCP fixtures' secret that way) makes a
// subject's behaviour depend on import order. Whoever needs a variable sets it explicitly, in a
// function it calls (conformance/common/environment.ts). Read with TypeScript's parser: only statements
// at a module's top level count, not those inside a function.
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./imports.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const roots = ["conformance", "fixtures", "reference", "runners", "bench", "scripts"];

/** `process.env` itself, or `process.env.X` / `process.env[X]`. */
function isProcessEnv(node: ts.Expression): boolean {
  const target = ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) ? node.expression : undefined;
  const isEnv = (expression: ts.Expression) =>
    ts.isPropertyAccessExpression(expression) &&
    expression.name.text === "env" &&
    ts.isIdentifier(expression.expression) &&
    expression.expression.text === "process";
  return isEnv(node) || (target !== undefined && isEnv(target));
}

/** What a top-level statement does to process.env, if anything: an assignment, a delete, an Object.assign. */
function writesEnvironment(statement: ts.Statement): boolean {
  if (!ts.isExpressionStatement(statement)) return false;
  const expression = statement.expression;
  if (
    ts.isBinaryExpression(expression) &&
    expression.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    expression.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  )
    return isProcessEnv(expression.left);
  if (ts.isDeleteExpression(expression)) return isProcessEnv(expression.expression);
  if (ts.isCallExpression(expression) && expression.getText().startsWith("Object.assign("))
    return expression.arguments.length > 0 && isProcessEnv(expression.arguments[0]);
  return false;
}

/** Every top-level statement under `roots` that writes process.env, as file:line. */
function environmentWritesAtImport(): string[] {
  const found: string[] = [];
  for (const root of roots) {
    for (const file of sourceFiles(join(repo, root))) {
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements.filter(writesEnvironment)) {
        const line = source.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
        found.push(`${relative(repo, file).split(sep).join("/")}:${line}: ${statement.getText().slice(0, 80)}`);
      }
    }
  }
  return found;
}

describe("import effects", () => {
  it("no module sets process.env when it is imported: whoever needs a variable sets it, in a function", () => {
    const found = environmentWritesAtImport();
    expect(
      found,
      found.map((at) => `${at} (move it into a function its caller calls: conformance/common/environment.ts)`).join("\n"),
    ).toEqual([]);
  });
});
