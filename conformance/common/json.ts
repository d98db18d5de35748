// JSON values and JSON Pointers (RFC 6901), written once for every layer: what counts as a JSON
// object, and how a pointer escapes a key, so a key holding "/" or "~" is addressed alike everywhere.
// (reference/ keeps its own isRecord: the implementation under test imports nothing of the harness.)

/** A JSON object: not null, not a list. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One key as a pointer segment: "~" -> "~0", "/" -> "~1" (in that order, RFC 6901 section 3). */
export function escapePointerToken(key: string | number): string {
  return String(key).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A pointer segment back to its key: "~1" -> "/", then "~0" -> "~" (RFC 6901 section 4). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** ["steps", 0, "with"] -> "/steps/0/with" below `base` ("" is the whole document). */
export function pathToPointer(keys: readonly (string | number)[], base = ""): string {
  return base + keys.map((key) => `/${escapePointerToken(key)}`).join("");
}

/** JSON Pointer "/steps/0/with" -> ["steps", 0, "with"], numbers where the segment is an index (RFC 6901: no leading zero; "01" is a key). */
export function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split("/")
    .map(unescapePointerToken)
    .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}
