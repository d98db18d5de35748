// Badges per subject (run/merge --badges DIR): a shields.io endpoint JSON (schemaVersion 1, label,
// message, color: what shields.io's endpoint badge reads) and the same badge as SVG, rendered here by
// badge-maker (shields.io's own renderer, no request made), for where shields.io cannot reach the JSON.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeBadge } from "badge-maker";
import type { Report, ReportSubject, Result } from "../schema/report.types.ts";
import { isBaselinedFailure } from "./console.ts";

export interface EndpointBadge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: string;
  isError?: boolean;
}

export const badgeLabel = "conformance";

/** shields.io's named colours by the share that passed: all green, falling through yellow to red. */
export function colorForShare(share: number): string {
  if (share >= 1) return "brightgreen";
  if (share >= 0.9) return "green";
  if (share >= 0.75) return "yellowgreen";
  if (share >= 0.5) return "yellow";
  if (share >= 0.25) return "orange";
  return "red";
}

/** "N/M scenarios": passed of those that ran (a skip did not run); the baselined failures and the skips said apart. */
export function subjectBadge(subject: ReportSubject, results: Result[]): EndpointBadge {
  if (!subject.available) return { schemaVersion: 1, label: badgeLabel, message: "unavailable", color: "lightgrey", isError: true };
  const ran = results.filter((result) => result.status !== "skip");
  const passed = ran.filter((result) => result.status === "pass").length;
  const baselined = ran.filter(isBaselinedFailure).length;
  const skipped = results.length - ran.length;
  const parts = [
    `${passed}/${ran.length} scenarios`,
    baselined ? `${baselined} baselined` : "",
    skipped ? `${skipped} skipped` : "",
  ].filter(Boolean);
  return { schemaVersion: 1, label: badgeLabel, message: parts.join(", "), color: colorForShare(ran.length ? passed / ran.length : 0) };
}

export const renderBadgeSvg = (badge: EndpointBadge) => makeBadge({ label: badge.label, message: badge.message, color: badge.color });

/** A subject name as a file name: python@source -> python@source (letters, digits, . _ - @ kept). */
export const badgeFileName = (subject: string) => subject.replace(/[^A-Za-z0-9._@-]/g, "_");

/** Writes NAME.json and NAME.svg per subject into dir; returns the files written. */
export async function writeBadges(report: Report, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const subject of report.subjects) {
    const badge = subjectBadge(
      subject,
      report.results.filter((result) => result.subject === subject.name),
    );
    const base = join(dir, badgeFileName(subject.name));
    await writeFile(`${base}.json`, `${JSON.stringify(badge, null, 2)}\n`);
    await writeFile(`${base}.svg`, renderBadgeSvg(badge));
    written.push(`${base}.json`, `${base}.svg`);
  }
  return written;
}
