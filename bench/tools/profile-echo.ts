// Where a `runner.echo` round trip through a runner spends its time. Starts the runner with
// `node --cpu-prof` (ts runner only) and this process under the caller's flags, runs N echoes, and
// prints the rate. Usage:
//   node --cpu-prof --cpu-prof-dir=/tmp/echo-prof --import tsx bench/tools/profile-echo.ts [N] [--runner-prof DIR]
// then open the .cpuprofile files (Chrome DevTools > Performance, or `npx speedscope`), or summarize
// them with: node bench/tools/summarize-profile.mjs FILE.cpuprofile
import { join } from "node:path";
import { runnersDir } from "../../conformance/common/paths.ts";
import { startRunnerSubject } from "../../conformance/subjects/runner.ts";
import { echoRate } from "../measure/echo.ts";

const count = Number(process.argv[2] ?? 20_000);
const profIndex = process.argv.indexOf("--runner-prof");
const runnerProf = profIndex > 0 ? process.argv[profIndex + 1] : undefined;
const command = ["node", ...(runnerProf ? ["--cpu-prof", `--cpu-prof-dir=${runnerProf}`] : []), "--import", "tsx", "main.ts"];
const subject = await startRunnerSubject({ name: "ts", command, cwd: join(runnersDir, "ts") });
try {
  await echoRate(subject, 500);
  for (let run = 0; run < 3; run++) console.log(`ts runner.echo: ${Math.round(await echoRate(subject, count))}/s over ${count}`);
} finally {
  await subject.close();
}
