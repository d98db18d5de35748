// What this machine can obtain, decided from the package clients' own answers (conformance/subjects/
// obtainability.ts), proved both ways without either registry: the python and rust runners' real
// probes (pip, cargo) asked against a loopback index that serves the package, one that answers and
// refuses it (the port stays required: where it cannot be installed, CI is red), and an address that
// refuses connections (not obtainable here: excused, with the client's words). A probe that hangs is
// bounded; a missing toolchain asks no client. Then the same decision as the CLI reads it.
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideObtainability, splitVerdicts, verdictFor } from "../../../conformance/subjects/obtainability.ts";
import type { Obtainability } from "../../../conformance/schema/obtainability.types.ts";

const exec = promisify(execFile);
const onPath = async (tool: string) => (await exec("bash", ["-c", `command -v ${tool}`]).catch(() => undefined)) !== undefined;
const [havePython, haveCargo] = await Promise.all([onPath("python3"), onPath("cargo")]);

let scratch: string;
/** Two loopback indexes: one serves the package, the other answers a 404 for it (the registry refuses). */
let servingIndex: Server;
let servingUrl: string;
let refusingIndex: Server;
let refusingUrl: string;
/** A loopback port nothing listens on: connections are refused, as for a registry that cannot be reached. */
let closedUrl: string;
let wheel: Buffer;

/** A minimal but valid wheel of toolnexus 0.21.0 (pip validates what it downloads), made by python3's zipfile. */
async function makeWheel(): Promise<Buffer> {
  const file = join(scratch, "toolnexus-0.21.0-py3-none-any.whl");
  const script = `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as wheel:
    wheel.writestr("toolnexus/__init__.py", "")
    wheel.writestr("toolnexus-0.21.0.dist-info/METADATA", "Metadata-Version: 2.1\\nName: toolnexus\\nVersion: 0.21.0\\n")
    wheel.writestr("toolnexus-0.21.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    wheel.writestr("toolnexus-0.21.0.dist-info/RECORD", "")
`;
  await exec("python3", ["-c", script, file]);
  return readFileSync(file);
}

/** A package index on loopback for pip (simple index) and cargo (sparse index): the package, or 404s. */
function indexAnswering(serving: "package" | "nothing", ownUrl: () => string) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? "";
    // cargo's sparse index: its config, then the crate's index file (to/ol/toolnexus).
    if (url === "/config.json") return response.end(JSON.stringify({ dl: `${ownUrl()}/crates` }));
    if (serving === "package" && url === "/to/ol/toolnexus")
      return response.end(
        `${JSON.stringify({ name: "toolnexus", vers: "0.23.0", deps: [], cksum: "0".repeat(64), features: {}, yanked: false })}\n`,
      );
    // pip's simple index: the project page, then the wheel it links.
    if (serving === "package" && url === "/simple/toolnexus/") {
      response.setHeader("content-type", "text/html");
      return response.end(
        '<html><body><a href="/files/toolnexus-0.21.0-py3-none-any.whl">toolnexus-0.21.0-py3-none-any.whl</a></body></html>',
      );
    }
    if (serving === "package" && url === "/files/toolnexus-0.21.0-py3-none-any.whl") return response.end(wheel);
    response.statusCode = 404;
    response.end("not found");
  };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "tnc-obtainability-"));
  if (havePython) wheel = await makeWheel();
  servingIndex = createServer(indexAnswering("package", () => servingUrl));
  servingUrl = await listen(servingIndex);
  refusingIndex = createServer(indexAnswering("nothing", () => refusingUrl));
  refusingUrl = await listen(refusingIndex);
  const closing = createServer();
  closedUrl = await listen(closing);
  await new Promise((resolve) => closing.close(resolve));
}, 30_000);

afterAll(async () => {
  for (const index of [servingIndex, refusingIndex]) {
    index?.closeAllConnections();
    await new Promise((resolve) => (index ? index.close(resolve) : resolve(undefined)));
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The environment that points pip at an index: the ordinary client's own setting. */
const pipAt = (url: string) => ({ PIP_INDEX_URL: `${url}/simple/` });

/** A CARGO_HOME whose config replaces the default registry with a loopback one (cargo's source replacement). */
function cargoAt(url: string, name: string): Record<string, string> {
  const home = join(scratch, `cargo-home-${name}`);
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "config.toml"),
    `[source.crates-io]\nreplace-with = "loopback"\n[source.loopback]\nregistry = "sparse+${url}/"\n[net]\nretry = 0\n`,
  );
  return { CARGO_HOME: home };
}

const decide = (runner: string, env: Record<string, string>) => decideObtainability({ names: [runner], env });

describe.runIf(havePython)("pip's answer decides the python port", { concurrent: true }, () => {
  it("an index that serves the package: served; python and python@source are required", async () => {
    const decision = await decide("python", pipAt(servingUrl));
    expect(decision.runners[0].port, decision.runners[0].port.words).toMatchObject({ answer: "served" });
    expect(splitVerdicts(decision, ["python", "python@source"]).here.map((verdict) => verdict.subject)).toEqual([
      "python",
      "python@source",
    ]);
  }, 60_000);

  it("an index that answers and refuses the package: refused, and still required (its install then fails: CI red)", async () => {
    const decision = await decide("python", pipAt(refusingUrl));
    expect(decision.runners[0].port.answer, decision.runners[0].port.words).toBe("refused");
    expect(decision.runners[0].port.words).toContain("No matching distribution found for toolnexus==0.21.0");
    const { here, excused } = splitVerdicts(decision, ["python", "python@source"]);
    expect(here.map((verdict) => verdict.subject)).toEqual(["python", "python@source"]);
    expect(excused).toEqual([]);
    expect(verdictFor(decision, "python").why).toMatch(/^its registry answered and refused toolnexus==0\.21\.0: .*toolnexus==0\.21\.0/);
  }, 60_000);

  it("an index that cannot be reached: not obtainable here, excused with pip's own words", async () => {
    const decision = await decide("python", pipAt(closedUrl));
    expect(decision.runners[0].port.answer, decision.runners[0].port.words).toBe("unreachable");
    const { here, excused } = splitVerdicts(decision, ["python", "python@source"]);
    expect(here).toEqual([]);
    expect(excused.map((verdict) => verdict.why)).toEqual([
      expect.stringMatching(/^its package client could not reach its registry: .*Connection refused/),
      expect.stringMatching(/Connection refused/),
    ]);
  }, 60_000);
});

describe.runIf(haveCargo)("cargo's answer decides the rust port", { concurrent: true }, () => {
  it("a registry that serves the crate: served, required", async () => {
    const decision = await decide("rust", cargoAt(servingUrl, "serves"));
    expect(decision.runners[0].port, decision.runners[0].port.words).toMatchObject({ answer: "served" });
    expect(verdictFor(decision, "rust").here).toBe("yes");
  }, 60_000);

  it("a registry that answers and refuses the crate: refused, still required", async () => {
    const decision = await decide("rust", cargoAt(refusingUrl, "refuses"));
    expect(decision.runners[0].port.answer, decision.runners[0].port.words).toBe("refused");
    expect(decision.runners[0].port.words).toContain("no matching package named `toolnexus` found");
    expect(verdictFor(decision, "rust")).toMatchObject({ here: "yes", why: expect.stringContaining("refused toolnexus@0.23.0") });
  }, 60_000);

  it("a registry that cannot be reached: not obtainable here, with cargo's own words", async () => {
    const decision = await decide("rust", cargoAt(closedUrl, "unreachable"));
    expect(decision.runners[0].port.answer, decision.runners[0].port.words).toBe("unreachable");
    expect(verdictFor(decision, "rust")).toMatchObject({
      here: "no",
      why: expect.stringMatching(/^its package client could not reach its registry: .*\[7\]/),
    });
  }, 60_000);
});

describe.runIf(await onPath("npm"))("npm's answer decides the js port", { concurrent: true }, () => {
  it("a registry that answers and refuses the package: refused; one that cannot be reached: not obtainable here", async () => {
    const [refused, unreachable] = await Promise.all([
      decide("js", { NPM_CONFIG_REGISTRY: `${refusingUrl}/` }),
      decide("js", { NPM_CONFIG_REGISTRY: `${closedUrl}/` }),
    ]);
    expect(refused.runners[0].port.answer, refused.runners[0].port.words).toBe("refused");
    expect(verdictFor(refused, "js").why).toBe("its registry answered and refused toolnexus@0.16.0: npm error code E404");
    expect(unreachable.runners[0].port.answer, unreachable.runners[0].port.words).toBe("unreachable");
    expect(verdictFor(unreachable, "js@source")).toMatchObject({ here: "no", why: expect.stringContaining("ECONNREFUSED") });
  }, 60_000);
});

describe.runIf(await onPath("dotnet"))("NuGet's answer decides the csharp port", { concurrent: true }, () => {
  /** A TMPDIR whose nuget.config (found above the probe's scratch project) lists only the loopback feed. */
  function nugetAt(url: string, name: string): Record<string, string> {
    const dir = join(scratch, `nuget-${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "nuget.config"),
      `<configuration><packageSources><clear /><add key="loopback" value="${url}/v3/index.json" allowInsecureConnections="true" /></packageSources></configuration>`,
    );
    return { TMPDIR: dir };
  }

  it("a feed that cannot be reached: not obtainable here, with NuGet's own words", async () => {
    const decision = await decide("csharp", nugetAt(closedUrl, "unreachable"));
    expect(decision.runners[0].port.answer, decision.runners[0].port.words).toBe("unreachable");
    expect(verdictFor(decision, "csharp")).toMatchObject({ here: "no", why: expect.stringContaining("Connection refused") });
  }, 90_000);
});

describe("the decision's own rules, on runners made for the test", () => {
  /** A runners folder with one runner, NAME, whose manifest has `change` over a minimal one. */
  function runnerWith(name: string, change: Record<string, unknown>): string {
    const dir = join(scratch, `runners-${name}`);
    mkdirSync(join(dir, name), { recursive: true });
    const manifest = {
      name,
      description: "a runner made by the test",
      language: "none",
      package: "made@1.0.0",
      start: ["true"],
      ...change,
    };
    writeFileSync(join(dir, name, "runner.json"), JSON.stringify(manifest));
    return dir;
  }

  it("a probe that hangs is killed at its bound: hung, undecided, not excused", async () => {
    const dir = runnerWith("hangs", { probe: ["bash", "-c", "echo asking; sleep 30"], probeTimeoutMs: 1000 });
    const started = Date.now();
    const decision = await decideObtainability({ dir });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(decision.runners[0].port).toMatchObject({ answer: "hung", words: "asking\n(no answer within 1000 ms)" });
    expect(splitVerdicts(decision, ["hangs"]).undecided).toEqual([
      { subject: "hangs", here: "undecided", why: "its package client did not answer: (no answer within 1000 ms)" },
    ]);
  });

  it("a missing toolchain asks no client: not obtainable here, naming the tool", async () => {
    const dir = runnerWith("toolless", { requires: ["bash", "no-such-tool-tnc"], probe: ["bash", "-c", "echo asked >&2; exit 0"] });
    const decision = await decideObtainability({ dir });
    expect(decision.runners[0].toolchains).toEqual([
      { tool: "bash", found: true, version: expect.stringContaining("GNU bash") },
      { tool: "no-such-tool-tnc", found: false },
    ]);
    expect(decision.runners[0].port).toEqual({ answer: "no-toolchain" });
    expect(verdictFor(decision, "toolless@source")).toEqual({
      subject: "toolless@source",
      here: "no",
      why: "no-such-tool-tnc not on PATH",
    });
  });

  it("the probe's exit status is its answer: 0 served, 3 unreachable, anything else refused; without a probe, the install decides", async () => {
    const answers: Record<string, Obtainability["runners"][number]["port"]["answer"]> = {};
    for (const [name, probe] of Object.entries({ zero: "exit 0", three: "exit 3", one: "exit 1", seven: "exit 7" })) {
      const decision = await decideObtainability({ dir: runnerWith(name, { probe: ["bash", "-c", probe] }) });
      answers[name] = decision.runners[0].port.answer;
    }
    const unprobed = await decideObtainability({ dir: runnerWith("unprobed", {}) });
    expect(answers).toEqual({ zero: "served", three: "unreachable", one: "refused", seven: "refused" });
    expect(unprobed.runners[0].port).toEqual({ answer: "not-asked" });
    expect(verdictFor(unprobed, "unprobed")).toMatchObject({ here: "yes", why: "no probe: its install decides" });
    expect(verdictFor(unprobed, "absent")).toMatchObject({ here: "no" });
  });

  it("a source build needs the registry (its dependencies) but not the published package", async () => {
    const decision = await decideObtainability({
      dir: runnerWith("refusing", { probe: ["bash", "-c", "echo 'no such package'; exit 1"] }),
    });
    expect(verdictFor(decision, "refusing")).toEqual({
      subject: "refusing",
      here: "yes",
      why: "its registry answered and refused made@1.0.0: no such package",
    });
    expect(verdictFor(decision, "refusing@source")).toMatchObject({ here: "yes", why: "its registry answers (built from source)" });
  });
});
