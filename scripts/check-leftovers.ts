// Run after the tests (npm's posttest): fails when a process started from this repository's fixtures,
// runners or external/ (the MCP conformance suite and its client) is still alive, so a leak in cleanup
// cannot hide behind a green test run.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const watched = [`${root}fixtures/`, `${root}runners/`, `${root}external/`];

function commandLine(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Runners start with relative paths from their own folder, so the working directory tells too. */
function workingDirectory(pid: string): string {
  try {
    return `${readlinkSync(`/proc/${pid}/cwd`)}/`;
  } catch {
    return "";
  }
}

export function leftoverProcesses(): { pid: number; command: string }[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .map((pid) => ({ pid: Number(pid), command: commandLine(pid) ?? "", cwd: workingDirectory(pid) }))
    .filter(({ command, cwd }) => watched.some((prefix) => command.includes(prefix) || cwd.startsWith(prefix)))
    .map(({ pid, command }) => ({ pid, command }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const leftovers = leftoverProcesses();
  if (leftovers.length) {
    console.error(
      `processes started by the suite are still running:\n${leftovers.map(({ pid, command }) => `  ${pid} ${command}`).join("\n")}`,
    );
    process.exitCode = 1;
  } else {
    console.log("no fixture or runner process left running");
  }
}
