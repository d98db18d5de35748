// Precise baselines end to end, as a port's CI meets them: an entry names the checks a scenario fails
// on, so a new failure inside a baselined scenario fails the gate (exit 1), and so does a listed check
// that now holds; `baseline --update` rewrites the checks in place and lists what no entry covers; an
// entry naming no scenario of the suite fails the merged gate of a sharded run.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const runnerCmd = `exec ${process.execPath} ${join(root, "test/conformance/fake-runner.mjs")}`;
let dir: string;

const cli = (...args: string[]) => runCli(args, 90_000);

// The fake runner echoes {value: 1}: both assertions fail, on two different checks.
const twoFailures = `id: two
title: t
spec: [core.tool-result]
steps:
  - op: runner.echo
    with: {value: 1}
    expect:
      - {at: /value/value, equals: 2}
      - {at: /value/missing, present: true}
`;

const baselineFile = (checks: string[], extra = "") => `# the comment a person wrote
subject: custom
entries:
  - scenario: two
    status: fail
${checks.length ? `    checks:\n${checks.map((check) => `      - ${check}\n`).join("")}` : ""}    clause: core.tool-result
    classification: port-bug
    reason: the port echoes the wrong value${extra}
`;

const valueCheck = "step 1 (runner.echo) /value/value";
const missingCheck = "step 1 (runner.echo) /value/missing";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-baseline-gate-"));
  await writeFile(join(dir, "two.yaml"), twoFailures);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function gate(checks: string[], extra = "") {
  const file = join(dir, `baseline-${checks.length}-${extra.length}.yaml`);
  await writeFile(file, baselineFile(checks, extra));
  return cli("run", join(dir, "two.yaml"), "--runner-cmd", runnerCmd, "--baseline", file);
}

describe("precise baselines", () => {
  it("an entry listing every failing check passes the gate (exit 0), as XFAIL", async () => {
    const { code, stdout } = await gate([valueCheck, missingCheck]);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/XFAIL custom\s+two/);
  });

  it("an entry matching only part of the scenario's failures fails the gate (exit 1), naming the check it does not list", async () => {
    const { code, stdout } = await gate([valueCheck]);
    expect(code, stdout).toBe(1);
    expect(stdout).toContain(`FAIL  custom    two`);
    expect(stdout).toContain(`failed on checks its baseline entry does not list: "${missingCheck}"`);
    expect(stdout).toContain(`check: ${missingCheck}`);
    expect(stdout.trim().split("\n").at(-1)).toBe("conformance: 0 passed, 1 failed, 0 errors, 0 skipped");
  });

  it("a listed check that now holds is stale (exit 1); not in a strict: false entry (exit 0)", async () => {
    const stale = "step 1 (runner.echo) /value/other";
    const strict = await gate([valueCheck, missingCheck, stale]);
    expect(strict.code, strict.stdout).toBe(1);
    expect(strict.stdout).toMatch(/STALE custom\s+two/);
    expect(strict.stdout).toContain(`listed checks now hold: "${stale}": remove them from the baseline entry`);
    // A strict: false entry quotes the measurement that backs it (baseline loading refuses one that does not).
    const loose = await gate(
      [valueCheck, missingCheck, stale],
      " (flaky 1/2 by `conformance run --repeat 2 --filter two`)\n    strict: false",
    );
    expect(loose.code, loose.stdout).toBe(0);
  });

  it("baseline --update writes each entry's checks from a run, keeping comments and reasons, and lists failures no entry lists", async () => {
    // The reference (through the ts runner) answers "Unknown tool: nope": this scenario fails on one check.
    await writeFile(
      join(dir, "unknown.yaml"),
      "id: unknown\ntitle: t\nspec: [core.unknown-tool]\nsteps:\n  - op: toolkit.create\n    with: {handle: tk}\n" +
        "  - op: toolkit.execute\n    with: {toolkit: tk, name: nope}\n    expect:\n      - {at: /value/output, equals: other}\n      - {at: /value/isError, equals: true}\n",
    );
    await writeFile(
      join(dir, "other.yaml"),
      "id: other\ntitle: t\nspec: [core.tool-result]\nsteps:\n  - op: toolkit.create\n    with: {handle: tk}\n    expect:\n      - {at: /value/tools, equals: [x]}\n",
    );
    const file = join(dir, "update.yaml");
    await writeFile(
      file,
      "# measured against the reference\nsubject: ts\nentries:\n  - scenario: unknown   # why it fails\n    status: fail\n" +
        "    clause: core.unknown-tool\n    classification: port-bug\n    reason: 'the output differs, as this test wants'\n",
    );
    const { code, stdout } = await cli("baseline", join(dir, "unknown.yaml"), join(dir, "other.yaml"), "--update", file, "--runner", "ts");
    expect(code, stdout).toBe(1);
    expect(stdout).toContain('checks written: unknown: (none) -> ["step 2 (toolkit.execute) /value/output"]');
    expect(stdout).toContain('to decide: other: fails and no entry lists it (checks: ["step 1 (toolkit.create) /value/tools"])');
    expect(await readFile(file, "utf8")).toBe(
      "# measured against the reference\nsubject: ts\nentries:\n  - scenario: unknown # why it fails\n    status: fail\n    checks:\n" +
        "      - step 2 (toolkit.execute) /value/output\n    clause: core.unknown-tool\n    classification: port-bug\n    reason: 'the output differs, as this test wants'\n",
    );
    // Now it matches: a second update changes nothing, and the run passes the gate for that scenario.
    const again = await cli("run", join(dir, "unknown.yaml"), "--runner", "ts", "--baseline", file);
    expect(again.code, again.stdout).toBe(0);
  });
});

describe("a sharded run's merged gate", () => {
  it("fails on a baseline entry naming no scenario of the suite, which no shard alone can tell (exit 1, said once); without it, passes", async () => {
    // Two one-scenario shards of the whole suite through the ts runner (every scenario passes there),
    // judged by a baseline whose only entry names a scenario that was renamed away.
    const file = join(dir, "orphan.yaml");
    await writeFile(
      file,
      "subject: ts\nentries:\n  - scenario: core/renamed-away\n    status: fail\n    checks: [step 1 (toolkit.create) error]\n" +
        "    clause: core.unknown-tool\n    classification: port-bug\n    reason: the scenario this named is gone\n",
    );
    const shards = ["1/400", "2/400"].map((shard, index) => ({ shard, json: join(dir, `orphan-shard-${index + 1}.json`) }));
    for (const { shard, json } of shards) {
      const { code, stdout } = await cli("run", "--runner", "ts", "--baseline", file, "--shard", shard, "--json", json);
      // The shard's own half is clean: it notes the entry and leaves the verdict to merge.
      expect(code, stdout).toBe(0);
      expect(stdout).toContain(
        'note: ts baseline lists "core/renamed-away", which is not a scenario (renamed or removed?): update the baseline (merging the shards fails on it)',
      );
      expect(JSON.parse(await readFile(json, "utf8")).subjects[0].orphanedEntries).toEqual(["core/renamed-away"]);
    }
    const merged = join(dir, "orphan-merged.json");
    const stale = await cli("merge", ...shards.map(({ json }) => json), "--json", merged);
    expect(stale.code, stale.stdout + stale.stderr).toBe(1);
    expect(stale.stderr.match(/which is not a scenario/g)).toHaveLength(1);
    expect(stale.stderr).toContain(
      'ts baseline lists "core/renamed-away", which is not a scenario (renamed or removed?): update the baseline',
    );
    expect(stale.stdout).toContain("1 problem with subjects or baselines (see above)");
    expect(JSON.parse(await readFile(merged, "utf8")).subjects[0].orphanedEntries).toEqual(["core/renamed-away"]);
    // The same shards with the entry gone from the baseline: nothing unexpected.
    for (const { json } of shards) {
      const report = JSON.parse(await readFile(json, "utf8"));
      delete report.subjects[0].orphanedEntries;
      await writeFile(json, JSON.stringify(report));
    }
    const clean = await cli("merge", ...shards.map(({ json }) => json), "--json", merged);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain("nothing unexpected");
  });
});
