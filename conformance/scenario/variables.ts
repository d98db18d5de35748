// The `${name}` syntax of the scenario format: what lint reads and the engine substitutes.
export const wholeReference = /^\$\{([^{}]+)\}$/;
export const anyReference = /\$\{([^{}]+)\}/g;

/** Every variable name referenced anywhere in a value (for lint). */
export function referencedVariables(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") for (const match of value.matchAll(anyReference)) found.add(match[1]);
  else if (Array.isArray(value)) for (const item of value) referencedVariables(item, found);
  else if (value && typeof value === "object") for (const item of Object.values(value)) referencedVariables(item, found);
  return found;
}
