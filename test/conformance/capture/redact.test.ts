// redact() piece by piece, in process (capture.test.ts and import.test.ts redact whole captures): URL
// parameters in every position, what is remembered and searched for elsewhere, values under credential
// keys and patch ops, raw bodies, and the final check. Written from the gate mutation's survivors of
// conformance/capture/redact.ts: each case is a way a change there would let a secret through.
import { describe, expect, it } from "vitest";
import { findSecrets, redact } from "../../../conformance/capture/redact.ts";
import { REDACTED } from "../../../conformance/capture/redact-rules.ts";

const patterns = ["sk-[a-z0-9]{8,}"];
const R = REDACTED;

describe("URL parameters", () => {
  it("replaces every query and fragment value in URLs inside text, keeping names, empty values and the rest", () => {
    const { value } = redact({ t: "see https://h/p?a=1&b=2#f=3 and git+ssh://host/x?k=v." }, patterns);
    expect(value.t).toBe(`see https://h/p?a=${R}&b=${R}#f=${R} and git+ssh://host/x?k=${R}`);
    const odd = redact({ t: "https://h/p#frag?x=1 https://h/p?=v&k=&bare https://h/p https://h/p?" }, patterns).value.t;
    expect(odd).toBe(`https://h/p#frag?x=${R} https://h/p?=${R}&k=&${R} https://h/p https://h/p?`);
  });

  it("a request's path is a URL without scheme: a query or fragment at its very start too", () => {
    const exchanges = [{ requests: [{ path: "?key=abcdefghij" }, { path: "#tok=abcdefghij" }, { path: "/v1/x" }] }];
    const { value, redactedAt } = redact({ exchanges }, patterns);
    expect(value.exchanges[0].requests.map((request) => request.path)).toEqual([`?key=${R}`, `#tok=${R}`, "/v1/x"]);
    expect(redactedAt).toEqual(["/exchanges/0/requests/0/path", "/exchanges/0/requests/1/path"]);
  });
});

describe("what is remembered and replaced elsewhere", () => {
  it("a credential value of 8 characters or more, its URL-decoded form, and each word of it", () => {
    const headers = { "x-a": "abcd1234", "x-b": "abc1234", "x-c": "abc%2Fdefg", authorization: "Bearer  tokentoken12" };
    const prompt = "abcd1234 abc1234 abc/defg tokentoken12";
    const { value } = redact({ headers, prompt }, patterns);
    expect(value.headers).toEqual({ "x-a": R, "x-b": R, "x-c": R, authorization: R });
    expect(value.prompt).toBe(`${R} abc1234 ${R} ${R}`);
  });

  it("longest first, in plain and JSON-escaped forms", () => {
    const headers = { "x-a": "abcdefgh", "x-b": "abcdefghXYZ", "x-c": 'tok"en\\12345' };
    const { value } = redact({ headers, prompt: "abcdefghXYZ", body: JSON.stringify({ s: 'tok"en\\12345' }).slice(1) }, patterns);
    expect(value.prompt).toBe(R);
    expect(value.body).toBe(`"s":"${R}"}`);
  });

  it("a value whose percent-encoding is malformed is remembered as it is", () => {
    expect(redact({ headers: { "x-a": "abc%zzdefgh" }, prompt: "was abc%zzdefgh" }, patterns).value.prompt).toBe(`was ${R}`);
  });

  it("lists the places it changed in pointer order, not walk order", () => {
    expect(redact({ b: "sk-abcdefgh12", a: { z: "sk-abcdefgh34" } }, patterns).redactedAt).toEqual(["/a/z", "/b"]);
  });

  it("known secrets from outside the capture too", () => {
    expect(redact({ note: "cookie=zzzzzzzzzz" }, patterns, { knownSecrets: ["zzzzzzzzzz"] }).value.note).toBe(`cookie=${R}`);
  });
});

describe("values under credential keys", () => {
  it("every value inside a list or object under such a key, each at its pointer; null and booleans stay", () => {
    const { value, redactedAt } = redact({ api_key: ["longsecret1", { a: "longsecret2", n: 5, z: null, b: true }] }, patterns);
    expect(value).toEqual({ api_key: [R, { a: R, n: R, z: null, b: true }] });
    expect(redactedAt).toEqual(["/api_key/0", "/api_key/1/a", "/api_key/1/n"]);
  });

  it("a kept header's value is walked whatever its type; a JSON text is redacted inside, other text byte for byte", () => {
    const headers = { "content-type": ["https://h/?k=v"], accept: "text/plain" };
    const { value } = redact({ headers, args: '[{"api_key":"abc"}]', note: '{"note": "hello"}' }, patterns);
    expect(value.headers).toEqual({ "content-type": [`https://h/?k=${R}`], accept: "text/plain" });
    expect(value.args).toBe(`[{"api_key":"${R}"}]`);
    expect(value.note).toBe('{"note": "hello"}');
  });

  it("a patch op's value when its path names a credential, and nothing else of it", () => {
    const ops = [
      { op: "replace", path: "/auth/token", value: "plainvalue", from: "keep" },
      { op: 1, path: "/token", value: "other-1" },
      { path: "/token", value: "other-2" },
      { op: "add", path: 7, value: "other-3" },
    ];
    const { value } = redact({ ops }, patterns);
    expect(value.ops.map((op) => op.value)).toEqual([R, "other-1", "other-2", "other-3"]);
    expect(value.ops[0].from).toBe("keep");
  });
});

describe("raw bodies and the final check", () => {
  const raw = (text: string) => ({ exchanges: [{ requests: [{ raw: text, body: JSON.parse(text) }] }] });

  it("a raw body is redacted value by value, and listed only when something changed", () => {
    const secret = redact(raw('{"k":  "sk-abcdefgh12"}'), patterns);
    expect(secret.value.exchanges[0].requests[0].raw).toBe(`{"k":  "${R}"}`);
    expect(secret.redactedAt).toEqual(["/exchanges/0/requests/0/body/k", "/exchanges/0/requests/0/raw"]);
    expect(redact(raw('{"k":  "fine"}'), patterns).redactedAt).toEqual([]);
  });

  it("a raw body that is not JSON is refused, naming where", () => {
    expect(() => redact({ exchanges: [{ requests: [{ raw: "not json" }] }] }, patterns)).toThrow(
      "redaction impossible: the raw body at /exchanges/0/requests/0/raw is not JSON; remove it (it is only needed for --exact)",
    );
  });

  it("a secret left where redaction cannot reach (an object's key) stops everything, naming each place", () => {
    expect(() => redact({ a: { "sk-abcdefgh12": 1 }, b: { "sk-zzzzzzzz99": 2 } }, patterns)).toThrow(
      `redaction incomplete: a secret is still present at /a/${R} (a key), /b/${R} (a key); refusing to write anything`,
    );
  });

  it("findSecrets names strings by pointer, the root as /, and keys without spelling them", () => {
    const compiled = [/sk-[a-z0-9]{8,}/g];
    expect(findSecrets("sk-abcdefgh12", compiled, [])).toEqual(["/"]);
    expect(findSecrets(["ok", { x: ["sk-abcdefgh12"] }], compiled, [])).toEqual(["/1/x/0"]);
    expect(findSecrets({ note: "has known-secret-1 in it", n: 1 }, [], ["known-secret-1"])).toEqual(["/note"]);
    expect(findSecrets({ note: "nothing" }, compiled, ["known-secret-1"])).toEqual([]);
  });
});

describe("gate survivors: exact outputs a change would alter", () => {
  it("a URL right after a word character (`id_https://`, `2https://`) is a URL too", () => {
    const { value } = redact({ t: "id_https://h/?key=abc 2https://h/#k=def" }, patterns);
    expect(value.t).toBe(`id_https://h/?key=${R} 2https://h/#k=${R}`);
  });

  it("a URL in text ends at whitespace, quotes, angle brackets and backticks; schemes take digits, +, . and -", () => {
    const { value } = redact({ t: `"https://h/?a=1" <https://h/?b=2> 'https://h/?c=3' \`https://h/?d=4\` S3.x-1://h?e=5` }, patterns);
    expect(value.t).toBe(`"https://h/?a=${R}" <https://h/?b=${R}> 'https://h/?c=${R}' \`https://h/?d=${R}\` S3.x-1://h?e=${R}`);
  });

  it("a value already redacted (`Bearer [REDACTED]`) is no secret: the rest of the capture is not refused for it", () => {
    const input = { headers: { authorization: `Bearer ${R}`, "x-b": R }, prompt: `token ${R}`, url: `https://h/?k=${R}&j=%5BREDACTED%5D` };
    const { value, redactedAt } = redact(input, patterns);
    expect(value).toEqual({ headers: { authorization: R, "x-b": R }, prompt: `token ${R}`, url: `https://h/?k=${R}&j=${R}` });
    expect(redactedAt).toEqual(["/headers/authorization", "/url"]);
  });

  it("a secret quoted twice (JSON in a JSON string) is found in that form too", () => {
    const secret = 'ab"cdefgh12';
    const note = `x ${JSON.stringify(JSON.stringify({ s: secret }))}`;
    const { value, redactedAt } = redact({ headers: { "x-a": secret }, note }, patterns);
    expect(value.note).toBe(`x ${JSON.stringify(JSON.stringify({ s: R }))}`);
    expect(redactedAt).toEqual(["/headers/x-a", "/note"]);
  });

  it("only a text starting with { or [ is parsed as JSON: a JSON string literal is redacted as plain text", () => {
    const { value } = redact(
      { a: '"Bearer abcdefgh"', b: '{"x":"Bearer abcdefgh"}', c: '["Bearer abcdefgh"]' },
      patterns.concat(["Bearer\\s+\\S+"]),
    );
    expect(value).toEqual({ a: `"${R}`, b: `{"x":"${R}"}`, c: `["${R}"]` });
  });

  it("values found are replaced in lists and objects elsewhere, each listed at its own pointer (keys escaped)", () => {
    const { value, redactedAt } = redact(
      { headers: { "x-a": "longsecret1" }, echo: [{ "a/b~c": "was longsecret1" }, "longsecret1", 3, true, null] },
      patterns,
    );
    expect(value.echo).toEqual([{ "a/b~c": `was ${R}` }, R, 3, true, null]);
    expect(redactedAt).toEqual(["/echo/0/a~1b~0c", "/echo/1", "/headers/x-a"]);
  });

  it("under a schema's `properties` only an object names a field; a string there under a credential key is redacted", () => {
    const { value } = redact({ properties: { token: "plain-secret", key: { type: "string" } } }, patterns);
    expect(value).toEqual({ properties: { token: R, key: { type: "string" } } });
  });

  it("only the path and raw of a request get their special handling, at any index", () => {
    // A short credential value is not searched for elsewhere: only the raw's own redaction reaches it.
    const request = { path: "?k=v", pathname: "?k=v", raw: '{"token": "abc"}', rawText: "not json" };
    const exchanges = Array.from({ length: 11 }, () => ({ requests: Array.from({ length: 11 }, () => request) }));
    const elsewhere = { ...request, raw: "not json" };
    const { value } = redact({ exchanges, wrap: { exchanges: [{ requests: [elsewhere] }] } }, patterns);
    expect(value.exchanges[10]!.requests[10]).toEqual({ path: `?k=${R}`, pathname: "?k=v", raw: `{"token": "${R}"}`, rawText: "not json" });
    expect(value.wrap.exchanges[0]!.requests[0]).toEqual(elsewhere);
  });

  it("a raw body is redacted value by value, never as text (a pattern would eat its quotes)", () => {
    const text = '{"a": "Bearer abcdefgh", "b": 1}';
    const { value } = redact({ exchanges: [{ requests: [{ raw: text }] }] }, [String.raw`Bearer\s+\S+`]);
    expect(value.exchanges[0]!.requests[0]!.raw).toBe(`{"a": "${R}", "b": 1}`);
  });

  it("a `?` inside a fragment belongs to the fragment, in text and at the start of a path", () => {
    const exchanges = [{ requests: [{ path: "#tok=abc?x=1" }] }];
    const { value } = redact({ t: "https://h/p#tok=abc?x=1", exchanges }, patterns);
    expect(value.t).toBe(`https://h/p#tok=${R}`);
    expect(value.exchanges[0]!.requests[0]!.path).toBe(`#tok=${R}`);
  });

  it("without options only the built-in rules apply: an unlisted header is redacted, other text kept", () => {
    const { value } = redact({ headers: { "Stryker was here": "v" }, note: "Stryker was here" }, patterns);
    expect(value).toEqual({ headers: { "Stryker was here": R }, note: "Stryker was here" });
  });

  it("a raw that is not a string is walked like any value", () => {
    const { value } = redact({ exchanges: [{ requests: [{ raw: { k: "sk-abcdefgh12" } }] }] }, patterns);
    expect(value.exchanges[0]!.requests[0]!.raw).toEqual({ k: R });
  });

  it("findSecrets hits a string holding any one of several secrets or patterns", () => {
    expect(findSecrets({ a: "has secret-two-2", b: "none" }, [], ["secret-one-1", "secret-two-2"])).toEqual(["/a"]);
    // A list's indices are no keys (a digit pattern does not hit them); numbers, booleans, null and
    // undefined (a capture built in memory) hold no text.
    expect(findSecrets(["ok"], [/[0-9]/g], [])).toEqual([]);
    expect(findSecrets({ a: undefined, n: 1, b: true, z: null }, [/sk-/g], [])).toEqual([]);
    expect(findSecrets({ a: "sk-abcdefgh12", b: "xy-abcdefgh" }, [/sk-[a-z0-9]{8,}/g, /xy-[a-z]{8}/g], [])).toEqual(["/a", "/b"]);
  });
});
