// The web page end to end, in headless Chromium: the figures, keyboard
// use, checking guesses, errors, a phone-sized screen, and the README's
// screenshots (web/screenshots/). Run by `make test-web` after `make web`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFile, mkdir, rm, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { start, openPage, dist } from "./browser.mjs";

// The README's screenshots are tracked: a test run writes its own into
// target/screenshots/, and UPDATE_SCREENSHOTS=1 retakes the tracked ones.
const shots = process.env.UPDATE_SCREENSHOTS === "1"
  ? fileURLToPath(new URL("../screenshots/", import.meta.url))
  : fileURLToPath(new URL("../../target/screenshots/", import.meta.url));
await mkdir(shots, { recursive: true });
let env;

before(async () => { env = await start(); });
after(async () => { await env?.close(); });

async function typeInto(page, selector, text) {
  await page.focus(selector);
  await page.keyboard.press("Control+A");
  await page.keyboard.type(text);
}

test("Spelling Bee: 537 words and 3,898 points for AEGINRT with R, guesses checked, hints, answers on request", async () => {
  const { page, context, errors } = await openPage(env.browser, env.url, { viewport: { width: 1000, height: 900 } });
  // Keyboard only: letters, Tab to the centre, Enter submits.
  await typeInto(page, "#bee-letters", "aeginrt");
  await page.keyboard.press("Tab");
  await page.keyboard.type("r");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#bee-result:not([hidden])");
  assert.equal(await page.textContent("#bee-summary"), "537 words, 3,898 points, 50 pangrams.");
  // The honeycomb: seven cells, the centre one R.
  assert.equal(await page.locator("#bee-comb .cell").count(), 7);
  assert.equal(await page.textContent("#bee-comb .cell.center text"), "R");
  // Hints: the grid's total is every word; nothing revealed yet.
  assert.equal(await page.textContent("#bee-grid tbody tr:last-child td:last-child"), "537");
  assert.match(await page.textContent("#bee-two"), /^Two letters: /);
  assert.equal(await page.locator("#bee-words li").count(), 0, "no answers in the page before they are asked for");

  // Guesses: the focus is in the guess box after Show.
  assert.equal(await page.evaluate(() => document.activeElement.id), "bee-guess");
  const guess = async (word) => {
    await page.keyboard.type(word);
    await page.keyboard.press("Enter");
    return page.textContent("#bee-progress .verdict");
  };
  assert.equal(await guess("granite"), "GRANITE: 14 points, pangram!");
  assert.equal(await guess("tine"), "TINE: missing the centre letter R");
  assert.equal(await guess("rani"), "RANI: 1 point");
  assert.equal(await guess("granite"), "GRANITE: already found");
  assert.equal(await guess("rrrr"), "RRRR: not in the word list");
  // Good Start is 2% of 3,898 (78 points), Genius 70% (2,729).
  assert.equal(await page.textContent("#bee-progress .rank-line"),
    "Beginner with 15 points from 2 words. 63 points to Good Start. Genius at 2,729.");
  // What is left: 535 words in the grid.
  assert.equal(await page.textContent("#bee-grid tbody tr:last-child td:last-child"), "535");
  await page.screenshot({ path: `${shots}bee.png`, fullPage: true });

  // A click on a cell types its letter.
  await page.click("#bee-comb .cell.center");
  assert.equal(await page.inputValue("#bee-guess"), "r");
  await page.fill("#bee-guess", "");

  // Answers only when asked for: 537 listed, found ones struck through.
  await page.click("#bee-reveal summary");
  await page.waitForSelector("#bee-words li"); // filled on the toggle event
  assert.equal(await page.locator("#bee-words li").count(), 537);
  assert.equal(await page.locator("#bee-words li.found").count(), 2);
  assert.equal(await page.locator("#bee-words li.pangram").count(), 50);

  // Found words survive a reload of the same puzzle.
  await page.reload();
  await page.waitForSelector("body.ready");
  await page.fill("#bee-letters", "aeginrt");
  await page.fill("#bee-center", "r");
  await page.press("#bee-center", "Enter");
  await page.waitForSelector("#bee-progress .rank-line");
  assert.match(await page.textContent("#bee-progress .rank-line"), /with 15 points from 2 words/);

  // No centre given: the first letter, and the page says so.
  await page.fill("#bee-center", "");
  await page.press("#bee-letters", "Enter");
  await page.waitForSelector("#bee-summary");
  assert.match(await page.textContent("#bee-summary"), /centre A: the first letter, as none was given/);

  // A new puzzle: seven letters, the centre among them, shown as typed.
  await page.click("#bee-new");
  await page.waitForFunction(() => /^A new puzzle: seed \d+/.test(document.getElementById("bee-seed").textContent));
  const [letters, center] = [await page.inputValue("#bee-letters"), await page.inputValue("#bee-center")];
  assert.equal(new Set(letters).size, 7, letters);
  assert.ok(letters.includes(center) && !letters.includes("s"), `${letters} ${center}`);
  assert.match(await page.textContent("#bee-summary"), /^\d[\d,]* words?, [\d,]+ points?, [1-9]\d* pangrams?\.$/);
  assert.equal(await page.locator("#bee-words li").count(), 0, "no answers shown");

  // Bad letters: the library's one-line message, no answer.
  await page.fill("#bee-letters", "aeg1nrt");
  await page.press("#bee-letters", "Enter");
  assert.match(await page.textContent("#bee-error"), /1/);
  assert.equal(await page.isHidden("#bee-result"), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test("Letter Boxed: RIU PGH LCS YAO, GRACIOUS – SHARPLY first, common words marked", async () => {
  const { page, context, errors } = await openPage(env.browser, `${env.url}#boxed`, { viewport: { width: 1000, height: 900 } });
  assert.equal(await page.isVisible("#boxed"), true, "#boxed opens the Letter Boxed tab");
  await typeInto(page, "#boxed-sides", "riu pgh lcs yao");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#boxed-result:not([hidden])");
  const first = page.locator("#boxed-solutions li").first();
  assert.equal(await first.textContent(), "gracious – sharply");
  assert.equal(await first.locator(".word.common").count(), 2, "gracious and sharply are common words");
  // SPEC: the three solutions of common words only come first.
  const marked = await page.$$eval("#boxed-solutions li", (lis) =>
    lis.slice(0, 4).map((li) => [li.textContent, li.querySelectorAll(".word.common").length]));
  assert.deepEqual(marked.slice(0, 3), [["gracious – sharply", 2], ["gracious – splashy", 2], ["group – psychological", 2]]);
  assert.ok(marked[3][1] < 2, `the fourth has an uncommon word: ${marked[3]}`);
  assert.equal(await page.textContent("#boxed-summary"),
    "120 solutions of 2 words, the fewest, from 1,145 playable words. Common words are marked ★.");
  // Every listed solution has the fewest words.
  const lengths = await page.$$eval("#boxed-solutions li", (lis) => lis.map((li) => li.querySelectorAll(".word").length));
  assert.ok(lengths.length > 1 && lengths.every((n) => n === 2), String(lengths));
  // The box: four sides of three letters, the first solution's path drawn.
  assert.equal(await page.locator("#boxed-box text").count(), 12);
  assert.equal(await page.locator("#boxed-box .path").count(), 1);
  await page.screenshot({ path: `${shots}boxed.png`, fullPage: false });
  // Enter on another solution draws its path.
  await page.focus("#boxed-solutions li:nth-child(2)");
  await page.keyboard.press("Enter");
  assert.equal(await page.locator("#boxed-solutions li.shown").count(), 1);
  assert.match(await page.getAttribute("#boxed-solutions li:nth-child(2)", "class"), /shown/);

  // A new box: four sides of three letters, drawn, no solutions until Solve.
  await page.click("#boxed-new");
  await page.waitForFunction(() => /^A new box \(seed \d+\)/.test(document.getElementById("boxed-summary").textContent));
  const sides = (await page.inputValue("#boxed-sides")).split(" ");
  assert.equal(sides.length, 4);
  assert.ok(sides.every((s) => s.length === 3), sides.join(" "));
  assert.equal(new Set(sides.join("")).size, 12);
  assert.equal(await page.locator("#boxed-solutions li").count(), 0);
  assert.equal(await page.locator("#boxed-box text").count(), 12);
  await page.press("#boxed-sides", "Enter");
  await page.waitForSelector("#boxed-solutions li");
  assert.match(await page.textContent("#boxed-summary"), /solutions? of [12] words?, the fewest/);
  await page.fill("#boxed-sides", "riu pgh lcs yao");

  // No solution of 1 word: the page says how many the shortest take.
  await page.selectOption("#boxed-max", "1");
  await page.press("#boxed-sides", "Enter");
  await page.waitForFunction(() => /shortest take 2/.test(document.getElementById("boxed-summary").textContent));
  // A side with a letter twice: the library's error.
  await page.fill("#boxed-sides", "rru pgh lcs yao");
  await page.press("#boxed-sides", "Enter");
  assert.equal(await page.isVisible("#boxed-error"), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test("Anigrams: DEIR unscrambles to DIRE, IRED, RIDE; the longest chain from it", async () => {
  const { page, context, errors } = await openPage(env.browser, env.url, { viewport: { width: 1000, height: 900 } });
  // Keyboard: the tabs follow the arrow keys.
  await page.focus("#tab-bee");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.isVisible("#anigram"), true);
  await typeInto(page, "#anigram-letters", "deir");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#anigram-result:not([hidden])");
  assert.equal(await page.textContent("#anigram-words"), "DEIR: DIRE, IRED, RIDE");
  await page.click("#chain-button");
  await page.waitForSelector("#anigram-chain li");
  const terms = await page.$$eval("#anigram-chain .term", (t) => t.map((e) => e.textContent));
  assert.equal(terms[0], "DEIR");
  // Each term is the one before plus one letter.
  for (let i = 1; i < terms.length; i++) {
    assert.equal(terms[i].length, terms[i - 1].length + 1, terms.join(" "));
  }
  assert.ok(terms.length >= 5, terms.join(" "));
  await page.screenshot({ path: `${shots}anigram.png`, fullPage: false });
  await page.fill("#anigram-letters", "qqqq");
  await page.click("#chain-button");
  assert.match(await page.textContent("#anigram-error"), /no word in this index has the letters/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a phone-sized screen: nothing wider than the screen", async () => {
  const { page, context, errors } = await openPage(env.browser, env.url, {
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  for (const [tab, fills, button] of [
    ["#tab-bee", [["#bee-letters", "aeginrt"], ["#bee-center", "r"]], "#bee-form button[type=submit]"],
    ["#tab-boxed", [["#boxed-sides", "riu pgh lcs yao"]], "#boxed-form button[type=submit]"],
    ["#tab-anigram", [["#anigram-letters", "deir"]], "#chain-button"],
  ]) {
    await page.tap(tab);
    for (const fill of fills) await page.fill(...fill);
    await page.tap(button);
    await page.waitForTimeout(50);
    const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= inner, `${tab}: the page is ${scroll}px wide on a ${inner}px screen`);
  }
  await page.tap("#tab-bee");
  await page.screenshot({ path: `${shots}phone.png`, fullPage: false });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the index arrives gzip-compressed, or plain from a server that does not compress", async () => {
  const { context, responses } = await openPage(env.browser, env.url);
  const sent = responses.get("/enable1.hoard");
  assert.equal(sent["content-encoding"], "gzip");
  // Compressed: under half the file (12.0 MB, 5.0 MB gzipped).
  const { size } = await stat(`${dist}enable1.hoard`);
  assert.ok(Number(sent["content-length"]) < size / 2, `compressed: ${sent["content-length"]} of ${size} bytes`);
  await context.close();
  // No .gz beside it: sent as it is, and the page checks its length.
  await copyFile(`${dist}enable1.hoard`, `${dist}plain.hoard`);
  try {
    const plain = await openPage(env.browser, `${env.url}?index=plain.hoard`);
    assert.equal(plain.responses.get("/plain.hoard")["content-encoding"], undefined);
    // The file's own size, as the page shows it (en-US thousands).
    const bytes = (await stat(`${dist}plain.hoard`)).size.toLocaleString("en-US");
    const status = await plain.page.textContent("#status");
    assert.ok(status.startsWith(`enable1: 172,820 words, ${bytes} bytes from plain.hoard`), status);
    assert.deepEqual(plain.errors, []);
    await plain.context.close();
  } finally {
    await rm(`${dist}plain.hoard`, { force: true });
  }
});

test("a damaged or missing index is a message, not a broken page", async () => {
  const broken = await env.browser.newContext();
  const p = await broken.newPage();
  await p.goto(`${env.url}?index=missing.hoard`);
  await p.waitForFunction(() => document.getElementById("status").textContent.startsWith("Cannot open"));
  assert.match(await p.textContent("#status"), /HTTP 404/);
  await p.goto(`${env.url}?index=app.js`);
  await p.waitForFunction(() => document.getElementById("status").textContent.startsWith("Cannot open"));
  assert.match(await p.textContent("#status"), /not a wordhoard index|index/);
  await broken.close();
});
