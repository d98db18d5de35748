// The temporary folders a run creates (one per scenario, for its fixtures' files). Each is removed by
// its owner when done; the ones still there when the process is interrupted or exits are removed by
// removeLiveTempDirs (the CLI hands it to conformance/common/interrupt.ts), so no run leaves /tmp/tnc-* behind.
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const live = new Set<string>();

/** A fresh folder under the system's temporary folder, named PREFIX + random characters. */
export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  live.add(dir);
  return dir;
}

export async function removeTempDir(dir: string): Promise<void> {
  // Retried: on a loaded machine a stdio child the subject spawned can start, and write its state file
  // into the folder, only after its scenario ended (before it recorded a pid the fixture could kill);
  // a removal racing that write fails with ENOTEMPTY, which once ended a whole run (seen at --jobs 8,
  // load average 30). The child's own next write then fails (ENOENT) and it exits.
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  live.delete(dir);
}

/** Synchronous, for a signal or exit handler: removes every folder made here and not yet removed. */
export function removeLiveTempDirs(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true });
    } catch {
      // best effort while the process ends (a folder already gone lands here too, so no `force`)
    }
  }
  live.clear();
}
