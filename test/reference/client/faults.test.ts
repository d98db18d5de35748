// Broken answers end in typed errors, within the bounds; never a hang.
import { describe, expect, it } from "vitest";
import { LLMCancelledError, LLMStreamError, type Client } from "../../../reference/index.ts";
import { clientFor, mockUpstream } from "./helpers.ts";

async function streamText(client: Client): Promise<string> {
  let text = "";
  for await (const event of client.stream("hi")) if (event.type === "text") text += event.delta;
  return text;
}

describe.each(["openai", "anthropic"] as const)("faults on %s", (style) => {
  it.each([
    ["malformed-sse", LLMStreamError],
    ["cut-stream", LLMStreamError],
    ["cut-after-finish", LLMStreamError],
    ["drop-connection", LLMStreamError],
  ] as const)("a %s stream fails with its typed error", async (fault, errorClass) => {
    const { mock } = await mockUpstream([{ fault, text: "hello big world" }]);
    const { client } = clientFor(mock, { style, retries: 0, timeoutMs: 5_000 });
    await expect(streamText(client)).rejects.toBeInstanceOf(errorClass);
  });

  // As every port reads it: no choices / no content blocks is an answer with text "" (client.faults.empty).
  it('an empty answer, run or streamed, is a normal answer with text ""', async () => {
    const { mock } = await mockUpstream([{ fault: "empty" }, { fault: "empty" }]);
    const { client } = clientFor(mock, { style, retries: 0, timeoutMs: 5_000 });
    expect((await client.run("hi")).text).toBe("");
    expect(await streamText(client)).toBe("");
  });

  it("a stalled stream ends at timeoutMs as a timeout cancellation", async () => {
    const { mock } = await mockUpstream([{ fault: "stall", text: "hello big world" }]);
    const { client } = clientFor(mock, { style, retries: 0, timeoutMs: 200 });
    const started = performance.now();
    const error = await streamText(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LLMCancelledError);
    expect(error).toMatchObject({ reason: "timeout" });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("a complete stream still works (the faults above are not the client's default)", async () => {
    const { mock } = await mockUpstream([{ text: "hello big world" }]);
    const { client } = clientFor(mock, { style });
    expect(await streamText(client)).toBe("hello big world");
  });
});
