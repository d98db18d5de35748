// What is specific to toolnexus in the harness, in one place: its fixture kinds (and the environment
// their scenarios need a subject in), the capabilities a subject declares, and the client-paths matrix. The CLI hands this to the generic parts (lint,
// expansion, the engine); they do not import it.
import { fixtureKinds, subjectEnvironment } from "../../fixtures/registry.ts";
import { knownCapabilities } from "../../runners/protocol/protocol.ts";
import type { SuiteDefinition } from "../scenario/suite-definition.ts";
import { toolnexusBoundaries } from "./boundaries.ts";
import { fileURLToPath } from "node:url";

/** `matrix: client-paths`: each wire style, through run and through stream. */
export const clientPaths = ["openai-run", "openai-stream", "anthropic-run", "anthropic-stream"] as const;

function splitPath(path: string): { style: string; mode: string } {
  const [style, mode] = path.split("-");
  return { style, mode };
}

export const toolnexusSuite: SuiteDefinition = {
  title: "toolnexus",
  environment: subjectEnvironment,
  fixtureKinds,
  capabilities: knownCapabilities,
  matrices: { "client-paths": clientPaths },
  pathVariables(path) {
    const { style, mode } = splitPath(path);
    return { "path.id": path, "path.style": style, "path.mode": mode, "path.op": `client.${mode}` };
  },
  pathRequires(path) {
    const { style, mode } = splitPath(path);
    return [`style.${style}`, `client.${mode}`];
  },
  boundaries: toolnexusBoundaries,
  // An MCP server entry's `timeout` is milliseconds; the llm-mock's `retryAfter` is the header's seconds.
  timeKeys: { milliseconds: ["timeout"], seconds: ["retryAfter"] },
};

/** How long each scenario took per subject in a measured run (report/durations.ts; scripts/record-durations.ts writes it). */
export const toolnexusDurationsFile = fileURLToPath(new URL("../../fixtures/durations.json", import.meta.url));
