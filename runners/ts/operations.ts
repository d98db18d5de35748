// The operation table: each operation of runners/PROTOCOL.md#operations by name, but session.reset,
// which the handler performs itself. The protocol's type of each op's input and value holds here.
import type { OperationInput, OperationName, OperationOutput } from "../protocol/protocol.ts";
import { clientOps } from "./client-ops.ts";
import { inProcessOps } from "./in-process-ops.ts";
import type { OpHandler, OpHandlers, Session } from "./session.ts";
import { toolkitOps } from "./toolkit-ops.ts";

export type TableOperation = Exclude<OperationName, "session.reset">;

const operations: OpHandlers<TableOperation> = {
  async "runner.echo"(input) {
    return { value: input.value };
  },
  ...clientOps,
  ...toolkitOps,
  ...inProcessOps,
};

export function perform<K extends TableOperation>(op: K, input: OperationInput<K>, session: Session): Promise<OperationOutput<K>> {
  const handler: OpHandler<K> = operations[op];
  return handler(input, session);
}
