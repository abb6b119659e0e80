// What the package's WebAssembly engine costs, by what answers each export:
// the code bytes of each module of wordhoard-query (bee, boxed, anigram,
// find, anagram: one per group of exports; request, json, format, index,
// alphabet, verify: shared by all), and of each crate beneath them. Read
// from the function names of the engine as compiled (before wasm-bindgen
// strips them), so a module's inlined callees count where they were
// inlined. Run by `make bench-web`.

import { readFileSync } from "node:fs";

const path = new URL("../../target/wasm32-unknown-unknown/wasm/wordhoard_web.wasm", import.meta.url);
const b = readFileSync(path);
let at = 8;
const leb = () => {
  let r = 0, s = 0, x;
  do { x = b[at++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
  return r;
};
let imports = 0;
const sizes = [];
const names = new Map();
const dataBytes = { data: 0, other: 0 };
while (at < b.length) {
  const id = b[at++];
  const len = leb();
  const end = at + len;
  if (id === 2) {
    for (let n = leb(); n > 0; n--) {
      at += leb(); at += leb();
      const kind = b[at++];
      if (kind === 0) { leb(); imports++; }
      else if (kind === 1) { at++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 3) at += 2;
    }
  } else if (id === 10) {
    for (let n = leb(); n > 0; n--) { const size = leb(); sizes.push(size); at += size; }
  } else if (id === 11) {
    dataBytes.data += len;
  } else if (id === 0) {
    const nameLen = leb();
    const name = b.subarray(at, at + nameLen).toString();
    at += nameLen;
    if (name === "name") {
      while (at < end) {
        const sub = b[at++];
        const subLen = leb();
        const subEnd = at + subLen;
        if (sub === 1) {
          for (let n = leb(); n > 0; n--) {
            const index = leb();
            const l = leb();
            names.set(index, b.subarray(at, at + l).toString());
            at += l;
          }
        }
        at = subEnd;
      }
    }
  }
  at = end;
}

const groups = new Map();
sizes.forEach((size, i) => {
  const name = names.get(i + imports) ?? "";
  const module = name.match(/wordhoard_query(?:\d+|\.\.)([a-z_]+?)(?:\d|\.\.)/);
  const crate = name.match(/(serde_json|serde|wasm_bindgen|dlmalloc|wordhoard_web|fst)/);
  const key = module ? `wordhoard_query::${module[1]}` : crate ? crate[1] : "core, alloc, std (shared)";
  groups.set(key, (groups.get(key) ?? 0) + size);
});
const answers = {
  "wordhoard_query::bee": "bee.* (solve, report, hints, check, best, stats, generate)",
  "wordhoard_query::boxed": "boxed.* (solve, generate, check)",
  "wordhoard_query::anigram": "anigram.* (and anagram's term search)",
  "wordhoard_query::find": "find",
  "wordhoard_query::anagram": "anagram",
  "wordhoard_query::request": "every export: the request layer",
  "wordhoard_query::json": "every export: the answers' JSON shapes",
  "wordhoard_web": "every export: the engine's entry (ask)",
  serde_json: "every export: JSON in and out",
  serde: "every export: the requests' fields",
};
const total = sizes.reduce((a, s) => a + s, 0);
console.log(`\nthe engine's code, ${total.toLocaleString("en-US")} bytes (and ${dataBytes.data.toLocaleString("en-US")} of data), by what it answers:`);
for (const [key, size] of [...groups].sort((a, c) => c[1] - a[1])) {
  console.log(`  ${key.padEnd(30)} ${size.toLocaleString("en-US").padStart(9)}  ${answers[key] ?? "reading the index, shared"}`);
}
