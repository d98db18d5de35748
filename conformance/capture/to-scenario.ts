// A (redacted, validated) capture -> the text of a scenario that replays it: start the llm-mock,
// script the upstream's replies, create the client from the captured inputs, make the one call, and
// assert that every captured request arrives with the captured body (deep equality, key order
// ignored; with `exact`, also the raw text) and that the body transform received the captured input.
// A call that failed for good (its last reply an error) is expected to fail with the same error kind.
import { relative } from "node:path";
import { Document, isMap, isSeq, visit, type Node } from "yaml";
import type { Capture } from "../schema/capture.types.ts";
import { derivedClauses, derivedRequires } from "../suite/capture-claims.ts";

export const CAPTURED_TAG = "captured";
/** Scenarios with this tag have their wire-body and transform-input `equals` written by `record`. */
export const RECORDED_TAG = "recorded";
export const scenarioSchemaPath = "conformance/schema/scenario.schema.json";

export interface ToScenarioOptions {
  /** Assert the raw body text as well (a port that promises byte identity). */
  exact?: boolean;
  /** Tag the scenario `recorded`, so that `record` fills its expectations from the reference. */
  recorded?: boolean;
  /** Repository root, for the schema header and the "imported from" comment. */
  repoRoot: string;
  /** Where the scenario file will be written. */
  scenarioPath: string;
  /** The scenario's id: its path under the scenarios folder (scenario/scenario-id.ts). */
  scenarioId: string;
  /** The capture file, for the comment. */
  capturePath: string;
}

const ENDPOINT = /\/(chat\/completions|messages)$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const hasAuth = (capture: Capture) =>
  capture.exchanges.some((exchange) =>
    exchange.requests.some((request) =>
      Object.keys(request.headers).some((name) => ["authorization", "x-api-key"].includes(name.toLowerCase())),
    ),
  );

/** The llm-mock faults that end a call for good, and the error kind runners/PROTOCOL.md gives each. */
// (No `empty`: an answer without content is an answer with text "", SPEC client.faults.empty.)
const FAULT_KINDS: Record<string, string> = {
  "malformed-sse": "stream",
  "cut-stream": "stream",
  "cut-after-finish": "stream",
  "drop-connection": "stream",
};

/**
 * How the captured call ended, when it failed: its last upstream reply was an error status or a fault
 * (a retry that succeeded would have left a later reply). The replay must fail the same way, not pass.
 */
export function finalFailure(capture: Capture): Record<string, unknown>[] {
  const last = capture.upstream?.replies.at(-1) as { status?: number; fault?: string } | undefined;
  if (!last) return [];
  const because = "the captured call failed for good: its last upstream reply";
  if (typeof last.status === "number" && last.status >= 400)
    return [
      { at: "/error/kind", equals: "http", because: `${because} was HTTP ${last.status}` },
      { at: "/error/details/status", equals: last.status },
    ];
  if (last.fault && FAULT_KINDS[last.fault])
    return [{ at: "/error/kind", equals: FAULT_KINDS[last.fault], because: `${because} was the fault ${last.fault}` }];
  return [];
}

export function captureToScenario(capture: Capture, options: ToScenarioOptions): string {
  const style = capture.client.style;
  const paths = capture.exchanges.map((exchange) => `${style}-${exchange.stream ? "stream" : "run"}`);
  const whenFor = (stream: boolean) => (paths.length > 1 ? { when: { "path.id": `${style}-${stream ? "stream" : "run"}` } } : {});

  const steps: Record<string, unknown>[] = [];
  if (capture.toolkit) steps.push({ op: "toolkit.create", with: { handle: "tk", extraTools: capture.toolkit.extraTools } });
  steps.push({ fixture: "llm", action: "script", with: capture.upstream?.replies ?? [{ text: "ok" }] });
  const { style: _style, ...clientInputs } = capture.client;
  steps.push({
    op: "client.create",
    with: {
      handle: "c",
      style: "${path.style}",
      baseUrl: "${llm.baseUrl}",
      // The captured credential is redacted; any key makes the client send the header.
      ...(hasAuth(capture) ? { apiKey: "test-key-not-secret" } : {}),
      ...clientInputs,
    },
  });

  const callExpect: Record<string, unknown>[] = [...finalFailure(capture)];
  const observationExpect: Record<string, unknown>[] = [];
  if (capture.upstream) {
    callExpect.push({
      fixture: "llm",
      at: "/unusedReplies",
      equals: 0,
      because: "the call consumed every captured upstream reply: as many requests as turns were captured",
    });
  }
  for (const exchange of capture.exchanges) {
    const when = whenFor(exchange.stream);
    exchange.requests.forEach((request, position) => {
      const index = request.index ?? position;
      const at = `/requests/${index}`;
      callExpect.push({ fixture: "llm", at: `${at}/method`, equals: request.method.toUpperCase(), ...when });
      // The mock records the path without its query (and the replayed client sends none).
      const endpoint = ENDPOINT.exec(request.path.replace(/[?#].*$/s, ""))?.[0];
      if (endpoint) callExpect.push({ fixture: "llm", at: `${at}/path`, matches: `${escapeRegExp(endpoint)}$`, ...when });
      callExpect.push({
        fixture: "llm",
        at: `${at}/body`,
        ...when,
        because: `the ${capture.provenance.kind} wire body of request ${index}`,
        equals: request.body,
      });
      if (options.exact) {
        if (request.raw === undefined)
          throw new Error(
            `--exact needs the raw body text, and request ${index} of the ${exchange.stream ? "stream" : "run"} exchange has none`,
          );
        callExpect.push({
          fixture: "llm",
          at: `${at}/raw`,
          ...when,
          because: "byte identity (imported with --exact)",
          equals: request.raw,
        });
      }
      if (request.transformInput) {
        observationExpect.push({
          at: `/value/transformInputs/${index}`,
          ...when,
          because: `the body transform received exactly the body the client built for request ${index}`,
          equals: request.transformInput,
        });
      }
    });
  }
  steps.push({
    op: "${path.op}",
    with: {
      client: "c",
      prompt: capture.call.prompt,
      ...(capture.toolkit ? { toolkit: "tk" } : {}),
      ...(capture.call.history ? { history: capture.call.history } : {}),
    },
    expect: callExpect,
  });
  if (observationExpect.length) steps.push({ op: "client.observations", with: { client: "c" }, expect: observationExpect });

  const tags = [...new Set([CAPTURED_TAG, ...(capture.tags ?? []), ...(options.recorded ? [RECORDED_TAG] : [])])];
  const requires = derivedRequires(capture);
  const scenario = {
    id: options.scenarioId,
    title: capture.title,
    ...(capture.description ? { description: capture.description } : {}),
    spec: derivedClauses(capture),
    tags,
    ...(requires.length ? { requires } : {}),
    provenance: capture.provenance,
    matrix: paths,
    fixtures: { llm: { kind: "llm-mock" } },
    steps,
  };

  const document = new Document(scenario, { aliasDuplicateObjects: false });
  compactSmallNodes(document);
  const schema = relative(dirnameOf(options.scenarioPath), `${options.repoRoot}/${scenarioSchemaPath}`);
  const header = [
    `# yaml-language-server: $schema=${schema}`,
    `# Imported from ${relative(options.repoRoot, options.capturePath)} by \`npm run conformance -- import\`${options.exact ? " --exact" : ""}.`,
    "# Edit the capture and import again rather than this file.",
  ].join("\n");
  return `${header}\n${document.toString({ lineWidth: 0 })}`;
}

const dirnameOf = (path: string) => path.replace(/\/[^/]*$/, "") || ".";

/** Short maps and lists in flow style ({a: 1}), long ones in block style: readable diffs either way. */
export function compactSmallNodes(document: Document | Node, limit = 100): void {
  visit(document, (_key, node) => {
    if ((isMap(node) || isSeq(node)) && JSON.stringify(node.toJSON()).length <= limit) node.flow = true;
  });
}
