import { describe, expect, it } from "vitest";

describe("strict rejects (test/strict-rejects.ts)", () => {
  it.each([undefined, null])("a rejection with %s fails rejects.toThrow with a text, a pattern or nothing", async (value) => {
    for (const expectation of [
      () => expect(Promise.reject(value)).rejects.toThrow("some text"),
      () => expect(Promise.reject(value)).rejects.toThrow(/some text/),
      () => expect(Promise.reject(value)).rejects.toThrowError("some text"),
      () => expect(Promise.reject(value)).rejects.toThrow(),
    ])
      await expect(expectation()).rejects.toMatchObject({
        message: `expected the promise to reject with an error, but it rejected with ${value}`,
      });
  });

  it("an error still passes and fails as before", async () => {
    await expect(Promise.reject(new Error("some text here"))).rejects.toThrow("some text");
    await expect(Promise.reject(new Error("some text here"))).rejects.toThrow(/text here$/);
    await expect(expect(Promise.reject(new Error("other"))).rejects.toThrow("some text")).rejects.toMatchObject({
      message: expect.stringContaining("some text"),
    });
    await expect(Promise.resolve(1)).resolves.not.toThrow();
    await expect(Promise.reject(undefined)).rejects.not.toThrow("some text");
  });
});
