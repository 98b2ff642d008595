// The resolve hook of served.mjs: a page file missing from the folder it is asked in, when that
// folder is one the relay serves at its root, is the file of that name in another such folder
// (the relay's own first, as the relay serves them).

import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const EXAMPLES = path.join(ROOT, "examples");

/** The folders served at the relay's root: its own pages, then each example game's. */
export const FOLDERS = [
  path.join(ROOT, "relay", "pages"),
  ...readdirSync(EXAMPLES)
    .sort()
    .map((name) => path.join(EXAMPLES, name, "page"))
    .filter((folder) => existsSync(folder)),
];

const SERVED = new Map();
for (const folder of FOLDERS) {
  for (const name of readdirSync(folder)) if (!SERVED.has(name)) SERVED.set(name, path.join(folder, name));
}

export async function resolve(specifier, context, next) {
  if (context.parentURL?.startsWith("file:") && /^(\.{1,2}\/|file:)/.test(specifier)) {
    const url = new URL(specifier, context.parentURL);
    const file = fileURLToPath(url);
    const served = SERVED.get(path.basename(file));
    if (served !== undefined && !existsSync(file) && FOLDERS.includes(path.dirname(file))) {
      return next(pathToFileURL(served).href, context);
    }
  }
  return next(specifier, context);
}
