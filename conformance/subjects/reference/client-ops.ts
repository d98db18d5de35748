// client.* and store.* operations on the reference (runners/PROTOCOL.md#operations).
import type { OpHandler } from "./driver.ts";

export const clientOps: Record<string, OpHandler> = {};
