// One baseline shape for every runner: the published package's (expected-failures.yaml) and, where the
// runner builds from source, the source build's (expected-failures.source.yaml), each at the path the
// harness reads (baselinePath), each loading, each for its own subject identity, and each saying which
// run it agrees with (measured: date and command) or why none has measured it yet (notMeasured).
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadBaseline } from "../../conformance/report/baseline.ts";
import { readManifest, runnerNames } from "../../conformance/subjects/runner-registry.ts";
import { baselinePath, subjectName, type OriginName } from "../../conformance/subjects/runner-identity.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Every subject identity a runner's manifest offers a baseline for: the pinned package, its source build, each release with a file of its own. */
async function identities(runner: string): Promise<OriginName[]> {
  const manifest = await readManifest(runner);
  const releases = join(root, "runners", runner, "baselines");
  const versions = existsSync(releases) ? readdirSync(releases).map((name) => name.replace(/\.yaml$/, "")) : [];
  return [
    { kind: "pinned" },
    ...(manifest.source ? [{ kind: "source" as const }] : []),
    ...versions.map((version) => ({ kind: "version" as const, version })),
  ];
}

/** What is wrong with the baseline at `path` for `subject`, one line each (loading problems throw at their file and line). */
async function shapeProblems(path: string, subject: string): Promise<string[]> {
  const name = relative(root, path);
  if (!existsSync(path)) return [`${name}: missing (say notMeasured and why, when no run has measured ${subject})`];
  await loadBaseline(path);
  const data = parse(await readFile(path, "utf8")) as { subject: string; measured?: unknown; notMeasured?: string };
  return [
    ...(data.subject === subject ? [] : [`${name}: subject ${data.subject}, expected ${subject}`]),
    ...(data.measured || data.notMeasured ? [] : [`${name}: says neither measured (date, command) nor notMeasured (why)`]),
  ];
}

describe("every runner's baselines have one shape", () => {
  it("each identity's file exists, loads, names its subject and says measured or notMeasured", async () => {
    const problems: string[] = [];
    let identitiesSeen = 0;
    for (const runner of runnerNames())
      for (const origin of await identities(runner)) {
        identitiesSeen++;
        problems.push(...(await shapeProblems(baselinePath(runner, origin)!, subjectName(runner, origin))));
      }
    expect(problems).toEqual([]);
    expect(identitiesSeen).toBeGreaterThan(runnerNames().length);
  });

  it("the check fails on a missing file, another subject's file, and a file silent on its measurement", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tnc-baseline-shape-"));
    const file = join(dir, "expected-failures.yaml");
    try {
      expect(await shapeProblems(file, "go")).toEqual([
        `${relative(root, file)}: missing (say notMeasured and why, when no run has measured go)`,
      ]);
      await writeFile(file, "subject: go\nentries: []\n");
      expect(await shapeProblems(file, "go@source")).toEqual([
        `${relative(root, file)}: subject go, expected go@source`,
        `${relative(root, file)}: says neither measured (date, command) nor notMeasured (why)`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
