// End to end, for every import path (HAR, raw HTTP dump, curl --trace-ascii): planted secrets in
// the request headers (Authorization, x-api-key, Cookie), HAR cookie and queryString arrays, the
// URL's query, credential-named body keys and the response headers (Set-Cookie, a token header)
// appear in no file written (scenarios, redacted captures, reports) and in no console output of
// import and run; the scenarios still replay. A Set-Cookie value the upstream also echoed in its reply
// text is caught though the capture never holds the header.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { filesUnder, runCli } from "../helpers.ts";

const AUTH = "opaque-canary-auth-0a1b2c3d";
const XKEY = "opaque-canary-xkey-4e5f6a7b";
const COOKIE = "opaque-canary-cookie-8c9d0e1f";
const QUERY = "opaque-canary-query-2a3b4c5d";
const BODY_KEY = "opaque-canary-bodykey-6e7f8a9b";
const SET_COOKIE = "opaque-canary-setcookie-0c1d2e3f";
const RESPONSE_HEADER = "opaque-canary-resphdr-4a5b6c7d";
/** Too short to be searched for elsewhere: only its key redacts it. */
const SHORT = "Qx-9z";
const needles = [
  AUTH,
  XKEY,
  COOKIE,
  QUERY,
  BODY_KEY,
  SET_COOKIE,
  RESPONSE_HEADER,
  SHORT,
  "canary-auth",
  "canary-cookie",
  "canary-setcookie",
];

const work = await mkdtemp(join(tmpdir(), "tnc-canary-import-"));
afterAll(() => rm(work, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await runCli(args, 120_000);
  return {
    code,
    output: `${stdout}
${stderr}`,
  };
}

const body = JSON.stringify({
  model: "m1",
  messages: [{ role: "user", content: "hi" }],
  temperature: 0.1,
  api_key: BODY_KEY,
  metadata: { session_token: SHORT },
});
const answer = JSON.stringify({
  choices: [{ index: 0, message: { role: "assistant", content: `your session is ${SET_COOKIE}` }, finish_reason: "stop" }],
});
const url = `https://llm.example.test/v1/chat/completions?key=${QUERY}`;
const requestHeaders: [string, string][] = [
  ["Host", "llm.example.test"],
  ["Authorization", `Bearer ${AUTH}`],
  ["x-api-key", XKEY],
  ["Cookie", `sid=${COOKIE}`],
  ["Content-Type", "application/json"],
];

const har = {
  log: {
    version: "1.2",
    creator: { name: "canary", version: "1" },
    entries: [
      {
        startedDateTime: "2026-11-30T12:00:00.000Z",
        request: {
          method: "POST",
          url,
          headers: requestHeaders.map(([name, value]) => ({ name, value })),
          cookies: [{ name: "sid", value: COOKIE }],
          queryString: [{ name: "key", value: QUERY }],
          postData: { mimeType: "application/json", text: body },
        },
        response: {
          status: 200,
          headers: [
            { name: "content-type", value: "application/json" },
            { name: "set-cookie", value: `sid=${SET_COOKIE}; Path=/; HttpOnly` },
            { name: "x-upstream-token", value: RESPONSE_HEADER },
          ],
          cookies: [{ name: "sid", value: SET_COOKIE }],
          content: { mimeType: "application/json", text: Buffer.from(answer).toString("base64"), encoding: "base64" },
        },
      },
    ],
  },
};

const rawDump = [
  `POST /v1/chat/completions?key=${QUERY} HTTP/1.1`,
  ...requestHeaders.map(([name, value]) => `${name}: ${value}`),
  `Content-Length: ${Buffer.byteLength(body)}`,
  "",
  body,
].join("\r\n");

/** A block as curl --trace-ascii prints it: rows of 64 bytes, a CRLF ends a row and is not shown. */
function traceBlock(marker: string, data: string): string[] {
  const rows = [`${marker}, ${Buffer.byteLength(data)} bytes (0x${Buffer.byteLength(data).toString(16)})`];
  for (let index = 0; index < data.length;) {
    const start = index;
    let text = "";
    while (text.length < 64 && index < data.length) {
      if (data.startsWith("\r\n", index)) {
        index += 2;
        break;
      }
      text += data[index++];
    }
    rows.push(`${start.toString(16).padStart(4, "0")}: ${text}`);
  }
  return rows;
}
const curlTrace = [
  "== Info: Connected to llm.example.test (127.0.0.1) port 443",
  ...traceBlock(
    "=> Send header",
    [
      `POST /v1/chat/completions?key=${QUERY} HTTP/1.1`,
      ...requestHeaders.map(([name, value]) => `${name}: ${value}`),
      `Content-Length: ${Buffer.byteLength(body)}`,
      "",
      "",
    ].join("\r\n"),
  ),
  ...traceBlock("=> Send data", body),
  ...traceBlock(
    "<= Recv header",
    [
      "HTTP/1.1 200 OK",
      "Content-Type: application/json",
      `Set-Cookie: sid=${SET_COOKIE}; Path=/`,
      `x-upstream-token: ${RESPONSE_HEADER}`,
      "",
      "",
    ].join("\r\n"),
  ),
  ...traceBlock("<= Recv data", answer),
  "",
].join("\n");

describe("planted secrets in HAR, raw HTTP and curl trace inputs", () => {
  it("appear in no file written and no console output of import and run", async () => {
    const inputs = join(work, "inputs");
    await mkdir(inputs, { recursive: true });
    await writeFile(join(inputs, "canary.har"), JSON.stringify(har, null, 2));
    await writeFile(join(inputs, "canary-raw.http"), rawDump);
    await writeFile(join(inputs, "canary-trace.txt"), curlTrace);
    // The raw dump has no reply: its --reply echoes the cookie, which only the Cookie header held.
    await writeFile(
      join(inputs, "reply.json"),
      JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: `cookie ${COOKIE} noted` }, finish_reason: "stop" }] }),
    );

    const out = join(work, "scenarios");
    const kept = join(work, "captures");
    const imported = await cli([
      "import",
      join(inputs, "canary.har"),
      join(inputs, "canary-raw.http"),
      join(inputs, "canary-trace.txt"),
      "--reply",
      join(inputs, "reply.json"),
      "--out",
      out,
      "--capture-out",
      kept,
    ]);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toContain("imported 3 captures");

    // Each capture kept its shape: the secrets were replaced, not the values around them.
    for (const name of ["canary", "canary-raw", "canary-trace"]) {
      const capture = JSON.parse(await readFile(join(kept, `${name}.json`), "utf8"));
      const request = capture.exchanges[0].requests[0];
      expect(request.path, name).toBe("/v1/chat/completions?key=[REDACTED]");
      expect(request.body, name).toMatchObject({ api_key: "[REDACTED]", metadata: { session_token: "[REDACTED]" }, temperature: 0.1 });
      expect(request.headers, name).toMatchObject({
        Authorization: "[REDACTED]",
        "x-api-key": "[REDACTED]",
        Cookie: "[REDACTED]",
        Host: "llm.example.test",
      });
      expect(capture.client.requestParams, name).toMatchObject({ api_key: "[REDACTED]", temperature: 0.1 });
      expect(capture.upstream.replies[0].text, name).toMatch(/\[REDACTED\]/);
    }

    const reports = join(work, "reports");
    const run = await cli([
      "run",
      out,
      "--json",
      join(reports, "r.json"),
      "--junit",
      join(reports, "r.xml"),
      "--matrix",
      join(reports, "r.md"),
      "--html",
      join(reports, "r.html"),
    ]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("3 passed, 0 failed");

    const files = (await Promise.all([out, kept, reports].map(filesUnder))).flat();
    expect(files.length).toBe(3 + 3 + 4);
    const texts = [
      ...(await Promise.all(files.map(async (file) => ({ where: file, text: await readFile(file, "utf8") })))),
      { where: "import output", text: imported.output },
      { where: "run output", text: run.output },
    ];
    for (const { where, text } of texts)
      for (const needle of needles) expect(text.includes(needle), `${needle} leaked into ${where}`).toBe(false);
  });
});
