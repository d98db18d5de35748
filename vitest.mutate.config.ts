// The vitest configuration `npm run mutate` (stryker.config.mjs) uses: only the per-scenario suite,
// in-process, so every mutant of reference/ is judged by the scenarios (what the ports are held to),
// not by the reference's own unit tests. (Not merged with vitest.config.ts: mergeConfig would add to
// its `include` instead of replacing it.)
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/suite/reference.test.ts"],
    env: { TNC_SUITE_IN_PROCESS_ONLY: "1" },
    // Once more on failure: a timing-sensitive scenario that fails only because the shared machine is
    // busy must neither stop the initial run nor count as killing a mutant; a mutant's failure repeats.
    retry: 1,
    // Workers and their module cache kept between Stryker's runs: each mutant otherwise paid seconds of
    // imports (MCP SDK, msw); measured about 3x faster here. Static mutants (module-level code, e.g.
    // transport.ts's RETRYABLE_STATUSES) were still activated and killed with this setting.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
    globalSetup: ["test/global-setup.ts"],
  },
});
