// Mutation testing of the reference (npm run mutate; README "Mutation testing"). Each mutant of
// reference/**/*.ts is judged by the per-scenario suite, in-process (vitest.mutate.config.ts), and
// only by the scenarios that execute it (perTest coverage), so a run fits a 2-core machine.
//
// A folder can be mutated in sittings (reference/mcp takes over two hours here): TNC_MUTATE_FILES
// (space-separated paths) narrows `mutate`, and TNC_MUTATE_RUN names the run, so its incremental
// state and reports (out/mutation/RUN.json, RUN.html, RUN-incremental.json) sit beside the others'.
// scripts/mutation-score.ts scores several reports as one.
const files = (process.env.TNC_MUTATE_FILES ?? "").split(" ").filter(Boolean);
const run = process.env.TNC_MUTATE_RUN;
const output = (name, fallback) => (run ? `out/mutation/${run}${name}` : fallback);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts", related: false },
  mutate: files.length ? files : ["reference/**/*.ts"],
  coverageAnalysis: "perTest",
  concurrency: 2,
  // Scenarios wait on fixtures (timeouts, hung servers); a mutant that makes one hang is killed by
  // this bound (a covering test's normal time x 1.5 + 20 s) and counted as Timeout, never waited on.
  timeoutFactor: 1.5,
  timeoutMS: 20_000,
  dryRunTimeoutMinutes: 15,
  incremental: true,
  // Everything Stryker writes stays under out/ (gitignored).
  incrementalFile: output("-incremental.json", "out/mutation/stryker-incremental.json"),
  tempDirName: "out/mutation/tmp",
  reporters: ["html", "json", "progress"],
  htmlReporter: { fileName: output(".html", "out/mutation/index.html") },
  jsonReporter: { fileName: output(".json", "out/mutation/mutation.json") },
  // Not needed by the in-process suite, and some are symlinks to large build caches.
  ignorePatterns: ["out", "bench/results", "runners/*/.build", "runners/*/.venv", "runners/*/target", ".ci"],
};
