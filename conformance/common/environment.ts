// The process environment a suite's subjects run in. A subject reads its variables from the
// environment of the process it lives in (the in-process reference: the harness's own; a runner: the
// one it inherits when the harness starts it), so whoever opens subjects sets them first, explicitly;
// no module sets them when it is imported.

/** Variables by name: a string sets one, null removes it. */
export type Environment = Readonly<Record<string, string | null>>;

export function applyEnvironment(environment: Environment, target: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(environment)) {
    if (value === null) delete target[name];
    else target[name] = value;
  }
}
