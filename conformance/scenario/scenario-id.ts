// A scenario's id is its path under the scenarios folder, without the extension (test262's rule: the
// file is the test's identity). Ids have slashes, clause ids dots, so the two are never confused.
import { relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The suite's own scenarios. */
export const defaultScenarioDir = fileURLToPath(new URL("../../fixtures/scenarios", import.meta.url));

const withoutExtension = (file: string) => file.replace(/\.ya?ml$/, "");
const segments = (path: string) => path.split(/[\\/]+/).filter(Boolean);

/** Whether the file's path, without its extension, ends with the id's segments. */
export function idMatchesPath(file: string, id: string): boolean {
  const fileParts = segments(withoutExtension(file));
  const idParts = segments(id);
  return (
    idParts.length > 0 &&
    idParts.length <= fileParts.length &&
    idParts.every((part, index) => part === fileParts[fileParts.length - idParts.length + index])
  );
}

/** The id a file under `root` must have: its path relative to root, with `/`, without the extension. */
export function idForPath(file: string, root: string): string {
  return withoutExtension(relative(resolve(root), resolve(file)))
    .split(sep)
    .join("/");
}
