// `${name}` substitution in step inputs: a string that is exactly one reference becomes the raw value
// (a list stays a list); a reference inside longer text is interpolated as text.
import { anyReference, wholeReference } from "../scenario/variables.ts";

export class UnknownVariableError extends Error {}

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
