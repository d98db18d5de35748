#!/usr/bin/env node
// The package's `bin`: runs the TypeScript CLI through tsx, so no build step is needed.
import { register } from "tsx/esm/api";

register();
const { main } = await import("./main.ts");
process.exitCode = await main(process.argv);
