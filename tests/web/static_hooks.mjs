// Module resolution for running the pages' modules under Node in tests: the pages import
// "/static/name.js" (the hub's address for web/static/), which is a file here.
// Licence: GPL-3.0-or-later, like the rest of chess-relay.

import { pathToFileURL } from "node:url";
import { fileURLToPath } from "node:url";
import path from "node:path";

const STATIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/static");

export async function resolve(specifier, context, next) {
  if (specifier.startsWith("/static/")) {
    const file = path.join(STATIC, specifier.slice("/static/".length));
    return { url: pathToFileURL(file).href, shortCircuit: true };
  }
  return next(specifier, context);
}
