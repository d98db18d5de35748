// The vitest configuration `npm run mutate:gate` (stryker.gate.config.mjs) uses: the harness's own tests
// (test/conformance/), which are what would notice a gate that passes a failure. Not the suite against
// the reference (test/suite/): the reference passes every scenario, so a gate that can no longer fail
// passes it too. (Not merged with vitest.config.ts: mergeConfig would add to its `include`.)
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/conformance/**/*.test.ts"],
    // As vitest.mutate.config.ts: once more on failure, so a busy machine neither stops the initial
    // run nor kills a mutant; workers kept between Stryker's runs.
    retry: 1,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
    globalSetup: ["test/global-setup.ts"],
  },
});
