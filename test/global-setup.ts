// Around the whole vitest run: the test processes get a temporary folder of their own (TMPDIR), and
// the run fails when a test left a tnc-*/tnx-* folder in it, so a test (or the harness code it drives)
// that does not remove what it created is caught here instead of filling /tmp. The folder itself goes
// at the end either way.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "vitest-tmp-"));
  // Set before the test processes start, so they (and every process they start) inherit it.
  process.env.TMPDIR = dir;
  return () => {
    const left = readdirSync(dir).filter((name) => /^tn[cx]-/.test(name));
    rmSync(dir, { recursive: true, force: true });
    if (left.length)
      throw new Error(`the tests left temporary folders behind (a test removes what it creates, also when it fails): ${left.join(", ")}`);
  };
}
