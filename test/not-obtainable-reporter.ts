// Vitest's closing summary of the tests skipped because this machine cannot obtain their port (their
// skip note starts "not obtainable here", test/obtainable.ts): how many, and why, so a green run
// says what it did not test. Printed after the default reporter's own summary.
import type { Reporter, TestCase, TestModule } from "vitest/node";
import { notObtainableNote } from "./obtainable.ts";

export default class NotObtainableReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped = testModules.flatMap((module) => [...module.children.allTests()]).filter(isNotObtainableSkip);
    if (!skipped.length) {
      console.log(`\n${notObtainableNote}: no test of this run skipped for want of a port`);
      return;
    }
    const byNote = new Map<string, number>();
    for (const test of skipped) byNote.set(noteOf(test), (byNote.get(noteOf(test)) ?? 0) + 1);
    console.log(`\n${skipped.length} tests skipped, their port ${notObtainableNote}:`);
    for (const [note, count] of byNote) console.log(`  ${count} × ${note}`);
  }
}

function noteOf(test: TestCase): string {
  const result = test.result();
  return result.state === "skipped" ? (result.note ?? "") : "";
}

const isNotObtainableSkip = (test: TestCase) => noteOf(test).startsWith(notObtainableNote);
