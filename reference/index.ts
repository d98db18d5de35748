// The TypeScript reference implementation of the toolnexus contract (SPEC.md).
export * from "./types.ts";
export { createToolkit, type CreateToolkitOptions } from "./toolkit/create.ts";
export type { Toolkit, ToolkitOptions } from "./toolkit/toolkit.ts";
export { toAnthropic, toGemini, toOpenAI } from "./toolkit/adapters.ts";
export * from "./mcp/index.ts";
export { openToolkits, type OpenToolkits } from "./toolkit/introspection.ts";
export * from "./client/index.ts";
