// wordhoard in a page: fetch an index file once, then answer every question
// from its bytes with the npm package `wordhoard` (crates/web/js: the query
// library in WebAssembly), the same API any other page or Node program
// uses. No framework and no server logic: the page is static files.
//
// Each answer is the JSON `wordhoard --json` prints. Every query is timed
// with performance.now() and recorded in window.wordhoard.timings, which
// the browser test (web/test/page.test.mjs) reports.

import { Index, init } from "./wordhoard/index.js";

const $ = (id) => document.getElementById(id);
const fmt = (n) => Number(n).toLocaleString("en-US");
const plural = (n, one, many = one + "s") => `${fmt(n)} ${n === 1 ? one : many}`;
const upper = (s) => s.toLocaleUpperCase();

// What the test reads: when the index was ready and how long each query took.
const state = { idx: null, timings: [], ready: null, firstAnswer: null };
window.wordhoard = state;

// ---------------------------------------------------------------- loading

const params = new URLSearchParams(location.search);
const indexUrl = params.get("index") || "enable1.hoard";

/** The index file's bytes, with the download's progress shown. A server
 * may compress the file (Content-Encoding: gzip): then Content-Length is
 * the compressed size, so it only paces the progress bar, and the bytes
 * are gathered as they come. */
async function fetchIndex(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot fetch ${url}: HTTP ${response.status}`);
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
  const total = Number(response.headers.get("content-length")) || 0;
  const expected = encoded ? total * 2.4 : total; // an index compresses to about 42%
  const chunks = [];
  let at = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    at += value.length;
    if (expected) $("progress").value = Math.min(at / expected, 1);
  }
  if (!encoded && total && at !== total) throw new Error(`${url} ended after ${fmt(at)} of ${fmt(total)} bytes`);
  const bytes = new Uint8Array(at);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function open(bytes, source) {
  const t0 = performance.now();
  state.idx?.free();
  state.idx = Index.fromBytesSync(bytes);
  const info = state.idx.info();
  state.info = { name: info.name, words: info.words, alphabet: info.alphabet, common: info.common_source !== null };
  state.ready = performance.now();
  $("progress").hidden = true;
  $("status").textContent =
    `${info.name}: ${fmt(info.words)} words, ${fmt(bytes.length)} bytes from ${source}, ` +
    `opened in ${(state.ready - t0).toFixed(1)} ms`;
  document.body.classList.add("ready");
  for (const form of document.querySelectorAll("form")) form.querySelector("button[type=submit]").disabled = false;
  setTimeout(warmUp, 0);
}

/** V8 runs WebAssembly from a quick baseline compile and optimises each
 * function once it has run a while, so the first queries ran 3-5x slower
 * than later ones (a box's first solve 15 ms, then 3 ms: `make bench-web`
 * measures both, `?warm=0` turns this off). Three rounds of each question
 * on sample input, after the page is usable (about 40 ms), get the code
 * optimised before the player asks. Samples that the index's alphabet
 * cannot spell just fail, quietly. */
function warmUp() {
  if (params.get("warm") === "0") { state.warm = true; return; }
  const idx = state.idx;
  const a = [...state.info.alphabet];
  const english = [..."bcdilnoehwsyartk"].every((c) => a.includes(c));
  const pick = (from, n) => (english ? from : a.slice(0, n).join(""));
  const letters = pick("bcdilno", 7), center = letters[0];
  const sides = english ? "ceh wsn yar itk" : [0, 3, 6, 9].map((i) => a.slice(i, i + 3).join("")).join(" ");
  const term = pick("lots", 4);
  for (let round = 0; round < 3; round++) {
    for (const call of [
      () => idx.bee.solve(letters, { center }),
      () => idx.bee.hints(letters, { center }),
      () => idx.bee.check(letters, [pick("lion", 4), pick("blond", 5)], { center }),
      () => boxedFewest(idx, sides, 5),
      () => idx.anigram.unscramble(term),
      () => idx.anigram.longest({ from: term }),
    ]) {
      try { call(); } catch { /* a sample this index cannot spell */ }
    }
  }
  state.warm = true;
}

async function start() {
  for (const form of document.querySelectorAll("form")) form.querySelector("button[type=submit]").disabled = true;
  try {
    const [bytes] = await Promise.all([fetchIndex(indexUrl), init()]);
    open(bytes, indexUrl);
  } catch (e) {
    $("status").textContent = `Cannot open the index: ${e.message ?? e}`;
    $("status").classList.add("error");
    $("progress").hidden = true;
  }
}

$("index-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  try {
    open(new Uint8Array(await file.arrayBuffer()), file.name);
  } catch (e) {
    $("status").textContent = `Cannot open ${file.name}: ${e.message ?? e}`;
  }
});

// ---------------------------------------------------------------- queries

/** Runs one query, timed. Errors go to `errorId`. */
function ask(name, errorId, call) {
  const error = $(errorId);
  error.hidden = true;
  if (!state.idx) return null;
  const t0 = performance.now();
  try {
    const answer = call(state.idx);
    const ms = performance.now() - t0;
    state.timings.push({ query: name, ms });
    if (state.firstAnswer === null) state.firstAnswer = performance.now();
    return { answer, ms };
  } catch (e) {
    error.textContent = e.message ?? String(e);
    error.hidden = false;
    return null;
  }
}

function showTime(id, parts) {
  const total = parts.reduce((a, [, ms]) => a + ms, 0);
  const detail = parts.length > 1 ? ` (${parts.map(([n, ms]) => `${n} ${ms.toFixed(2)}`).join(", ")})` : "";
  $(id).textContent = `Answered in ${total.toFixed(2)} ms${detail}.`;
}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ------------------------------------------------------------ Spelling Bee

const bee = { letters: "", center: "", common: false, found: [] };

function storageKey() {
  return `wordhoard.bee.${state.info?.name}.${bee.letters}.${bee.center}`;
}
function saveFound() {
  try { localStorage.setItem(storageKey(), JSON.stringify(bee.found)); } catch { /* private mode */ }
}
function loadFound() {
  try { return JSON.parse(localStorage.getItem(storageKey()) || "[]"); } catch { return []; }
}

/** The honeycomb: the centre letter in the middle; a click types a letter. */
function drawComb(letters, center) {
  const comb = $("bee-comb");
  comb.replaceChildren();
  const others = [...letters].filter((c) => c !== center);
  const r = 30;
  const hex = (cx, cy) =>
    [0, 1, 2, 3, 4, 5].map((i) => {
      const a = (Math.PI / 3) * i;
      return `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
    }).join(" ");
  const cells = [[100, 100, center, true]];
  others.forEach((c, i) => {
    const a = -Math.PI / 2 + (Math.PI / 3) * i;
    const d = Math.sqrt(3) * r + 3;
    cells.push([100 + d * Math.cos(a), 100 + d * Math.sin(a), c, false]);
  });
  for (const [x, y, c, middle] of cells) {
    const g = svg("g", { class: middle ? "cell center" : "cell", tabindex: "-1" });
    g.append(svg("polygon", { points: hex(x, y) }));
    g.append(svg("text", { x, y: y + 1, "text-anchor": "middle", "dominant-baseline": "middle" }, upper(c)));
    g.addEventListener("click", () => {
      const input = $("bee-guess");
      input.value += c;
      input.focus();
    });
    comb.append(g);
  }
  comb.setAttribute("aria-label", `Honeycomb: ${upper(center)} in the centre, then ${upper(others.join(" "))}`);
}

function gridTable(grid, twoLetter) {
  const letters = Object.keys(grid);
  const lengths = [...new Set(letters.flatMap((c) => Object.keys(grid[c]).map(Number)))].sort((a, b) => a - b);
  if (!letters.length) return el("p", { textContent: "Nothing left: every word found." });
  const table = el("table", { className: "grid" });
  const head = el("tr", {}, el("th"));
  for (const n of lengths) head.append(el("th", { scope: "col", textContent: n }));
  head.append(el("th", { scope: "col", textContent: "Σ" }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  const totals = new Map();
  for (const c of letters) {
    const row = el("tr", {}, el("th", { scope: "row", textContent: upper(c) }));
    let sum = 0;
    for (const n of lengths) {
      const v = grid[c][n] ?? 0;
      sum += v;
      totals.set(n, (totals.get(n) ?? 0) + v);
      row.append(el("td", { textContent: v ? v : "-" }));
    }
    row.append(el("td", { className: "sum", textContent: sum }));
    body.append(row);
  }
  const foot = el("tr", {}, el("th", { scope: "row", textContent: "Σ" }));
  let all = 0;
  for (const n of lengths) { foot.append(el("td", { className: "sum", textContent: totals.get(n) })); all += totals.get(n); }
  foot.append(el("td", { className: "sum", textContent: all }));
  body.append(foot);
  table.append(body);
  const two = Object.entries(twoLetter).map(([p, n]) => `${upper(p)}-${n}`).join("  ");
  $("bee-two").textContent = two ? `Two letters: ${two}` : "";
  return table;
}

function showProgress(progress, lastGuess) {
  const box = $("bee-progress");
  box.replaceChildren();
  if (lastGuess) {
    const v = progress.guesses[progress.guesses.length - 1];
    const reasons = {
      too_short: "too short",
      missing_center: `missing the centre letter ${upper(progress.center)}`,
      bad_letter: "has letters not in the honeycomb",
      not_in_list: "not in the word list",
      repeat: "already found",
    };
    const text = v.ok ? `${upper(v.word)}: ${plural(v.score, "point")}${v.pangram ? ", pangram!" : ""}`
      : `${upper(v.word)}: ${reasons[v.reason] ?? v.reason}`;
    box.append(el("p", { className: v.ok ? "verdict ok" : "verdict no", textContent: text }));
  }
  const rank = progress.rank;
  const next = rank.next ? `${plural(rank.next.score - progress.found.score, "point")} to ${rank.next.name}` : "Every word found!";
  const bar = el("meter", { min: 0, max: rank.queen_bee || 1, value: progress.found.score, className: "rank" });
  bar.setAttribute("aria-label", "Score");
  box.append(
    el("p", { className: "rank-line" },
      el("strong", { className: "rank-name", textContent: rank.name }),
      ` with ${plural(progress.found.score, "point")} from ${plural(progress.found.count, "word")}. ${next}. ` +
      `Genius at ${fmt(rank.genius)}.`),
    bar,
  );
  const found = progress.guesses.filter((g) => g.ok).map((g) => g.word).sort();
  if (found.length) box.append(el("p", { className: "found", textContent: found.map(upper).join(" · ") }));
  const left = progress.left;
  $("bee-grid").replaceChildren(gridTable(left.grid, left.two_letter));
}

function check(lastGuess) {
  const guesses = lastGuess ? [...bee.found, lastGuess] : bee.found;
  const got = ask("bee check", "bee-error",
    (idx) => idx.bee.check(bee.letters, guesses, { center: bee.center, commonOnly: bee.common }));
  if (!got) return;
  const { answer, ms } = got;
  if (lastGuess) {
    const v = answer.guesses[answer.guesses.length - 1];
    if (v.ok) { bee.found.push(v.word); saveFound(); }
  }
  showProgress(answer, lastGuess);
  return ms;
}

$("bee-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (event.submitter) $("bee-seed").textContent = "";
  const letters = $("bee-letters").value.trim();
  const center = $("bee-center").value.trim();
  const common = $("bee-common").checked;
  const solved = ask("bee solve", "bee-error", (idx) => idx.bee.solve(letters, { center: center || undefined, commonOnly: common }));
  if (!solved) { $("bee-result").hidden = true; return; }
  const s = solved.answer;
  Object.assign(bee, { letters: s.letters, center: s.center, common, words: s.words });
  const defaulted = center ? "" : ` (centre ${upper(s.center)}: the first letter, as none was given)`;
  $("bee-summary").textContent =
    `${plural(s.count, "word")}, ${plural(s.score, "point")}, ${plural(s.pangrams, "pangram")}${defaulted}.`;
  drawComb(s.letters, s.center);
  bee.found = loadFound();
  $("bee-reveal").open = false;
  $("bee-words").replaceChildren();
  $("bee-result").hidden = false;
  const checkMs = check(null);
  showTime("bee-time", [["solve", solved.ms], ["check", checkMs ?? 0]]);
  $("bee-guess").focus();
});

/** The most solutions the page lists for a box; the rest are counted. */
const MAX_LISTED_SOLUTIONS = 500;

/** `boxed solve --fewest`: the solutions with the fewest words (up to
 * `maxWords`), the first MAX_LISTED_SOLUTIONS of them, and which of
 * their words are common (`common`, for the stars). */
function boxedFewest(idx, sides, maxWords) {
  const answer = idx.boxed.solve(sides, { maxWords, fewest: true, limit: MAX_LISTED_SOLUTIONS });
  answer.common = idx.commonWords(answer.solutions.flat());
  return answer;
}

/** A random 32-bit seed; the CLI's `generate --seed` gives the same puzzle. */
const randomSeed = () => crypto.getRandomValues(new Uint32Array(1))[0];

// A new honeycomb to play: the CLI's `bee generate`, then shown as typed.
$("bee-new").addEventListener("click", () => {
  const seed = randomSeed();
  const got = ask("bee generate", "bee-error", (idx) => idx.bee.generate({ seed, commonOnly: $("bee-common").checked }));
  if (!got) return;
  $("bee-letters").value = got.answer.letters;
  $("bee-center").value = got.answer.center;
  $("bee-seed").textContent = `A new puzzle: seed ${seed} (wordhoard bee generate --seed ${seed} gives it too).`;
  $("bee-form").requestSubmit();
});

$("guess-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const guess = $("bee-guess").value.trim();
  if (!guess || !bee.letters) return;
  const ms = check(guess);
  if (ms !== undefined) showTime("bee-time", [["check", ms]]);
  $("bee-guess").value = "";
});

$("guess-clear").addEventListener("click", () => {
  bee.found = [];
  saveFound();
  check(null);
  $("bee-guess").focus();
});

// The answers only on request: the list is filled when it is opened.
$("bee-reveal").addEventListener("toggle", () => {
  if (!$("bee-reveal").open || !bee.words) return;
  const found = new Set(bee.found);
  $("bee-words").replaceChildren(...bee.words.map((w) => el("li", {
    className: [w.pangram ? "pangram" : "", found.has(w.word) ? "found" : "", w.common ? "common" : ""].join(" ").trim(),
    textContent: `${w.word} ${w.score}`,
  })));
});

// ----------------------------------------------------------- Letter Boxed

/** The box: a polygon with one side per side of letters (a square for 4),
 * the letters outside it, and a solution's path drawn inside. */
function drawBox(sides, path) {
  const box = $("boxed-box");
  box.replaceChildren();
  const k = sides.length;
  const c = 110, R = k === 4 ? 95 * Math.SQRT2 : 90;
  const corner = (i) => {
    const a = -Math.PI / 2 - Math.PI / k + (2 * Math.PI * i) / k;
    return [c + R * Math.cos(a) * (k === 4 ? 0.707 : 1), c + R * Math.sin(a) * (k === 4 ? 0.707 : 1)];
  };
  const corners = [...Array(k).keys()].map(corner);
  box.append(svg("polygon", { class: "frame", points: corners.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") }));
  const at = new Map();
  sides.forEach((side, i) => {
    const [x0, y0] = corners[i], [x1, y1] = corners[(i + 1) % k];
    // Corners run clockwise; a square's bottom and left sides are drawn in
    // reading order (left to right, top to bottom), as the terminal draws them.
    const letters = k === 4 && i >= 2 ? [...side].reverse() : [...side];
    letters.forEach((ch, j) => {
      const t = (j + 1) / (letters.length + 1);
      const x = x0 + (x1 - x0) * t, y = y0 + (y1 - y0) * t;
      at.set(ch, [x, y]);
      const ox = x - c, oy = y - c, len = Math.hypot(ox, oy) || 1;
      box.append(svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 5, class: "dot" }));
      box.append(svg("text", {
        x: (x + (ox / len) * 15).toFixed(1), y: (y + (oy / len) * 15).toFixed(1),
        "text-anchor": "middle", "dominant-baseline": "middle",
      }, upper(ch)));
    });
  });
  if (path) {
    // Each word starts on the last letter of the one before: draw it once.
    const points = [];
    path.forEach((word, w) => [...word].forEach((ch, i) => { if (w === 0 || i > 0) points.push(at.get(ch)); }));
    if (points.length > 1 && points.every(Boolean)) {
      const line = svg("polyline", { class: "path", points: points.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ") });
      box.insertBefore(line, box.children[1]);
    }
  }
  box.setAttribute("aria-label", `Box with sides ${sides.map(upper).join(", ")}`);
}

$("boxed-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const sides = $("boxed-sides").value;
  const max = Number($("boxed-max").value);
  const got = ask("boxed solve", "boxed-error", (idx) => boxedFewest(idx, sides, max));
  if (!got) { $("boxed-result").hidden = true; return; }
  const a = got.answer;
  const common = new Set(a.common);
  let summary;
  if (a.count > 0) {
    // The answer counts solutions up to the fewest words only (`fewest`).
    const n = Number(a.count_by_words[a.min_words]);
    summary = `${plural(n, "solution")} of ${plural(a.min_words, "word")}, the fewest, from ` +
      `${plural(a.playable, "playable word")}${a.solutions.length < n ? ` (the first ${fmt(a.solutions.length)} shown)` : ""}.`;
    if (state.info?.common) summary += " Common words are marked ★.";
  } else if (a.shortest) {
    summary = `No solution of up to ${plural(a.max_words, "word")}; the shortest take ${a.shortest.words} ` +
      `(${plural(Number(a.shortest.count), "solution")}): allow more words.`;
  } else {
    summary = `No solution from ${plural(a.playable, "playable word")}.`;
  }
  $("boxed-summary").textContent = summary;
  const list = $("boxed-solutions");
  list.replaceChildren(...a.solutions.map((words, i) => {
    const item = el("li", { tabIndex: 0 });
    words.forEach((w, j) => {
      if (j) item.append(" – ");
      item.append(el("span", { className: common.has(w) ? "word common" : "word", textContent: w }));
    });
    const show = () => {
      drawBox(a.sides, words);
      for (const li of list.children) li.classList.toggle("shown", li === item);
    };
    item.addEventListener("click", show);
    item.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); show(); } });
    if (i === 0) item.classList.add("shown");
    return item;
  }));
  drawBox(a.sides, a.solutions[0]);
  $("boxed-result").hidden = false;
  showTime("boxed-time", [["solve", got.ms]]);
});

// A new box to play: the CLI's `boxed generate` (common words when the
// index has a list), drawn without its solutions until Solve.
$("boxed-new").addEventListener("click", () => {
  const seed = randomSeed();
  const common = Boolean(state.info?.common);
  const got = ask("boxed generate", "boxed-error", (idx) => idx.boxed.generate({ seed, commonOnly: common }));
  if (!got) return;
  const a = got.answer;
  $("boxed-sides").value = a.sides.join(" ");
  drawBox(a.sides, null);
  $("boxed-summary").textContent =
    `A new box (seed ${seed}): ${plural(Number(a.count), "solution")} of at most 2 words` +
    `${common ? " of common words" : ""}. Play it, then press Solve.`;
  $("boxed-solutions").replaceChildren();
  $("boxed-result").hidden = false;
  showTime("boxed-time", [["generate", got.ms]]);
});

// --------------------------------------------------------------- Anigrams

$("unscramble-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const letters = $("anigram-letters").value;
  const got = ask("anigram unscramble", "anigram-error", (idx) => idx.anigram.unscramble(letters));
  if (!got) return;
  const { term, words } = got.answer;
  $("anigram-words").textContent = words.length
    ? `${upper(term)}: ${words.map(upper).join(", ")}`
    : `No word has the letters ${upper(term)}.`;
  $("anigram-chain").replaceChildren();
  $("anigram-result").hidden = false;
  showTime("anigram-time", [["unscramble", got.ms]]);
});

/** The letter a term adds to the one before it (terms are sorted letters). */
function added(before, after) {
  const left = [...before];
  for (const ch of after) {
    const i = left.indexOf(ch);
    if (i < 0) return ch;
    left.splice(i, 1);
  }
  return "?";
}

$("chain-button").addEventListener("click", () => {
  const letters = $("anigram-letters").value;
  const got = ask("anigram longest", "anigram-error", (idx) => idx.anigram.longest({ from: letters }));
  if (!got) return;
  const { chain, length } = got.answer;
  $("anigram-words").textContent = `The longest chain from ${upper(chain[0]?.term ?? letters)}: ${plural(length, "step")}.`;
  $("anigram-chain").replaceChildren(...chain.map((step, i) => el("li", {},
    el("span", { className: "added", textContent: i ? `+${upper(added(chain[i - 1].term, step.term))}` : "" }),
    el("span", { className: "term", textContent: upper(step.term) }),
    ` ${step.words.join(", ")}`)));
  $("anigram-result").hidden = false;
  showTime("anigram-time", [["longest", got.ms]]);
});

// ------------------------------------------------------------------- tabs

const tabs = [...document.querySelectorAll("[role=tab]")];
function select(tab, focus = true) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", on);
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
  if (focus) tab.focus();
  history.replaceState(null, "", `#${tab.getAttribute("aria-controls")}`);
}
tabs.forEach((tab, i) => {
  tab.addEventListener("click", () => select(tab));
  tab.addEventListener("keydown", (e) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (step) select(tabs[(i + step + tabs.length) % tabs.length]);
    if (e.key === "Home") select(tabs[0]);
    if (e.key === "End") select(tabs[tabs.length - 1]);
  });
});
const initial = tabs.find((t) => `#${t.getAttribute("aria-controls")}` === location.hash);
if (initial) select(initial, false);

start();
