// Self time per function (top 25) of a V8 .cpuprofile: node bench/tools/summarize-profile.mjs FILE
import { readFileSync } from "node:fs";

const profile = JSON.parse(readFileSync(process.argv[2], "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const gaps = profile.timeDeltas;
profile.samples.forEach((id, index) => {
  const node = byId.get(id);
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (gaps[index] ?? 0));
});
const total = [...self.values()].reduce((sum, value) => sum + value, 0);
for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}`);
}
