// Mutation testing of the reference (npm run mutate; README "Mutation testing"). Each mutant of
// reference/**/*.ts is judged by the per-scenario suite, in-process (vitest.mutate.config.ts), and
// only by the scenarios that execute it (perTest coverage), so a run fits a 2-core machine.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: false },
  mutate: ["reference/**/*.ts"],
  coverageAnalysis: "perTest",
  concurrency: 2,
  // Scenarios wait on fixtures (timeouts, hung servers); a mutant that makes one hang is killed by
  // this bound (a covering test's normal time x 1.5 + 20 s) and counted as Timeout, never waited on.
  timeoutFactor: 1.5,
  timeoutMS: 20_000,
  dryRunTimeoutMinutes: 15,
  incremental: true,
  // Everything Stryker writes stays under out/ (gitignored).
  incrementalFile: "out/mutation/stryker-incremental.json",
  tempDirName: "out/mutation/tmp",
  reporters: ["html", "json", "progress"],
  htmlReporter: { fileName: "out/mutation/index.html" },
  jsonReporter: { fileName: "out/mutation/mutation.json" },
  // Not needed by the in-process suite, and some are symlinks to large build caches.
  ignorePatterns: ["out", "bench/results", "runners/*/.build", "runners/*/.venv", "runners/*/target", ".ci"],
};
