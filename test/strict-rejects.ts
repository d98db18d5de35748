// A setup file (vitest.config.ts setupFiles): `rejects.toThrow("text")` and `rejects.toThrow(/re/)`
// pass when the promise rejects with undefined or null (vitest 3.2.7 hands chai's `throws` a function
// that throws the rejection, and chai checks the message only of something it caught), so a test
// expecting an error message could not fail on code that rejects with nothing. Here such a rejection
// fails every positive `toThrow` / `toThrowError` on `.rejects`.
import { chai } from "vitest";

chai.use((api, utils) => {
  for (const name of ["throw", "throws", "Throw"]) {
    utils.overwriteMethod(
      api.Assertion.prototype,
      name,
      (original: (...args: unknown[]) => unknown) =>
        function (this: object, ...args: unknown[]) {
          const rejection: unknown = utils.flag(this, "object");
          if (utils.flag(this, "promise") === "rejects" && !utils.flag(this, "negate") && rejection == null)
            throw new api.AssertionError(`expected the promise to reject with an error, but it rejected with ${String(rejection)}`);
          return original.apply(this, args);
        },
    );
  }
});
