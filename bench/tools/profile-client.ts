// Where the reference client's stream turn spends its CPU (the client/bare-fetch row). Usage:
//   node --cpu-prof --cpu-prof-dir=/tmp/client-prof --import tsx bench/tools/profile-client.ts [anthropic|openai] [TURNS]
//   node bench/tools/summarize-profile.mjs /tmp/client-prof/*.cpuprofile
import { startLlmMock } from "../../fixtures/llm-mock/index.ts";
import { createClient } from "../../reference/index.ts";
import { conversation } from "../measure/client-turn.ts";

const style = process.argv[2] === "openai" ? "openai" : "anthropic";
const turns = Number(process.argv[3] ?? 3_000);
const mock = await startLlmMock();
try {
  const client = createClient({
    style,
    baseUrl: mock.vars.baseUrl,
    model: "bench-model",
    apiKey: "bench-key",
    retries: 0,
    logger: { warn: () => undefined },
  });
  const store = client.conversationStore();
  const history = conversation();
  for (let index = 0; index < turns; index++) {
    await mock.act("script", [{ text: "hello big world, this is the answer", usage: { input: 120, output: 8 } }]);
    await store.save("bench", history);
    for await (const _event of client.stream("and now?", { id: "bench" })) void _event;
  }
} finally {
  await mock.stop();
}
