// A9 (optional, SPEC.md toolkit.introspection): how many toolkits are open and which MCP servers they
// hold connected, so a host needs no counter of its own for its debug endpoint.

const open = new Map<object, readonly string[]>();

export interface OpenToolkits {
  open: number;
  /** Connected servers of every open toolkit, in opening order (a name repeats if two toolkits hold it). */
  servers: string[];
}

export function registerOpenToolkit(token: object, servers: readonly string[]): void {
  open.set(token, [...servers]);
}

export function unregisterOpenToolkit(token: object): void {
  open.delete(token);
}

export function openToolkits(): OpenToolkits {
  return { open: open.size, servers: [...open.values()].flat() };
}
