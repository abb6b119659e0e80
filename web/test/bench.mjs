// `make bench-web`: the page's speed in headless Chromium.
//   - load: from navigation start to the index opened, and to the first
//     answer (a Spelling Bee solve typed into the form), medians of 5 loads;
//   - each query's time inside the page (performance.now around the
//     package's call, which parses the engine's JSON): its first call in a fresh page
//     without the page's warm-up (?warm=0) and with it, then its median.
// (`make web` prints the bytes the page downloads, raw and gzip -9.)
// Timings, not assertions: the budget (a query <= 5 ms once the index is
// loaded) is read off this table, as `make bench` does for the CLI.

import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { start, openPage } from "./browser.mjs";

// The engine's size: what a page or a Node program downloads for it.
const wasm = readFileSync(new URL("../dist/wordhoard/wasm/wordhoard_web_bg.wasm", import.meta.url));
console.log(`the package's wasm: ${wasm.length.toLocaleString("en-US")} bytes, ` +
  `${gzipSync(wasm, { level: 9 }).length.toLocaleString("en-US")} gzip -9 (its budget is in scripts/npm.sh)`);

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const QUERIES = [
  ["bee solve aeginrt r", "h.bee.solve('aeginrt', { center: 'r' })"],
  ["bee hints aeginrt r", "h.bee.hints('aeginrt', { center: 'r' })"],
  ["bee check (5 guesses)", "h.bee.check('aeginrt', 'granite rani tine rrrr granite', { center: 'r' })"],
  ["boxed riu pgh lcs yao", "h.boxed.solve('riu pgh lcs yao', { maxWords: 5, fewest: true, limit: 500 })"],
  ["boxed abc def ghi jkl", "h.boxed.solve('abc def ghi jkl', { maxWords: 3, fewest: true, limit: 500 })"],
  ["anigram unscramble deir", "h.anigram.unscramble('deir')"],
  ["anigram longest ride", "h.anigram.longest({ from: 'ride' })"],
];

const env = await start();
try {
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const { page, context } = await openPage(env.browser, env.url);
    await page.fill("#bee-letters", "aeginrt");
    await page.fill("#bee-center", "r");
    await page.press("#bee-center", "Enter");
    await page.waitForSelector("#bee-result:not([hidden])");
    loads.push(await page.evaluate(() => [window.wordhoard.ready, window.wordhoard.firstAnswer]));
    await context.close();
  }
  console.log(`page load to index opened: ${median(loads.map((l) => l[0])).toFixed(0)} ms, ` +
    `to the first answer: ${median(loads.map((l) => l[1])).toFixed(0)} ms (medians of 5 loads, localhost)`);

  // The first call of each query in a fresh page, without and with the
  // page's warm-up (which runs other samples, so these are first calls).
  const firsts = {};
  for (const warm of ["0", "1", "0", "1", "0", "1"]) {
    const { page, context } = await openPage(env.browser, `${env.url}?warm=${warm}`);
    await page.waitForFunction(() => window.wordhoard.warm);
    const times = await page.evaluate((queries) => {
      const h = window.wordhoard.idx;
      return queries.map(([, call]) => {
        const run = new Function("h", `return ${call};`);
        const t0 = performance.now();
        run(h);
        return performance.now() - t0;
      });
    }, QUERIES);
    times.forEach((t, i) => ((firsts[`${warm}${i}`] ??= []).push(t)));
    await context.close();
  }

  const { page, context } = await openPage(env.browser, env.url);
  console.log(`\n${"query in the page".padEnd(28)} ${"cold".padStart(8)} ${"warmed".padStart(8)} ${"median".padStart(8)}`);
  for (const [i, [name, call]] of QUERIES.entries()) {
    const times = await page.evaluate((call) => {
      const h = window.wordhoard.idx;
      const run = new Function("h", `return ${call};`);
      const calls = (n) => { const t0 = performance.now(); for (let i = 0; i < n; i++) run(h); return (performance.now() - t0) / n; };
      return Array.from({ length: 21 }, () => calls(10));
    }, call);
    const cell = (xs) => median(xs).toFixed(2).padStart(8);
    console.log(`${name.padEnd(28)} ${cell(firsts[`0${i}`])} ${cell(firsts[`1${i}`])} ${cell(times)}`);
  }
  console.log("(ms. cold, warmed: the first call in a fresh page without and with the warm-up, medians of 3 pages;\n" +
    " median: of 21 samples, each the mean of 10 calls, as Chromium rounds performance.now to 0.1 ms)");
  await context.close();

} finally {
  await env.close();
}
