import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Generous: a failing scenario reports through the harness's own bounded timeouts first.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
    pool: "forks",
    // A temporary folder per run, checked for leftovers at the end.
    globalSetup: ["test/global-setup.ts"],
  },
});
