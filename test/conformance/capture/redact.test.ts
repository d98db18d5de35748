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
    expect(findSecrets("sk-abcdefgh12", compiled)).toEqual(["/"]);
    expect(findSecrets(["ok", { x: ["sk-abcdefgh12"] }], compiled)).toEqual(["/1/x/0"]);
    expect(findSecrets({ note: "has known-secret-1 in it", n: 1 }, [], ["known-secret-1"])).toEqual(["/note"]);
    expect(findSecrets({ note: "nothing" }, compiled, ["known-secret-1"])).toEqual([]);
  });
});
