// A JSON text with some of its values replaced and every other byte kept (layout, key order, escapes):
// how redaction writes a raw body back, so the byte-exact mode still matches what the redacted inputs
// make the client send.
import { REDACTED } from "./redact-rules.ts";

/**
 * Rewrites, in a JSON text, the scalars whose value differs between `original` (the text parsed) and
 * `redacted`, and keeps every other byte (layout, key order, escapes).
 */
export function rewriteJsonValues(text: string, original: unknown, redacted: unknown): string {
  let position = 0;
  let copiedUpTo = 0;
  let out = "";
  const skipSpace = () => {
    while (position < text.length && " \t\n\r".includes(text[position])) position++;
  };
  const stringEnd = (start: number) => {
    let index = start + 1;
    while (index < text.length && text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
    return index + 1;
  };
  const child = (node: unknown, key: string | number) =>
    node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
  const value = (before: unknown, after: unknown): void => {
    skipSpace();
    const open = text[position];
    if (open === "{" || open === "[") {
      const close = open === "{" ? "}" : "]";
      position++;
      skipSpace();
      for (let index = 0; text[position] !== close; index++) {
        let key: string | number = index;
        if (open === "{") {
          const keyStart = position;
          position = stringEnd(position);
          key = JSON.parse(text.slice(keyStart, position)) as string;
          skipSpace();
          position++; // the colon
        }
        value(child(before, key), child(after, key));
        skipSpace();
        if (text[position] === ",") position++;
        skipSpace();
      }
      position++;
      return;
    }
    const start = position;
    if (open === '"') position = stringEnd(position);
    else while (position < text.length && !",}] \t\n\r".includes(text[position])) position++;
    if (after === before || after === undefined) return;
    // A key given twice: its other occurrence is rewritten only if the whole value was redacted; the
    // final check catches the rest.
    if (JSON.parse(text.slice(start, position)) === before || after === REDACTED) {
      out += text.slice(copiedUpTo, start) + JSON.stringify(after);
      copiedUpTo = position;
    }
  };
  value(original, redacted);
  return out + text.slice(copiedUpTo);
}
