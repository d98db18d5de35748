import { defineConfig } from "vitest/config";
import { SlowestFirst } from "./test/slowest-first.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generous: a failing scenario reports through the harness's own bounded timeouts first.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
    pool: "forks",
    // The files' own times in every run the tests make (a test of --time-scale gives it): auto would
    // choose by how busy the machine is, and outputs compared byte for byte would follow.
    env: { TNC_TIME_SCALE: "1" },
    // Two test files at once, also on 2 cores (vitest's default there is one, cores - 1): most files
    // wait on child processes, sockets and timers, not the CPU, and the longest (the suite through
    // the ts runner, the packed port CI) would otherwise run end to end one after another.
    // Not isolated: a fork imports the harness, the MCP SDK and ajv's compiled schemas once for all
    // the files it runs, not once per file (vitest's collect phase: 60 s summed over the files
    // isolated, 13 s not; the whole run 241 s -> 182 s, 2026-12-05). So a test file leaves the process
    // as it found it: environment variables, timers, spies and process.exitCode put back (runCli does).
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    sequence: { sequencer: SlowestFirst },
    // vitest's own lines, then how many tests skipped for want of a port, and why; each file's time in
    // out/vitest-report.json, which the quick bench reads (its vitest rows, per file group).
    reporters: ["default", "./test/not-obtainable-reporter.ts", ["json", { outputFile: "out/vitest-report.json" }]],
    // A temporary folder per run, checked for leftovers at the end; what this machine obtains.
    globalSetup: ["test/global-setup.ts"],
    // rejects.toThrow(text) fails on a rejection with undefined or null, which vitest lets pass.
    setupFiles: ["test/strict-rejects.ts"],
  },
});
