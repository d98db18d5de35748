// createToolkit: load every source, then assemble (SPEC.md toolkit.order).
import { assembleToolkit, nativeTool, type Toolkit, type ToolkitOptions } from "./toolkit.ts";

export interface CreateToolkitOptions extends ToolkitOptions {
  signal?: AbortSignal;
}

export async function createToolkit(options: CreateToolkitOptions = {}): Promise<Toolkit> {
  const extra = (options.extraTools ?? []).map(nativeTool);
  return assembleToolkit([extra], options);
}
