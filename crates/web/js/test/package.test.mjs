// The npm package as a user gets it: the tarball from `npm pack` installed
// into an empty project and imported from there, in Node without a
// bundler. Every export answers as `wordhoard --json` does for the same
// command and flags, on the golden index and on enable1; hostile files
// give the package's errors, never a trap. Run by `make test-npm`.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(fileURLToPath(new URL("../../../..", import.meta.url)));
const cli = process.env.WORDHOARD_BIN ?? join(root, "target/release/wordhoard");
const golden = join(root, "tests/data/v3.hoard");
const work = mkdtempSync(join(tmpdir(), "wordhoard-npm-"));

let wordhoard; // the package, imported from the temporary project
let enable1 = null;

function cliJson(index, args) {
  const out = execFileSync(cli, ["--index", index, ...args, "--json"], { encoding: "utf8", maxBuffer: 1 << 28 });
  return JSON.parse(out);
}

function wordlists() {
  for (const dir of [process.env.WORDHOARD_WORDLISTS, join(root, "../shared/wordlists")]) {
    if (dir && existsSync(join(dir, "enable1.txt"))) return dir;
  }
  if (process.env.WORDHOARD_REQUIRE_WORDLISTS === "1") throw new Error("the shared word lists are required but missing");
  return null;
}

before(() => {
  const tarball = readdirSync(join(root, "target/npm")).find((f) => /^wordhoard-.*\.tgz$/.test(f));
  assert.ok(tarball, "make npm writes target/npm/wordhoard-VERSION.tgz");
  const project = join(work, "project");
  execFileSync("mkdir", ["-p", project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "probe", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", "--loglevel=error", join(root, "target/npm", tarball)], {
    cwd: project,
    stdio: "inherit",
  });
  writeFileSync(join(project, "probe.mjs"), 'export * from "wordhoard";\n');
  const lists = wordlists();
  if (lists) {
    enable1 = join(work, "enable1.hoard");
    execFileSync(cli, ["build", join(lists, "enable1.txt"), "--common", join(lists, "popular.txt"), "-o", enable1], {
      stdio: "ignore",
    });
  }
  return import(pathToFileURL(join(project, "probe.mjs"))).then((m) => {
    wordhoard = m;
  });
});

// [CLI arguments, the same question through the package]
const CASES = [
  [["info"], (i) => i.info()],
  [["verify"], (i) => i.verify()],
  [["bee", "solve", "aeginrt", "--center", "r"], (i) => i.bee.solve("aeginrt", { center: "r" })],
  [["bee", "solve", "aeginrt"], (i) => i.bee.solve("aeginrt")],
  [["bee", "solve", "aeglmpx", "--common-only"], (i) => i.bee.solve("aeglmpx", { commonOnly: true })],
  [["bee", "report", "aeginrt", "--center", "r"], (i) => i.bee.report("aeginrt", { center: "r" })],
  [["bee", "hints", "aeginrt", "--center", "r"], (i) => i.bee.hints("aeginrt", { center: "r" })],
  [
    ["bee", "check", "aeginrt", "--center", "r", "granite", "tearing", "rain", "xyz", "granite"],
    (i) => i.bee.check("aeginrt", "granite tearing rain xyz granite", { center: "r" }),
  ],
  [["bee", "best"], (i) => i.bee.best()],
  [["bee", "best", "--top", "3", "--exclude", ""], (i) => i.bee.best({ top: 3, exclude: "" })],
  [["bee", "best", "--common-only", "--top", "3"], (i) => i.bee.best({ commonOnly: true, top: 3 })],
  [["bee", "stats"], (i) => i.bee.stats()],
  [["bee", "generate", "--seed", "7"], (i) => i.bee.generate({ seed: 7 })],
  [["boxed", "solve", "riu", "pgh", "lcs", "yao"], (i) => i.boxed.solve(["riu", "pgh", "lcs", "yao"])],
  [
    ["boxed", "solve", "riu-pgh-lcs-yao", "--max-words", "3", "--limit", "0"],
    (i) => i.boxed.solve("riu,pgh,lcs,yao", { maxWords: 3, limit: 0 }),
  ],
  [
    ["boxed", "solve", "riu", "pgh", "lcs", "yao", "--fewest", "--max-words", "5"],
    (i) => i.boxed.solve("riu pgh lcs yao", { fewest: true, maxWords: 5 }),
  ],
  [["boxed", "solve", "gme", "alx", "--max-words", "1"], (i) => i.boxed.solve("gme alx", { maxWords: 1 })],
  [
    ["boxed", "check", "riu-pgh-lcs-yao", "gracious", "sharp", "sharply", "yg", "soup", "pa"],
    (i) => i.boxed.check("riu pgh lcs yao", "gracious sharp sharply yg soup pa"),
  ],
  [["anigram", "check", "ride", "dried", "riddle", "xx", "riddles"], (i) => i.anigram.check(["ride", "dried", "riddle", "xx", "riddles"])],
  [["anigram", "unscramble", "deir"], (i) => i.anigram.unscramble("deir")],
  [["anigram", "longest"], (i) => i.anigram.longest()],
  [["anigram", "longest", "--from", "ride"], (i) => i.anigram.longest({ from: "ride" })],
  [["anigram", "count"], (i) => i.anigram.count()],
  [["anigram", "count", "--from", "beep", "--goal-len", "6"], (i) => i.anigram.count({ from: "beep", goalLen: 6 })],
  [["anigram", "top", "--top", "3"], (i) => i.anigram.top({ top: 3 })],
  [["find", "c?t"], (i) => i.find("c?t")],
  [["find", "*ing", "--limit", "0"], (i) => i.find("*ing", { limit: 0 })],
  [["find", "[aeiou]*", "--len", "5", "--limit", "3"], (i) => i.find("[aeiou]*", { len: 5, limit: 3 })],
  [["anagram", "listen"], (i) => i.anagram("listen")],
  [["anagram", "retain?"], (i) => i.anagram("retain?")],
  [["anagram", "orchestra", "--sub", "--min-len", "6"], (i) => i.anagram("orchestra", { sub: true, minLen: 6 })],
  [
    ["anagram", "--words", "tom marvolo riddle", "--max-words", "3"],
    (i) => i.anagram("tom marvolo riddle", { words: true, maxWords: 3 }),
  ],
];
const ENABLE1_ONLY = [
  [["boxed", "generate", "--seed", "7"], (i) => i.boxed.generate({ seed: 7 })],
  [["boxed", "generate", "--seed", "3", "--common-only", "--limit", "0"], (i) => i.boxed.generate({ seed: 3, commonOnly: true, limit: 0 })],
  [["anigram", "generate", "--seed", "42"], (i) => i.anigram.generate({ seed: 42 })],
  [["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "4", "--limit", "3"], (i) => i.boxed.solve("riu pgh lcs yao", { maxWords: 4, limit: 3 })],
];

/** `info` from bytes has no path; the rest is the CLI's. */
function withPath(answer, expected) {
  return answer && "path" in answer && answer.path === null ? { ...answer, path: expected.path } : answer;
}

test("every export answers as the CLI does on the golden index", async () => {
  const idx = await wordhoard.openFile(golden);
  for (const [args, ask] of CASES) {
    const expected = cliJson(golden, args);
    assert.deepEqual(withPath(ask(idx), expected), expected, args.join(" "));
  }
});

test("every export answers as the CLI does on enable1, with the seeds' figures", async (t) => {
  if (!enable1) return t.skip("the shared word lists are missing");
  const idx = wordhoard.Index.fromBytesSync(readFileSync(enable1));
  for (const [args, ask] of [...CASES, ...ENABLE1_ONLY]) {
    const expected = cliJson(enable1, args);
    assert.deepEqual(withPath(ask(idx), expected), expected, args.join(" "));
  }
  assert.equal(idx.bee.best({ top: 1 }).honeycombs[0].score, 3898);
  assert.equal(idx.bee.best({ top: 1, exclude: "" }).honeycombs[0].score, 8681);
  assert.equal(idx.anigram.count().games, 4510515);
  assert.equal(idx.anigram.longest().length, 13);
  assert.equal(idx.boxed.solve("riu pgh lcs yao").count, 120);
  const popular = new Set(readFileSync(join(wordlists(), "popular.txt"), "utf8").split("\n"));
  const asked = ["sharply", "gracious", "psychological", "zzzz", "sharply"];
  assert.deepEqual(idx.commonWords(asked), [...new Set(asked.filter((w) => popular.has(w)))].sort());
});

test("errors are the package's classes, naming the option at fault as the package spells it", async () => {
  const idx = await wordhoard.openFile(golden);
  const { UsageError, BadIndexError, LimitError, WordhoardError } = wordhoard;
  assert.ok(new UsageError("x") instanceof Error && new LimitError("x") instanceof WordhoardError);
  const bad = spawnSync(cli, ["--index", golden, "bee", "solve", "aeg1"], { encoding: "utf8" });
  assert.throws(
    () => idx.bee.solve("aeg1"),
    (e) => e instanceof UsageError && e.param === "letters" && bad.stderr.includes(e.message.replace("`letters`", "letters")),
  );
  assert.throws(() => idx.bee.solve("aeginrt", { centre: "r" }), (e) => e instanceof UsageError && /centre/.test(e.message));
  assert.throws(
    () => idx.boxed.solve("riu pgh lcs yao", { maxWords: 99 }),
    (e) => e instanceof UsageError && e.param === "maxWords" && e.message === "`maxWords` must be 1 to 8",
  );
  assert.throws(() => idx.find("[ab"), UsageError);
  assert.throws(() => idx.ask("bee fly"), UsageError);
  assert.throws(() => wordhoard.Index.fromBytesSync(new Uint8Array(0)), BadIndexError);
  assert.throws(() => wordhoard.Index.fromBytesSync(new TextEncoder().encode("not an index at all")), BadIndexError);
  await assert.rejects(wordhoard.openFile(join(work, "missing.hoard")), { code: "ENOENT" });
});

test("hostile files give errors, never a trap, and agree with the CLI", () => {
  const data = readFileSync(golden);
  const files = [];
  for (let at = 0; at < data.length; at += 53) {
    const damaged = Uint8Array.from(data);
    damaged[at] ^= 0x5a;
    files.push([`flip@${at}`, damaged]);
  }
  const dir = join(root, "fuzz/regressions/index_bytes");
  for (const f of readdirSync(dir)) files.push([f, readFileSync(join(dir, f))]);
  const questions = [
    [["bee", "solve", "aeginrt"], (i) => i.bee.solve("aeginrt")],
    [["bee", "best", "--top", "3"], (i) => i.bee.best({ top: 3 })],
    [["boxed", "solve", "riu", "pgh", "lcs", "yao"], (i) => i.boxed.solve("riu pgh lcs yao")],
    [["anigram", "count"], (i) => i.anigram.count()],
    [["find", "*e*"], (i) => i.find("*e*")],
    [["anagram", "retain?", "--sub"], (i) => i.anagram("retain?", { sub: true })],
  ];
  let errors = 0;
  const path = join(work, "hostile.hoard");
  for (const [name, bytes] of files) {
    writeFileSync(path, bytes);
    let idx = null;
    try {
      idx = wordhoard.Index.fromBytesSync(bytes);
    } catch (e) {
      assert.ok(e instanceof wordhoard.WordhoardError, `${name}: ${e}`);
      errors++;
    }
    for (const [args, ask] of questions) {
      const done = spawnSync(cli, ["--index", path, ...args, "--json"], { encoding: "utf8" });
      if (idx === null) continue; // the package checks every section on open; the CLI on first use
      let got;
      try {
        got = ask(idx);
      } catch (e) {
        assert.ok(e instanceof wordhoard.WordhoardError, `${name} ${args.join(" ")}: ${e}`);
        assert.notEqual(done.status, 0, `${name} ${args.join(" ")}: the package failed, the CLI answered`);
        errors++;
        continue;
      }
      assert.equal(done.status, 0, `${name} ${args.join(" ")}: the CLI failed, the package answered`);
      assert.deepEqual(got, JSON.parse(done.stdout), `${name} ${args.join(" ")}`);
    }
  }
  assert.ok(errors > files.length / 2, `most damaged files are caught (${errors})`);
});

test("letters past a-z: typed as NFC or NFD, folded or kept, as the CLI reads them", () => {
  const data = join(root, "tests/data");
  const builds = [
    ["german", ["build", join(data, "german-words.txt")]],
    ["romance", ["build", join(data, "romance-words.txt"), "--fold", "accents", "--keep", "ñ"]],
  ];
  for (const [name, args] of builds) {
    const path = join(work, `${name}.hoard`);
    execFileSync(cli, [...args, "-o", path], { stdio: "ignore" });
    const idx = wordhoard.Index.fromBytesSync(readFileSync(path));
    for (const typed of ["ÄPFEL", "bär", "CAFÉ", "élève", "niño", "canon"]) {
      let expected;
      const done = spawnSync(cli, ["--index", path, "anigram", "unscramble", typed, "--json"], { encoding: "utf8" });
      for (const form of ["NFC", "NFD"]) {
        const asked = typed.normalize(form);
        if (done.status === 0) {
          expected = JSON.parse(done.stdout);
          assert.deepEqual(idx.anigram.unscramble(asked), expected, `${name} ${form} ${typed}`);
        } else {
          assert.throws(() => idx.anigram.unscramble(asked), wordhoard.UsageError, `${name} ${form} ${typed}`);
        }
      }
      const found = spawnSync(cli, ["--index", path, "find", typed.toLowerCase(), "--json"], { encoding: "utf8" });
      if (found.status === 0) {
        // `pattern` echoes what was typed; the words and count are the CLI's.
        const { pattern, ...rest } = idx.find(typed.normalize("NFD"));
        const { pattern: typedPattern, ...expectedRest } = JSON.parse(found.stdout);
        assert.equal(pattern, typed.normalize("NFD"));
        assert.deepEqual(rest, expectedRest, `${name} find ${typed} (${typedPattern})`);
      }
    }
  }
});
