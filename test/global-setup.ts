// Around the whole vitest run: the test processes get a temporary folder of their own (TMPDIR), and
// the run fails when a test left a tnc-*/tnx-* folder in it, so a test (or the harness code it drives)
// that does not remove what it created is caught here instead of filling /tmp. The folder itself goes
// at the end either way. And what this machine obtains for each runner (test/obtainable.ts): npm
// test's decision when it made one (TNC_OBTAINABLE), else decided here once, printed, for every test
// process to read.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatObtainability } from "../conformance/report/obtainability.ts";
import { decideObtainability, obtainabilityEnvironmentVariable } from "../conformance/subjects/obtainability.ts";

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "vitest-tmp-"));
  // Set before the test processes start, so they (and every process they start) inherit it.
  process.env.TMPDIR = dir;
  if (!process.env[obtainabilityEnvironmentVariable]) {
    const decision = await decideObtainability();
    const file = join(dir, "obtainable.json");
    writeFileSync(file, `${JSON.stringify(decision, null, 2)}\n`);
    process.env[obtainabilityEnvironmentVariable] = file;
    console.error(formatObtainability(decision, "vitest: what this machine obtains").join("\n"));
  }
  return () => {
    const left = readdirSync(dir).filter((name) => /^tn[cx]-/.test(name));
    rmSync(dir, { recursive: true, force: true });
    if (left.length)
      throw new Error(`the tests left temporary folders behind (a test removes what it creates, also when it fails): ${left.join(", ")}`);
  };
}
