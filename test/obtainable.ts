// Which ports this machine obtains, for the tests that install or build one: the decision npm test
// made once (TNC_OBTAINABLE names it; test/global-setup.ts makes it when vitest runs alone). Such a
// test skips only where its port is not obtainable here, with vitest's note saying why, and
// test/not-obtainable-reporter.ts counts those skips at the end of the run.
import { obtainabilityEnvironmentVariable, readObtainability, verdictFor } from "../conformance/subjects/obtainability.ts";

/** How every such note starts: the reporter counts skips by it. */
export const notObtainableNote = "not obtainable here";

/** Whether SUBJECT (NAME, NAME@source) can be had here; when not, the note a skipped test carries. */
export function obtainableHere(subject: string): { here: boolean; note: string } {
  const file = process.env[obtainabilityEnvironmentVariable];
  if (!file) throw new Error(`${obtainabilityEnvironmentVariable} is not set: test/global-setup.ts decides what this machine obtains`);
  const verdict = verdictFor(readObtainability(file), subject);
  // Undecided (a client hung) is not excused: the test runs, and fails with the client's words.
  return verdict.here === "no" ? { here: false, note: `${notObtainableNote}: ${subject}: ${verdict.why}` } : { here: true, note: "" };
}
