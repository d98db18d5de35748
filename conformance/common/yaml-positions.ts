// YAML read with the positions of its nodes, for every file whose problems name the file and line:
// scenarios, baselines, the MCP suite's baseline, the equivalent mutants. One parse, one line counter.
import { isNode, LineCounter, parseDocument, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions } from "yaml";

export interface PositionedYaml {
  document: Document.Parsed;
  /** 1-based line and column of an offset into the text. */
  position(offset: number): { line: number; column: number };
  /** The line a node starts on; 1 for a node that has none (absent, or made up). */
  lineOf(node: unknown): number;
  /** The line of the node at `path` (document.getIn); 1 when there is none. */
  lineAt(path: readonly (string | number)[]): number;
  /** `FILE:LINE: message` of the first syntax error, when there is one. */
  firstError(file: string): string | undefined;
}

export function parseYamlWithPositions(text: string, options: ParseOptions & DocumentOptions & SchemaOptions = {}): PositionedYaml {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { ...options, lineCounter });
  const position = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const lineOf = (node: unknown) => (isNode(node) && node.range ? position(node.range[0]).line : 1);
  return {
    document,
    position,
    lineOf,
    lineAt: (path) => lineOf(document.getIn(path, true)),
    firstError: (file) => {
      const [error] = document.errors;
      return error && `${file}:${position(error.pos[0]).line}: ${error.message.split("\n")[0]}`;
    },
  };
}
