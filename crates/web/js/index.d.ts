// Types of the `wordhoard` package. Every answer is the object `wordhoard
// --json` prints for the same command and flags; integers past 2^53 come
// as strings of digits (`Count`).

/** A count: a number, or a string of digits when it is past 2^53. */
export type Count = number | string;

export class WordhoardError extends Error {}
export class UsageError extends WordhoardError {
  /** The option or argument at fault (`maxWords`), when one is. */
  param?: string;
}
export class BadIndexError extends WordhoardError {}
export class LimitError extends WordhoardError {}

/** Loads the WebAssembly engine (once); by default the .wasm beside the module. */
export function init(input?: string | URL | Request | Response | BufferSource | WebAssembly.Module): Promise<unknown>;

export interface ScoredWord { word: string; score: number; pangram: boolean; common: boolean }
export interface Rank { name: string; score: number }
export type Grid = Record<string, Record<string, number>>;
export interface BeeSolution {
  letters: string; center: string; score: number; count: number; pangrams: number; words: ScoredWord[];
}
export interface BeeReport extends BeeSolution {
  groups: { letters: string; score: number; count: number; words: { word: string; score: number }[] }[];
}
export interface BeeHints {
  letters: string; center: string; count: number; score: number; pangrams: number;
  perfect_pangrams: number; bingo: boolean; grid: Grid; two_letter: Record<string, number>; ranks: Rank[];
}
export interface BeeProgress {
  letters: string; center: string;
  guesses: { word: string; ok: boolean; reason: string | null; score: number; pangram: boolean }[];
  found: { count: number; score: number };
  rank: { name: string; score: number; next: Rank | null; genius: number; queen_bee: number };
  left: { count: number; score: number; pangrams: number; grid: Grid; two_letter: Record<string, number> };
}
export interface BeeBest {
  exclude: string; honeycombs: { letters: string; center: string; score: number; count: number; pangrams: number }[];
}
export interface BeeStats {
  words: number; valid: number; pangram_words: number; pangram_lettersets: number;
  candidate_honeycombs: number; exclude: string;
}
export interface BeeGenerated extends BeeSolution { seed: number }
export interface BoxedSolution {
  sides: string[]; playable: number; count: Count; count_by_words: Record<string, Count>;
  min_words: number | null; max_words: number; shortest: { words: number; count: Count } | null;
  solutions: string[][];
}
export interface BoxedGenerated {
  seed: number; sides: string[]; playable: number; count: Count; count_by_words: Record<string, Count>;
  min_words: number | null; common_only: boolean; tries: number; solutions: string[][];
}
export interface BoxedPlay {
  sides: string[];
  words: { word: string; verdict: "too_short" | "bad_letter" | "same_side" | "wrong_start" | "not_in_list" | "ok"; position: number | null }[];
  used: string; left: string; solved: boolean; played: number; par: number | null; finishes: Count;
}
export interface ChainPlay {
  words: { word: string; verdict: "not_in_list" | "not_one_more" | "ok"; added: string | null }[];
  length: number; longest_from_last: number | null;
}
export interface AnigramStep { term: string; words: string[] }
export interface AnigramChain { length: number; chain: AnigramStep[] }
export interface AnigramCount { start_len: number; goal_len: number; from: string | null; games: Count }
export interface AnigramTop { start_len: number; goal_len: number; terms: { term: string; games: Count; words: string[] }[] }
export interface Found { pattern: string; count: Count; words: string[] }
export interface Anagrams { letters: string; count: Count; words: { word: string; blanks: string }[] }
export interface PhraseAnagrams { phrase: string; count: Count; anagrams: string[][] }
export interface Info {
  path: string | null; format_version: number; name: string; words: number; alphabet: string; fold: string;
  keep: string; sources: { name: string; sha256: string }[]; source_sha256: string; lines_read: number;
  lines_skipped: number; common_source: { name: string; sha256: string } | null; common_words: number;
  excluded_words: number; exclude_sources: { name: string; sha256: string }[]; tool_version: string;
  built_at: string; built_at_unix: number; bytes: number;
  sections: { name: string; offset: number; bytes: number; crc32: string }[];
}
export interface Verified {
  path: string | null; ok: boolean; sections: { name: string; bytes: number; ok: boolean; problem: string | null }[];
}

export interface CommonOnly { commonOnly?: boolean }
export interface HoneycombOptions extends CommonOnly { center?: string }
export interface ExcludeOptions { exclude?: string }
export interface Bounds { minScore?: number; maxScore?: number; minWords?: number; maxWords?: number }

export interface Bee {
  solve(letters: string, options?: HoneycombOptions): BeeSolution;
  report(letters: string, options?: HoneycombOptions): BeeReport;
  hints(letters: string, options?: HoneycombOptions): BeeHints;
  check(letters: string, words: string | Iterable<string>, options?: HoneycombOptions & { found?: string | Iterable<string> }): BeeProgress;
  best(options?: ExcludeOptions & CommonOnly & { top?: number }): BeeBest;
  stats(options?: ExcludeOptions): BeeStats;
  generate(options?: ExcludeOptions & CommonOnly & Bounds & { seed?: number }): BeeGenerated;
}
export interface Boxed {
  solve(
    sides: string | Iterable<string>,
    options?: CommonOnly & {
      maxWords?: number; minLen?: number; limit?: number; fewest?: boolean;
      /** A box typed as one word (`riupghlcsyao`): its sides (default 4), or each side's letters. */
      sideCount?: number; size?: number;
    },
  ): BoxedSolution;
  generate(options?: CommonOnly & {
    seed?: number; sides?: number; size?: number; minSolutions?: number; maxSolutions?: number; limit?: number;
  }): BoxedGenerated;
  check(
    sides: string | Iterable<string>,
    words: string | Iterable<string>,
    options?: CommonOnly & { minLen?: number; sideCount?: number; size?: number },
  ): BoxedPlay;
}
export interface Anigram {
  unscramble(letters: string): AnigramStep;
  longest(options?: { from?: string; startLen?: number }): AnigramChain;
  count(options?: { from?: string; startLen?: number; goalLen?: number }): AnigramCount;
  top(options?: { top?: number; startLen?: number; goalLen?: number }): AnigramTop;
  generate(options?: CommonOnly & { seed?: number }): AnigramChain & { seed: number };
  check(words: string | Iterable<string>): ChainPlay;
}

export class Index {
  private constructor();
  static fromBytes(bytes: BufferSource | ArrayLike<number>): Promise<Index>;
  static fromBytesSync(bytes: BufferSource | ArrayLike<number>): Index;
  readonly bee: Bee;
  readonly boxed: Boxed;
  readonly anigram: Anigram;
  ask(command: string, args?: Record<string, unknown>): unknown;
  info(): Info;
  verify(): Verified;
  find(pattern: string, options?: CommonOnly & { len?: number; limit?: number }): Found;
  anagram(letters: string, options?: CommonOnly & { sub?: false; words?: false; minLen?: number; limit?: number }): Anagrams;
  anagram(
    phrase: string,
    options: CommonOnly & { words: true; minLen?: number; maxWords?: number; include?: string; limit?: number },
  ): PhraseAnagrams;
  anagram(letters: string, options: CommonOnly & { sub: true; minLen?: number; limit?: number }): Anagrams;
  commonWords(words: Iterable<string>): string[];
  free(): void;
}
