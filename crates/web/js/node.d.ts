export * from "./index.js";
import { Index } from "./index.js";
/** Opens the index file at `path`. */
export function openFile(path: string | URL): Promise<Index>;
/** Opens the index file at `path`, synchronously. */
export function openFileSync(path: string | URL): Index;
