// A mock upstream per test and a client pointed at it.
import { afterEach } from "vitest";
import { startLlmMock, type LlmMock, type RecordedRequest } from "../../../fixtures/llm-mock/index.ts";
import { createClient, type ClientOptions } from "../../../reference/index.ts";

const started: LlmMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.stop()));
});

export async function mockUpstream(replies: unknown[]): Promise<{ mock: LlmMock; requests: () => Promise<RecordedRequest[]> }> {
  const mock = await startLlmMock();
  started.push(mock);
  await mock.act("script", replies);
  return { mock, requests: async () => ((await mock.snapshot()) as { requests: RecordedRequest[] }).requests };
}

export function clientFor(mock: LlmMock, options: Partial<ClientOptions> = {}) {
  const warnings: string[] = [];
  const client = createClient({
    baseUrl: mock.vars.baseUrl,
    style: "openai",
    model: "m1",
    retryBaseMs: 1,
    logger: { warn: (m) => warnings.push(m) },
    ...options,
  });
  return { client, warnings };
}
