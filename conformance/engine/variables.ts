// `${name}` substitution in step inputs: a string that is exactly one reference becomes the raw value
// (a list stays a list); a reference inside longer text is interpolated as text.
const wholeReference = /^\$\{([^{}]+)\}$/;
const anyReference = /\$\{([^{}]+)\}/g;

export class UnknownVariableError extends Error {}

/** Every variable name referenced anywhere in a value (for lint). */
export function referencedVariables(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (typeof value === "string") for (const match of value.matchAll(anyReference)) found.add(match[1]);
  else if (Array.isArray(value)) for (const item of value) referencedVariables(item, found);
  else if (value && typeof value === "object") for (const item of Object.values(value)) referencedVariables(item, found);
  return found;
}

export function substitute(value: unknown, vars: ReadonlyMap<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = wholeReference.exec(value);
    if (whole) return lookup(whole[1], vars);
    return value.replace(anyReference, (_, name: string) => {
      const found = lookup(name, vars);
      return typeof found === "string" ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, vars));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, vars)]));
  }
  return value;
}

function lookup(name: string, vars: ReadonlyMap<string, unknown>): unknown {
  if (!vars.has(name)) throw new UnknownVariableError(`unknown variable \${${name}}; known: ${[...vars.keys()].join(", ") || "none"}`);
  return vars.get(name);
}
