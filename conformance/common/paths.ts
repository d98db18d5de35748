// Where things are, relative to the repository (not the working directory).
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const runnersDir = fileURLToPath(new URL("../../runners", import.meta.url));
