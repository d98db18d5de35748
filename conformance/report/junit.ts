// JUnit XML, one test suite per subject, one test case per scenario. Like pytest's xfail, a failure a
// baseline expects is written as skipped (with its reason), so CI renderers stay green exactly when
// the exit status is 0.
import { describeOrigin } from "./origin.ts";
import junitModule, { type Builder } from "junit-report-builder";
import type { Report } from "../schema/report.types.ts";
import { formatFailure, formatNotRun } from "./console.ts";
import { describeRepeat } from "./repeat.ts";

// The package is CommonJS with an ES-style default in its typings; under NodeNext the default export
// arrives wrapped once at type level only.
const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as Builder;

/** `title`: the suite's, which each test suite's name begins with (`toolnexus conformance: py ...`). */
export function renderJunit(report: Report, title: string): string {
  const builder = junit.newBuilder();
  for (const subject of report.subjects) {
    const suite = builder
      .testSuite()
      .name(`${title} conformance: ${subject.name} (${subject.package} ${subject.version}; ${describeOrigin(subject.build)})`);
    suite.property("language", subject.language).property("available", String(subject.available));
    if (!subject.available) {
      suite
        .testCase()
        .className(subject.name)
        .name("(subject unavailable)")
        .error(subject.unavailableReason ?? "unavailable", "unavailable");
    }
    for (const result of report.results.filter((entry) => entry.subject === subject.name)) {
      const testCase = suite
        .testCase()
        .className(`${subject.name}.${result.baseId}`)
        .name(result.scenario)
        .time(result.durationMs / 1000)
        .file(result.file);
      const details = [...(result.failures ?? []).flatMap(formatFailure), ...formatNotRun(result.notRun ?? [])].join("\n");
      if (result.outcome === "flaky") {
        testCase.failure(`flaky: ${describeRepeat(result.repeat!)}`, "flaky").stacktrace(details);
      } else if (result.staleChecks?.length) {
        testCase
          .failure(
            `listed in the baseline as failing on checks that now hold: ${result.staleChecks.join("; ")}: remove them from the entry`,
            "stale-checks",
          )
          .stacktrace(details);
      } else if (result.outcome === "unexpected-pass") {
        testCase.failure(
          `listed in the baseline as expected to ${result.expected?.status} (${result.expected?.reason}) but passed: remove the entry`,
          "unexpected-pass",
        );
      } else if (result.status === "skip") {
        testCase.skipped().standardOutput(result.message);
      } else if (result.outcome === "as-expected" && result.expected) {
        testCase
          .skipped()
          .standardOutput(
            `expected failure (${result.expected.classification}, ${result.expected.clause}): ${result.expected.reason}\n${details}`,
          );
      } else if (result.unlistedChecks?.length) {
        testCase
          .failure(`fails on checks its baseline entry does not list: ${result.unlistedChecks.join("; ")}`, "unlisted-checks")
          .stacktrace(details);
      } else if (result.status === "fail") {
        testCase.failure(result.message, "fail").stacktrace(details);
      } else if (result.status === "error") {
        testCase.error(result.message, "error", details);
      }
      if (result.stderr) testCase.standardError(result.stderr);
    }
  }
  return builder.build();
}
