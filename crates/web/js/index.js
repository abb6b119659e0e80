// wordhoard for JavaScript: word-puzzle answers (NYT Spelling Bee, Letter
// Boxed, Anigrams, crossword patterns, anagrams) from a prebuilt wordhoard
// index, computed by the same Rust query library as the `wordhoard` CLI,
// compiled to WebAssembly.
//
// Every method mirrors a CLI command: options are its long flags in
// camelCase ({maxWords: 3, commonOnly: true, limit: 0}) and the answer is a
// plain object equal to what `wordhoard --json` prints for the same command
// and flags. Integers past 2^53 (Letter Boxed counts) are strings of digits.

import initWasm, { Hoard } from "./wasm/wordhoard_web.js";

/** The base of wordhoard's errors; `message` is the CLI's message. */
export class WordhoardError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}
/**
 * Bad input: letters outside the index's alphabet, an unknown or out-of-range
 * option. `param` names the option or argument at fault (`maxWords`), when one is.
 */
export class UsageError extends WordhoardError {}
/** The index file is damaged, hostile, or not an index: rebuild it. */
export class BadIndexError extends WordhoardError {}
/** The question would take more time or memory than a query may. */
export class LimitError extends WordhoardError {}

const KINDS = { usage: UsageError, bad_index: BadIndexError, limit: LimitError };

/** The error the engine threw, as the package's class. */
function rethrown(e) {
  if (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) {
    return new WordhoardError(`internal error in wordhoard (${e.message}); please report it`);
  }
  let info;
  try {
    info = JSON.parse(e?.message);
  } catch {
    return e;
  }
  const Kind = KINDS[info?.kind] ?? WordhoardError;
  if (typeof info?.param === "string") {
    // The option at fault, named as this package spells it.
    const param = info.param.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
    const error = new Kind(`\`${param}\` ${info.problem}`);
    error.param = param;
    return error;
  }
  return new Kind(String(info?.message ?? e.message));
}

let ready = null;

/**
 * Loads the WebAssembly engine once. `input` is where its bytes come from:
 * a URL, a Response, bytes, or a WebAssembly.Module; by default the
 * `wordhoard_web_bg.wasm` beside this module (fetched). Node's entry
 * (`wordhoard` under Node) loads it from the package folder by itself.
 */
export function init(input) {
  ready ??= initWasm(input === undefined ? undefined : { module_or_path: input }).catch((e) => {
    ready = null;
    throw e;
  });
  return ready;
}

/** Option names as the request layer spells them: `maxWords` -> `max_words`. */
function snake(options) {
  const out = {};
  for (const [key, value] of Object.entries(options ?? {})) {
    if (value === undefined || value === null) continue;
    out[key.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase())] = value;
  }
  return out;
}

const sidesOf = (sides) => (typeof sides === "string" ? [sides] : [...sides]);
const wordsOf = (words) => (typeof words === "string" ? words.split(/\s+/).filter(Boolean) : [...(words ?? [])]);

/** An open index. Make one with `Index.fromBytes` (or `openFile` in Node). */
export class Index {
  #hoard;

  /** @private Use Index.fromBytes. */
  constructor(hoard) {
    if (!(hoard instanceof Hoard)) throw new TypeError("use Index.fromBytes(bytes) to open an index");
    this.#hoard = hoard;
    const ask = (command, args) => this.#ask(command, args);
    /** The NYT Spelling Bee. */
    this.bee = {
      solve: (letters, o = {}) => ask("bee solve", { ...snake(o), letters }),
      report: (letters, o = {}) => ask("bee report", { ...snake(o), letters }),
      hints: (letters, o = {}) => ask("bee hints", { ...snake(o), letters }),
      check: (letters, words, o = {}) =>
        ask("bee check", { ...snake(o), letters, words: wordsOf(words), found: wordsOf(o.found) }),
      best: (o = {}) => ask("bee best", snake(o)),
      stats: (o = {}) => ask("bee stats", snake(o)),
      generate: (o = {}) => ask("bee generate", snake(o)),
    };
    /** The NYT Letter Boxed. */
    this.boxed = {
      solve: (sides, o = {}) => ask("boxed solve", { ...snake(o), sides: sidesOf(sides) }),
      generate: (o = {}) => ask("boxed generate", snake(o)),
      check: (sides, words, o = {}) => ask("boxed check", { ...snake(o), sides: sidesOf(sides), words: wordsOf(words) }),
    };
    /** Anigrams: nested anagram chains. */
    this.anigram = {
      unscramble: (letters) => ask("anigram unscramble", { letters }),
      longest: (o = {}) => ask("anigram longest", snake(o)),
      count: (o = {}) => ask("anigram count", snake(o)),
      top: (o = {}) => ask("anigram top", snake(o)),
      generate: (o = {}) => ask("anigram generate", snake(o)),
      check: (words) => ask("anigram check", { words: wordsOf(words) }),
    };
  }

  /** Opens an index from the bytes of an index file (loading the engine first). */
  static async fromBytes(bytes) {
    await init();
    return Index.fromBytesSync(bytes);
  }

  /** Opens an index from its bytes once the engine is loaded (`await init()`). */
  static fromBytesSync(bytes) {
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    try {
      return new Index(new Hoard(data));
    } catch (e) {
      throw rethrown(e);
    }
  }

  #ask(command, args) {
    let text;
    try {
      text = this.#hoard.ask(command, JSON.stringify(args));
    } catch (e) {
      throw rethrown(e);
    }
    return JSON.parse(text);
  }

  /** Asks any command by the CLI's name (`"bee solve"`) with snake_case arguments. */
  ask(command, args = {}) {
    return this.#ask(command, args);
  }

  /** The header, metadata and sections: `wordhoard info --json` (`path` is null). */
  info() {
    return this.#ask("info", {});
  }

  /** Every section's checksum and structure: `wordhoard verify --json`. */
  verify() {
    return this.#ask("verify", {});
  }

  /** Words matching a crossword pattern (`c?t`, `*ing`, `[aeiou]?[^s]`): `wordhoard find --json`. */
  find(pattern, o = {}) {
    return this.#ask("find", { ...snake(o), pattern });
  }

  /** Anagrams (`?` a blank); `{sub: true}` of some letters; `{words: true}` of a phrase in words. */
  anagram(letters, o = {}) {
    return this.#ask("anagram", { ...snake(o), letters });
  }

  /** Which of `words` are on the index's common list (sorted, distinct). */
  commonWords(words) {
    try {
      return JSON.parse(this.#hoard.commonWords(JSON.stringify([...words])));
    } catch (e) {
      throw rethrown(e);
    }
  }

  /** Frees the index's memory now rather than when it is collected. */
  free() {
    this.#hoard.free();
  }
}
