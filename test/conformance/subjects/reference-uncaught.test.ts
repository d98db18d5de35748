// The in-process reference fails as the ts runner would when the reference throws outside an
// operation's promise (that would end the runner's process): the next request is a broken subject.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReferenceSubject } from "../../../conformance/subjects/reference/index.ts";
import { SubjectBrokenError } from "../../../conformance/subjects/subject.ts";
import { watchUncaught } from "../../../conformance/subjects/reference/uncaught.ts";

// vitest's own listeners would report a planted error as the test file's; they are set aside meanwhile.
// (Through the plain EventEmitter type: process's overloads do not take these events by a variable.)
const emitter: NodeJS.EventEmitter = process;
const events = ["uncaughtException", "unhandledRejection"];
let setAside: Map<string, ((...args: unknown[]) => void)[]>;
beforeEach(() => {
  setAside = new Map(events.map((event) => [event, emitter.listeners(event) as ((...args: unknown[]) => void)[]]));
  for (const event of events) emitter.removeAllListeners(event);
});
afterEach(() => {
  for (const event of events) {
    emitter.removeAllListeners(event);
    for (const listener of setAside.get(event) ?? []) emitter.on(event, listener);
  }
});

const echo = { timeoutMs: 5000 };

describe("the in-process reference and uncaught errors", () => {
  it("fails the next request with the error when one was thrown outside an operation", async () => {
    const subject = createReferenceSubject();
    expect(await subject.execute("runner.echo", { value: 1 }, echo)).toMatchObject({ ok: true });
    emitter.emit("uncaughtException", new Error("planted: thrown in a node:http callback"), "uncaughtException");
    const failing = subject.execute("runner.echo", { value: 2 }, echo);
    await expect(failing).rejects.toThrow(SubjectBrokenError);
    await expect(failing).rejects.toThrow(/uncaught, by runner\.echo.*planted: thrown in a node:http callback/s);
    expect(await subject.execute("runner.echo", { value: 3 }, echo)).toMatchObject({ ok: true }); // taken once
    await subject.close();
  });

  it("counts an unhandled rejection alike, and stops listening when the last subject closes", async () => {
    const first = createReferenceSubject();
    const second = createReferenceSubject();
    expect(process.listenerCount("unhandledRejection")).toBe(1);
    emitter.emit("unhandledRejection", new Error("planted rejection"), Promise.resolve());
    await expect(first.execute("runner.echo", { value: 1 }, echo)).rejects.toThrow(/planted rejection/);
    await expect(second.execute("runner.echo", { value: 1 }, echo)).rejects.toThrow(/planted rejection/);
    await first.close();
    expect(process.listenerCount("uncaughtException")).toBe(1);
    await second.close();
    expect(process.listenerCount("uncaughtException")).toBe(0);
    expect(process.listenerCount("unhandledRejection")).toBe(0);
  });

  it("gives an error thrown by what one subject's operation started to that subject alone (lanes side by side)", async () => {
    const first = watchUncaught();
    const second = watchUncaught();
    await first.within(
      async () =>
        void setTimeout(() => {
          throw new Error("planted: thrown by a timer the first lane's operation set");
        }, 0),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(first.take()).toMatchObject({ message: "planted: thrown by a timer the first lane's operation set" });
    expect(second.take()).toBeUndefined();
    first.stop();
    second.stop();
  });
});
