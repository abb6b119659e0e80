//! wordhoard in a web page: `wordhoard-query` compiled to WebAssembly.
//!
//! The page fetches an index file and hands its bytes to [`Hoard::new`]; every
//! question is then answered from those bytes, with no server behind the
//! page. Answers are JSON text in the shapes `wordhoard --json` prints (built
//! by [`wordhoard_query::json`], so the two cannot drift apart); the page
//! calls `JSON.parse` on them.
//!
//! The questions themselves are plain Rust in [`Hoard`]'s inherent methods,
//! tested natively; the `#[wasm_bindgen]` block only renames them for
//! JavaScript and turns errors into exceptions. An index is untrusted input
//! here as anywhere: its header and sections are checked on open and each
//! section's checksum on first use, and a damaged file is an error message,
//! never a trap.

use std::ops::ControlFlow;

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wordhoard_query::boxed::{self, LetterBox, Solver};
use wordhoard_query::format::SectionId;
use wordhoard_query::request::{self, Query};
use wordhoard_query::{json, Error, Index};

/// The most solutions a page lists for a box: the rest are counted, not
/// shown (a box can have millions).
pub const MAX_LISTED_SOLUTIONS: usize = 500;

/// An open index, held in the page's memory.
#[wasm_bindgen]
pub struct Hoard {
    index: Index<Vec<u8>>,
}

/// Guesses typed in a list: split on spaces, commas, dashes.
fn split_list(text: &str) -> Vec<String> {
    request::split_sides(&[text])
}

/// The honeycomb typed; an empty centre field means "the first letter",
/// as in the CLI.
fn honeycomb(letters: &str, center: &str, common_only: bool) -> request::Honeycomb {
    let center = Some(center.trim()).filter(|c| !c.is_empty()).map(str::to_string);
    request::Honeycomb { letters: letters.to_string(), center, common_only }
}

impl Hoard {
    /// Opens an index from its bytes: checks the header, the section
    /// table and every section's checksum. A reader elsewhere checks each
    /// checksum on a section's first use; a page checks them all now, so
    /// a download that went wrong is one message at load, and no first
    /// query pays for a checksum.
    pub fn open(bytes: Vec<u8>) -> Result<Hoard, Error> {
        let index = Index::from_bytes(bytes)?;
        for id in SectionId::ALL {
            if index.has_section(id) {
                index.section(id)?;
            }
        }
        Ok(Hoard { index })
    }

    /// The index: its name, word count, alphabet and whether it has a
    /// common list (`{"name", "words", "alphabet", "common"}`).
    pub fn describe(&self) -> Value {
        let meta = self.index.metadata();
        json!({
            "name": meta.name,
            "words": self.index.word_count(),
            "alphabet": meta.alphabet,
            "common": self.index.has_common_list(),
        })
    }

    /// Asks the request layer, as the CLI does.
    fn ask<Q: Query>(&self, q: &Q) -> Result<Value, Error> {
        q.run(&self.index).map(|out| q.json(&self.index, &out))
    }

    /// `bee solve`: every word of a honeycomb, scored.
    pub fn bee_solve(&self, letters: &str, center: &str, common_only: bool) -> Result<Value, Error> {
        self.ask(&request::BeeSolve(honeycomb(letters, center, common_only)))
    }

    /// `bee hints`: counts by first letter and length, no words.
    pub fn bee_hints(&self, letters: &str, center: &str, common_only: bool) -> Result<Value, Error> {
        self.ask(&request::BeeHints(honeycomb(letters, center, common_only)))
    }

    /// `bee check`: a verdict on each guess (whitespace or commas between
    /// them), the rank reached, and hints for what is left.
    pub fn bee_check(&self, letters: &str, center: &str, guesses: &str, common_only: bool) -> Result<Value, Error> {
        let comb = honeycomb(letters, center, common_only);
        let words = split_list(guesses);
        self.ask(&request::BeeCheck {
            letters: comb.letters,
            center: comb.center,
            words,
            found: Vec::new(),
            common_only,
        })
    }

    /// `boxed solve` for the solutions with the fewest words: it counts
    /// the solutions of 1 word, then 2, and so on up to `max_words`, and
    /// stops at the first count that is not 0; the answer is then the
    /// CLI's `boxed solve --max-words K` for that K (counts up to K, and
    /// the first `limit` solutions, all of K words). Counting further
    /// would be wasted: past the fewest, counts grow fast (105,242
    /// solutions of up to 3 words for RIU PGH LCS YAO, against 120 of 2).
    /// With none up to `max_words`, `shortest` says how many words the
    /// fewest take. Besides the CLI's keys, `common` lists the listed
    /// solutions' words that are on the index's common list, so the page
    /// can mark them. At most [`MAX_LISTED_SOLUTIONS`] are listed.
    pub fn boxed_solve(&self, sides: &str, max_words: usize, limit: usize) -> Result<Value, Error> {
        let letter_box = LetterBox::parse(self.index.alphabet(), &request::split_sides(&[sides]))?;
        let limit = if limit == 0 { MAX_LISTED_SOLUTIONS } else { limit.min(MAX_LISTED_SOLUTIONS) };
        let base = boxed::SolveOptions { max_words, limit, ..boxed::SolveOptions::default() };
        // One search: count 1 word, 2, ... up to the first count above 0,
        // then list only that many (the counts are memoised).
        let mut solver = Solver::new(&self.index, &letter_box, &base)?;
        let mut searched = max_words;
        for k in 1..=max_words {
            if solver.count(k)? > 0 {
                searched = k;
                break;
            }
        }
        solver.lower_max_words(searched)?;
        let counts = solver.counts()?;
        let shortest =
            if counts.iter().all(|&n| n == 0) { boxed::shortest(&self.index, &letter_box, &base) } else { None };
        let mut solutions: Vec<Vec<String>> = Vec::new();
        let mut common: Vec<String> = Vec::new();
        // Stopping at the limit is not an error.
        let _ = solver.each_solution(|words| {
            common.extend(words.iter().filter(|w| w.common).map(|w| w.word.clone()));
            solutions.push(words.iter().map(|w| w.word.clone()).collect());
            if solutions.len() == limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        common.sort_unstable();
        common.dedup();
        let summary = json::BoxedSummary {
            letter_box: &letter_box,
            playable: solver.playable().len(),
            counts: &counts,
            max_words: searched,
            shortest,
        };
        let mut v = json::boxed_summary(&summary);
        v.insert("solutions".into(), json!(solutions));
        v.insert("common".into(), json!(common));
        Ok(Value::Object(v))
    }

    /// `bee generate --seed SEED`: a random honeycomb with a pangram, no S
    /// on an a-z index (the NYT never uses it), as the CLI picks it.
    pub fn bee_generate(&self, seed: u64, common_only: bool) -> Result<Value, Error> {
        self.ask(&request::BeeGenerate { seed: Some(seed), common_only, ..Default::default() })
    }

    /// `boxed generate --seed SEED`: a random box of 4 sides of 3 letters
    /// with a solution of at most 2 words.
    pub fn boxed_generate(&self, seed: u64, common_only: bool) -> Result<Value, Error> {
        self.ask(&request::BoxedGenerate { seed: Some(seed), common_only, ..Default::default() })
    }

    /// `anigram unscramble`: every word of these letters.
    pub fn anigram_unscramble(&self, letters: &str) -> Result<Value, Error> {
        self.ask(&request::AnigramUnscramble { letters: letters.to_string() })
    }

    /// `anigram longest --from TERM`: the longest chain from a word or term.
    pub fn anigram_longest(&self, from: &str) -> Result<Value, Error> {
        self.ask(&request::AnigramLongest { from: Some(from.to_string()), ..Default::default() })
    }
}

/// An error as a JavaScript exception with the library's one-line message.
fn thrown(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

fn text(v: Result<Value, Error>) -> Result<String, JsError> {
    v.map(|v| v.to_string()).map_err(thrown)
}

/// The JavaScript names: camelCase, answers as JSON text.
#[wasm_bindgen]
impl Hoard {
    /// Opens an index from the bytes of an index file.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: Vec<u8>) -> Result<Hoard, JsError> {
        Hoard::open(bytes).map_err(thrown)
    }

    /// `{"name", "words", "alphabet", "common"}`.
    #[wasm_bindgen(js_name = describe)]
    pub fn js_describe(&self) -> String {
        self.describe().to_string()
    }

    /// `bee solve` as JSON; `center` may be empty (the first letter).
    #[wasm_bindgen(js_name = beeSolve)]
    pub fn js_bee_solve(&self, letters: &str, center: &str, common_only: bool) -> Result<String, JsError> {
        text(self.bee_solve(letters, center, common_only))
    }

    /// `bee hints` as JSON.
    #[wasm_bindgen(js_name = beeHints)]
    pub fn js_bee_hints(&self, letters: &str, center: &str, common_only: bool) -> Result<String, JsError> {
        text(self.bee_hints(letters, center, common_only))
    }

    /// `bee check` as JSON; `guesses` separated by spaces, commas or lines.
    #[wasm_bindgen(js_name = beeCheck)]
    pub fn js_bee_check(
        &self,
        letters: &str,
        center: &str,
        guesses: &str,
        common_only: bool,
    ) -> Result<String, JsError> {
        text(self.bee_check(letters, center, guesses, common_only))
    }

    /// `boxed solve` as JSON, the fewest-word solutions only (`limit` 0:
    /// up to [`MAX_LISTED_SOLUTIONS`]).
    #[wasm_bindgen(js_name = boxedSolve)]
    pub fn js_boxed_solve(&self, sides: &str, max_words: usize, limit: usize) -> Result<String, JsError> {
        text(self.boxed_solve(sides, max_words, limit))
    }

    /// `bee generate --seed SEED` as JSON (a 32-bit seed from the page).
    #[wasm_bindgen(js_name = beeGenerate)]
    pub fn js_bee_generate(&self, seed: u32, common_only: bool) -> Result<String, JsError> {
        text(self.bee_generate(seed.into(), common_only))
    }

    /// `boxed generate --seed SEED` as JSON.
    #[wasm_bindgen(js_name = boxedGenerate)]
    pub fn js_boxed_generate(&self, seed: u32, common_only: bool) -> Result<String, JsError> {
        text(self.boxed_generate(seed.into(), common_only))
    }

    /// `anigram unscramble` as JSON.
    #[wasm_bindgen(js_name = anigramUnscramble)]
    pub fn js_anigram_unscramble(&self, letters: &str) -> Result<String, JsError> {
        text(self.anigram_unscramble(letters))
    }

    /// `anigram longest --from` as JSON.
    #[wasm_bindgen(js_name = anigramLongest)]
    pub fn js_anigram_longest(&self, from: &str) -> Result<String, JsError> {
        text(self.anigram_longest(from))
    }
}
