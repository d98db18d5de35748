// The floor under every runner's round trip: a node process that writes each stdin line back to
// stdout, nothing else (no JSON, no schema, no dispatch). Exits when stdin closes.
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => process.stdout.write(`${line}\n`));
lines.on("close", () => process.exit(0));
