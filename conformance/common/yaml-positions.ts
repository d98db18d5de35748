// YAML read with the positions of its nodes, for every file whose problems name the file and line:
// scenarios, baselines, the MCP suite's baseline, the equivalent mutants. One parse, one line counter.
import {
  isMap,
  isNode,
  isScalar,
  LineCounter,
  parseDocument,
  type Document,
  type DocumentOptions,
  type ParseOptions,
  type SchemaOptions,
} from "yaml";

export interface PositionedYaml {
  document: Document.Parsed;
  /** 1-based line and column of an offset into the text. */
  position(offset: number): { line: number; column: number };
  /** The line a node starts on; 1 for a node that has none (absent, or made up). */
  lineOf(node: unknown): number;
  /** The line of the node at `path` (document.getIn); 1 when there is none. */
  lineAt(path: readonly (string | number)[]): number;
  /** The line of the key that ends `path` (where an unknown key is written, not its value); 1 when there is none. */
  keyLineAt(path: readonly (string | number)[]): number;
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
    keyLineAt: (path) => {
      const parent = path.length > 1 ? document.getIn(path.slice(0, -1), true) : document.contents;
      const key = path.at(-1);
      const pair = isMap(parent) ? parent.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === key) : undefined;
      return lineOf(pair?.key);
    },
    firstError: (file) => {
      const [error] = document.errors;
      return error && `${file}:${position(error.pos[0]).line}: ${error.message.split("\n")[0]}`;
    },
  };
}
