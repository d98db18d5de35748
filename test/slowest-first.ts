// vitest's file order: the files that take longest first, so the two forks end together rather than
// one of them running a two-minute file alone at the end. vitest orders by the durations of its last
// run, but a fresh clone (CI) has none and falls back to file size, which puts the longest files
// (cargo and pip builds, the whole suite twice) last. The list is measured (vitest's JSON reporter,
// `npx vitest run --reporter=json --outputFile=FILE`); a file it does not name keeps vitest's order,
// after these; a slow file left off costs time, never a result, and a file named that is gone fails
// the run.
import { existsSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const slowestFiles = [
  "test/runners/rust.test.ts",
  "test/suite/reference.test.ts",
  "test/scripts/port-ci.test.ts",
  "test/conformance/cli/cli.test.ts",
  "test/conformance/cli/baseline-gate.test.ts",
  "test/conformance/report/history.test.ts",
  "test/conformance/capture/proxy.test.ts",
];

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const gone = slowestFiles.filter((file) => !existsSync(new URL(`../${file}`, import.meta.url)));
    if (gone.length) throw new Error(`test/slowest-first.ts names test files that do not exist: ${gone.join(", ")}`);
    const rank = (file: TestSpecification) => {
      const index = slowestFiles.findIndex((slow) => file.moduleId.endsWith(`/${slow}`));
      return index === -1 ? slowestFiles.length : index;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}
