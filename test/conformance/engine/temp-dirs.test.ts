// The temporary folders of a run (engine/temp-dirs.ts): made under the system's temporary folder with
// the prefix given, removed with their contents by removeTempDir, and, for an interrupted run, every
// one not yet removed by removeLiveTempDirs.
import { existsSync, rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, removeLiveTempDirs, removeTempDir } from "../../../conformance/engine/temp-dirs.ts";

/** A folder as a fixture leaves it: a state file in a subfolder. */
async function filled(dir: string): Promise<string> {
  await mkdir(join(dir, "srv"));
  await writeFile(join(dir, "srv", "state.json"), "{}");
  return dir;
}

describe("temporary folders", () => {
  it("makeTempDir makes a fresh folder under the temporary folder, named by the prefix", async () => {
    const [one, two] = [await makeTempDir("tnc-test-"), await makeTempDir("tnc-test-")];
    try {
      expect(dirname(one)).toBe(tmpdir());
      expect(basename(one)).toMatch(/^tnc-test-.+/);
      expect(one).not.toBe(two);
      expect(existsSync(one) && existsSync(two)).toBe(true);
    } finally {
      await removeTempDir(one);
      await removeTempDir(two);
    }
  });

  it("removeTempDir removes the folder with what is in it", async () => {
    const dir = await filled(await makeTempDir("tnc-test-"));
    await removeTempDir(dir);
    expect(existsSync(dir)).toBe(false);
  });

  it("removeTempDir of a folder already gone (removeLiveTempDirs got there first on an interrupt) is no error", async () => {
    const dir = await makeTempDir("tnc-test-");
    removeLiveTempDirs();
    await expect(removeTempDir(dir)).resolves.toBeUndefined();
  });

  it("removeLiveTempDirs removes every folder not yet removed, with what is in it, and forgets them", async () => {
    const removed = await makeTempDir("tnc-test-");
    await removeTempDir(removed);
    // Removed behind the list's back (first in it): its failure does not stop the others' removal.
    const gone = await makeTempDir("tnc-test-");
    rmSync(gone, { recursive: true });
    const left = [await filled(await makeTempDir("tnc-test-")), await filled(await makeTempDir("tnc-test-"))];
    removeLiveTempDirs();
    expect(left.filter((dir) => existsSync(dir))).toEqual([]);
    // Nothing is left to remove: a folder of the same name made since is no longer the run's.
    await mkdir(left[0]);
    removeLiveTempDirs();
    expect(existsSync(left[0])).toBe(true);
    await removeTempDir(left[0]);
  });
});
