import { describe, expect, it } from "vitest";
import { OrderedLog } from "../../../conformance/common/ordered-log.ts";

describe("OrderedLog", () => {
  it("writes the front producer's lines at once and a later one's after every earlier one finished", () => {
    const written: string[] = [];
    const log = new OrderedLog((line) => written.push(line));
    log.line(2, "c1");
    log.line(0, "a1");
    log.line(1, "b1");
    expect(written).toEqual(["a1"]);
    log.finish(2); // finished out of turn: held until 0 and 1 are done
    log.line(1, "b2");
    expect(written).toEqual(["a1"]);
    log.finish(0);
    expect(written).toEqual(["a1", "b1", "b2"]);
    log.line(1, "b3"); // 1 is in front now: straight out
    expect(written).toEqual(["a1", "b1", "b2", "b3"]);
    log.finish(1);
    expect(written).toEqual(["a1", "b1", "b2", "b3", "c1"]);
    log.line(3, "d1"); // every earlier one finished: straight out
    expect(written).toEqual(["a1", "b1", "b2", "b3", "c1", "d1"]);
  });
});
