// wordhoard under Node: the engine is loaded from the package folder at
// import, so `Index.fromBytesSync` works at once, and `openFile` reads an
// index file by path.

import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { initSync } from "./wasm/wordhoard_web.js";
import { Index } from "./index.js";

initSync({ module: readFileSync(new URL("./wasm/wordhoard_web_bg.wasm", import.meta.url)) });

export * from "./index.js";

/** Opens the index file at `path`. */
export async function openFile(path) {
  return Index.fromBytesSync(await readFile(path));
}

/** Opens the index file at `path`, synchronously. */
export function openFileSync(path) {
  return Index.fromBytesSync(readFileSync(path));
}
