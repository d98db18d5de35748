// One line that says exactly what a subject ran, for the console and the matrices: the published
// package, or the source folder and its content hash, so a matrix never mixes them up.
import { basename } from "node:path";
import type { Build } from "../schema/report.types.ts";

export function describeOrigin(build: Build | undefined): string {
  switch (build?.mode) {
    case "source": {
      const hash = build.contentHash ? ` ${build.contentHash.slice(0, "sha256:".length + 12)}` : "";
      return `source ${build.path ? `${basename(build.path)}/` : "(no checkout)"}${hash}${build.commit ? ` @ ${build.commit.slice(0, 12)}` : ""}`;
    }
    case "published":
      return `published ${build.package ?? ""}`.trim();
    case "in-process":
      return "in-process";
    case "command":
      return "runner command";
    default:
      return "";
  }
}
