// The vitest configuration `npm run mutate:gate` (stryker.gate.config.mjs) uses: the harness's own tests
// (test/conformance/), which are what would notice a gate that passes a failure. Not the suite against
// the reference (test/suite/): the reference passes every scenario, so a gate that can no longer fail
// passes it too. (Not merged with vitest.config.ts: mergeConfig would add to its `include`.)
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // TNC_GATE_TESTS (space-separated globs) narrows them for a sitting over one module: its own
    // folder's tests, which run in process and so see the mutant (a test that spawns the CLI runs
    // unmutated code in its child and can kill nothing, only wait).
    include: (process.env.TNC_GATE_TESTS ?? "test/conformance/**/*.test.ts").split(" ").filter(Boolean),
    // As vitest.mutate.config.ts: once more on failure, so a busy machine neither stops the initial
    // run nor kills a mutant; workers kept between Stryker's runs.
    retry: 1,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
    globalSetup: ["test/global-setup.ts"],
    // rejects.toThrow(text) fails on a rejection with undefined or null, which vitest lets pass.
    setupFiles: ["test/strict-rejects.ts"],
  },
});
