// Badges: the endpoint JSON validates against shields.io's endpoint schema, written down here from its
// documentation (shields.io/badges/endpoint-badge, "Schema"; services/endpoint-common.js in
// badges/shields validates the same keys and rejects unknown ones), and the SVG is made here.
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { colorForShare, subjectBadge, writeBadges } from "../../../conformance/report/badges.ts";
import { judge } from "../../../conformance/report/baseline.ts";
import { compileSchema } from "../../../runners/protocol/json-schema.ts";
import type { Report, Result } from "../../../conformance/schema/report.types.ts";

/** shields.io's endpoint badge response, as its documentation's "Schema" table describes it. */
const shieldsEndpointSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  additionalProperties: false,
  required: ["schemaVersion", "label", "message"],
  properties: {
    schemaVersion: { const: 1 }, // "Required. Always the number 1."
    label: { type: "string" }, // "Required. The left text, or the empty string to omit the left side"
    message: { type: "string", minLength: 1 }, // "Required. Can't be empty. The right text."
    color: { type: "string" }, // default lightgrey; named, hex, rgb, rgba, hsl, hsla, css named colours
    labelColor: { type: "string" }, // default grey
    isError: { type: "boolean" }, // default false
    namedLogo: { type: "string" },
    logoSvg: { type: "string" },
    logoColor: { type: "string" },
    logoWidth: { type: "number" },
    style: { enum: ["flat", "flat-square", "plastic", "for-the-badge", "social"] }, // default flat
    cacheSeconds: { type: "integer", minimum: 0 }, // default 300, shields' minimum
  },
  not: { required: ["namedLogo", "logoSvg"] }, // one logo, not both
};
const validateEndpoint = compileSchema<unknown>(shieldsEndpointSchema);

const subject = (name: string, available = true) => ({
  name,
  language: "l",
  package: "p",
  version: "1",
  capabilities: [],
  available,
  ...(available ? {} : { unavailableReason: "no toolchain" }),
});
const result = (scenario: string, name: string, status: Result["status"], baselined = false): Result => {
  const base: Result = {
    scenario,
    baseId: scenario,
    subject: name,
    status,
    durationMs: 1,
    message: "",
    spec: [],
    tags: [],
    file: "f.yaml",
    ...(status === "fail" ? { failures: [{ step: 0, check: "step 1 (x) /v", message: "m" }] } : {}),
  };
  const baseline = baselined
    ? new Map([[scenario, { scenario, status: "fail", clause: "c", classification: "port-bug", reason: "r", checks: ["step 1 (x) /v"] }]])
    : new Map();
  return judge(base, baseline as never);
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tnc-badges-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("badges", () => {
  const report: Report = {
    version: 1,
    startedAt: "2026-12-01T00:00:00.000Z",
    finishedAt: "2026-12-01T00:00:01.000Z",
    subjects: [subject("reference"), subject("python@source"), subject("go", false)],
    results: [
      result("a", "reference", "pass"),
      result("b", "reference", "pass"),
      result("a", "python@source", "pass"),
      result("b", "python@source", "fail", true),
      result("c", "python@source", "fail"),
      result("d", "python@source", "skip"),
    ],
  };

  it("says N/M scenarios, the baselined and skipped apart, coloured by the share passed", () => {
    expect(subjectBadge(report.subjects[0], report.results.slice(0, 2))).toEqual({
      schemaVersion: 1,
      label: "conformance",
      message: "2/2 scenarios",
      color: "brightgreen",
    });
    expect(subjectBadge(report.subjects[1], report.results.slice(2))).toEqual({
      schemaVersion: 1,
      label: "conformance",
      message: "1/3 scenarios, 1 baselined, 1 skipped",
      color: "orange",
    });
    expect(subjectBadge(report.subjects[2], [])).toMatchObject({ message: "unavailable", isError: true });
    expect([1, 0.95, 0.8, 0.6, 0.3, 0.1].map(colorForShare)).toEqual(["brightgreen", "green", "yellowgreen", "yellow", "orange", "red"]);
  });

  it("writes one endpoint JSON valid against shields.io's schema and one SVG per subject", async () => {
    const written = await writeBadges(report, dir);
    expect((await readdir(dir)).sort()).toEqual([
      "go.json",
      "go.svg",
      "python@source.json",
      "python@source.svg",
      "reference.json",
      "reference.svg",
    ]);
    for (const file of written.filter((name) => name.endsWith(".json"))) {
      const badge = JSON.parse(await readFile(file, "utf8"));
      expect(validateEndpoint(badge), `${file}: ${JSON.stringify(validateEndpoint.errors)}`).toBe(true);
    }
    const svg = await readFile(join(dir, "python@source.svg"), "utf8");
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain("<title>conformance: 1/3 scenarios, 1 baselined, 1 skipped</title>");
    // Nothing fetched when shown: no outside reference but the SVG namespace.
    expect((svg.match(/https?:\/\/[^"\s]+/g) ?? []).filter((url) => !url.startsWith("http://www.w3.org/"))).toEqual([]);
  });

  it("the schema check catches a badge shields.io would refuse", () => {
    expect(validateEndpoint({ schemaVersion: 1, label: "conformance", message: "" })).toBe(false);
    expect(validateEndpoint({ schemaVersion: 2, label: "conformance", message: "1/1 scenarios" })).toBe(false);
    expect(validateEndpoint({ schemaVersion: 1, label: "conformance", message: "1/1", colour: "red" })).toBe(false);
  });
});
