// Request shaping: requestParams merge and refusal, body transform, tools omission, the store.
import { describe, expect, it } from "vitest";
import { createMemoryStore, createToolkit, type RequestBody } from "../../../reference/index.ts";
import { clientFor, mockUpstream } from "./helpers.ts";

describe("request shaping", () => {
  it("merges requestParams over the base body, drops reserved keys with a warning naming each", async () => {
    const { mock, requests } = await mockUpstream([{ text: "ok" }]);
    const { client, warnings } = clientFor(mock, {
      style: "anthropic",
      requestParams: { max_tokens: 999, stream: true, messages: [], tools: [], kw: { a: { b: 1 } } },
    });
    await client.run("hi");
    const [request] = await requests();
    expect(request!.body).toEqual({ model: "m1", max_tokens: 999, messages: [{ role: "user", content: "hi" }], kw: { a: { b: 1 } } });
    expect(warnings).toHaveLength(3);
    for (const key of ["messages", "tools", "stream"]) expect(warnings.some((w) => w.includes(`"${key}"`))).toBe(true);
  });

  it("runs beforeLLM, then the merge, then the transform, whose output is sent verbatim", async () => {
    const { mock, requests } = await mockUpstream([{ text: "ok" }]);
    const toolkit = await createToolkit({ extraTools: [{ name: "echo", execute: () => ({ output: "", isError: false }) }] });
    const seen: RequestBody[] = [];
    const { client } = clientFor(mock, {
      requestParams: { temperature: 0.42 },
      hooks: { beforeLLM: () => ({ tools: [] }) },
      bodyTransform: (body) => {
        seen.push(structuredClone(body));
        return { ...body, temperature: 0.1, messages: [{ role: "user", content: "rewritten" }] };
      },
    });
    await client.run("hi", { toolkit });
    expect(seen[0]).toEqual({ model: "m1", messages: [{ role: "user", content: "hi" }], temperature: 0.42 });
    expect((await requests())[0]!.body).toEqual({ model: "m1", messages: [{ role: "user", content: "rewritten" }], temperature: 0.1 });
  });

  it("sends the given body when the transform returns null, in-place changes included", async () => {
    const { mock, requests } = await mockUpstream([{ text: "ok" }]);
    const { client } = clientFor(mock, {
      bodyTransform: (body) => {
        body.seed = 7;
        return null;
      },
    });
    await client.run("hi");
    expect((await requests())[0]!.body).toMatchObject({ seed: 7 });
  });

  it("omits tools and tool_choice for an empty toolkit, and sends both for one tool", async () => {
    const { mock, requests } = await mockUpstream([{ text: "a" }, { text: "b" }]);
    const empty = await createToolkit({});
    const one = await createToolkit({ extraTools: [{ name: "echo", execute: () => ({ output: "", isError: false }) }] });
    const { client } = clientFor(mock);
    await client.run("hi", { toolkit: empty });
    await client.run("hi", { toolkit: one });
    const [first, second] = await requests();
    expect(first!.body).not.toHaveProperty("tools");
    expect(first!.body).not.toHaveProperty("tool_choice");
    expect(second!.body).toMatchObject({ tool_choice: "auto", tools: [{ type: "function", function: { name: "echo" } }] });
  });

  it("ask saves to the store the accessor returns; a saved history is what the next ask sends", async () => {
    const { mock, requests } = await mockUpstream([{ text: "one" }, { text: "two" }]);
    const store = createMemoryStore();
    const { client } = clientFor(mock, { store });
    expect(client.conversationStore()).toBe(store);
    await client.ask("q1", { id: "a" });
    expect(await store.get("a")).toEqual([
      { role: "user", content: "q1" },
      { role: "assistant", content: "one" },
    ]);
    await store.save("b", [{ role: "user", content: "old" }]);
    await client.ask("q2", { id: "b" });
    expect((await requests())[1]!.body).toMatchObject({
      messages: [
        { role: "user", content: "old" },
        { role: "user", content: "q2" },
      ],
    });
  });
});
