// Source checkouts as subjects: where the port's folder is, what its content hash covers, how the
// command line picks published and source subjects, and how a manifest's {build}/{source} expand.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandCommand, hashPortFolder, resolvePortFolder } from "../../../conformance/subjects/port-source.ts";
import { pickRunners } from "../../../conformance/run/subjects.ts";
import { baselinePath } from "../../../conformance/subjects/runner-identity.ts";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-port-source-"));
  await mkdir(join(dir, "checkout/golang/sub"), { recursive: true });
  await writeFile(join(dir, "checkout/golang/go.mod"), "module example.test/port\n");
  await writeFile(join(dir, "checkout/golang/sub/a.go"), "package sub\n");
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("port source folders", () => {
  it("takes a checkout root or the port's own folder, and names a missing one", () => {
    expect(resolvePortFolder(join(dir, "checkout"), "golang")).toBe(join(dir, "checkout/golang"));
    expect(resolvePortFolder(join(dir, "checkout/golang"), "golang")).toBe(join(dir, "checkout/golang"));
    expect(() => resolvePortFolder(join(dir, "nowhere"), "golang")).toThrow(`source checkout ${join(dir, "nowhere")} not found`);
  });

  it("hashes paths and contents, not build output: same tree same hash, any edit a new one", async () => {
    const folder = join(dir, "checkout/golang");
    const before = await hashPortFolder(folder);
    expect(before).toMatch(/^sha256:[0-9a-f]{64}$/);
    await mkdir(join(folder, "node_modules/x"), { recursive: true });
    await writeFile(join(folder, "node_modules/x/index.js"), "ignored");
    expect(await hashPortFolder(folder)).toBe(before);
    await writeFile(join(folder, "sub/a.go"), "package sub // edited\n");
    expect(await hashPortFolder(folder)).not.toBe(before);
  });

  it("expands {source} and {build} in every argument", () => {
    expect(expandCommand(["{build}/runner", "--from={source}", "plain"], { source: "/s", build: "/b" })).toEqual([
      "/b/runner",
      "--from=/s",
      "plain",
    ]);
  });
});

describe("which runner subjects the options pick", () => {
  const source = { dir: "/checkout" };
  it("a plain name is the pinned package, or the source build when --source is given; NAME@VERSION another release", async () => {
    expect((await pickRunners({ runners: ["python"] })).picks).toEqual([{ runner: "python", kind: "pinned" }]);
    expect((await pickRunners({ runners: ["go"], source })).picks).toEqual([{ runner: "go", kind: "source" }]);
    expect((await pickRunners({ runners: ["go@source"] })).picks).toEqual([{ runner: "go", kind: "source" }]);
    expect((await pickRunners({ runners: ["python@0.16.0"], source })).picks).toEqual([
      { runner: "python", kind: "version", version: "0.16.0" },
    ]);
    await expect(pickRunners({ runners: ["go@"] })).rejects.toThrow("expected NAME, NAME@source or NAME@VERSION");
  });

  it("all: every pinned package, plus every runner that can build from the source when one is given", async () => {
    const published = (await pickRunners({ runners: ["all"] })).picks;
    expect(published.every((pick) => pick.kind === "pinned")).toBe(true);
    const both = (await pickRunners({ runners: ["all"], source })).picks;
    expect(both.filter((pick) => pick.kind === "source").map((pick) => pick.runner)).toEqual(
      expect.arrayContaining(["go", "java", "js", "python", "csharp"]),
    );
    expect(both.find((pick) => pick.runner === "ts" && pick.kind === "source")).toBeUndefined();
  });

  it("a version's baseline is its own file, or none: an old release is never judged by the pinned one's", () => {
    expect(baselinePath("python")).toMatch(/runners\/python\/expected-failures\.yaml$/);
    expect(baselinePath("python", { kind: "source" })).toMatch(/expected-failures\.source\.yaml$/);
    expect(baselinePath("python", { kind: "version", version: "0.0.1-never" })).toBeUndefined();
  });
});
