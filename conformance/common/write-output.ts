// Writes a report file the user named, making its folder first (run, merge, history and diff all do).
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export async function writeOutput(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
