//! One request layer: every command's question as a typed request, its
//! rules and defaults, and its answer as the JSON the CLI prints with
//! `--json`. The CLI, the web page and the Python package all ask through
//! here, so the same question gives the same JSON everywhere by
//! construction. Feature `json`.
//!
//! A request's fields are the command's arguments under their long-flag
//! names with `-` turned into `_` (`max_words`, `common_only`); missing
//! fields take the CLI's defaults. [`Request::parse`] reads one from a JSON
//! object (what a binding passes: Python's keyword arguments, JavaScript's
//! options), refusing unknown names. Each request type also implements
//! [`Query`]: [`Query::run`] gives the typed answer (for text output) and
//! [`Query::json`] its JSON shape, which [`Request::answer_into`] hands to
//! a reader's [`AnswerSink`] (JSON text for the CLI and JavaScript, a
//! [`Value`], Python's objects) with no [`Value`] built on the way.
//!
//! ```
//! use wordhoard_builder::{build_index, BuildOptions, WordSource};
//! use wordhoard_query::{request::Request, Index};
//!
//! let list = "game\ngames\namalgam\nglam\nmegaplex\n";
//! let built = build_index(&[WordSource::from_text("tiny", list)], &BuildOptions::default()).unwrap();
//! let index = Index::from_bytes(built.into_bytes()).unwrap();
//! let args = serde_json::json!({"letters": "aeglmpx", "center": "g"});
//! let answer = Request::parse("bee solve", &args)?.answer(&index, None)?;
//! assert_eq!(answer["score"], 7 + 1 + 1 + 15);
//! # Ok::<(), wordhoard_query::Error>(())
//! ```

use std::ops::ControlFlow;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::anagram::{self, AnagramOptions, PhraseOptions};
use crate::anigram::{self, Anigrams, Game, Start, Step, TermGames};
use crate::bee::{self, Bounds, Hints, Progress, ReportGroup, Solution, SolveOptions};
use crate::boxed::{self, Generated, LetterBox, Solver};
use crate::find::{self, FindOptions, Pattern};
use crate::format::SourceFile;
use crate::json::{self as shapes, iso_time, JsonShape};
use crate::{Error, ErrorKind, Index, LetterSet, Result, SectionCheck};

/// The one rule for every count of things to list (`top`, `limit`): 0
/// means all of them.
pub fn all_if_zero(n: usize) -> usize {
    if n == 0 {
        usize::MAX
    } else {
        n
    }
}

/// A seed from the clock, for `generate` without `seed`.
pub fn clock_seed() -> u64 {
    // wasm32-unknown-unknown has no clock: the page always passes a seed.
    #[cfg(all(target_arch = "wasm32", not(target_os = "wasi")))]
    return 0;
    #[cfg(not(all(target_arch = "wasm32", not(target_os = "wasi"))))]
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
}

/// The letters a honeycomb may not have: `exclude` as given, else S on an
/// English (a-z) index, as the NYT never uses S, and none on any other.
pub fn exclude_set<D: AsRef<[u8]>>(index: &Index<D>, exclude: Option<&str>) -> Result<LetterSet> {
    let default = if index.alphabet().is_latin() { "s" } else { "" };
    index.alphabet().parse_distinct(exclude.unwrap_or(default), "exclude")
}

/// The sides of a box as typed: each item may hold several, split at `-`,
/// `,`, `/` or whitespace (`riu-pgh-lcs-yao`, `"riu pgh lcs yao"`). One
/// piece alone is the compact form (`riupghlcsyao`), cut into `side_count`
/// sides (default 4, the NYT's) or sides of `size` letters.
pub fn split_sides(items: &[impl AsRef<str>], side_count: Option<usize>, size: Option<usize>) -> Result<Vec<String>> {
    let pieces: Vec<String> = items
        .iter()
        .flat_map(|a| a.as_ref().split(|c: char| matches!(c, '-' | ',' | '/') || c.is_whitespace()))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let [compact] = pieces.as_slice() else { return Ok(pieces) };
    let letters: Vec<char> = compact.chars().collect();
    let n = letters.len();
    // Too few letters for 4 sides of 2: a box of one side, which the box
    // refuses as such.
    if (side_count, size) == (None, None) && n < 8 {
        return Ok(pieces);
    }
    let size = match (side_count, size) {
        (Some(0), _) => return Err(Error::invalid_param("side_count", "must be at least 1")),
        (_, Some(0)) => return Err(Error::invalid_param("size", "must be at least 1")),
        (Some(count), Some(size)) if count.checked_mul(size) == Some(n) => size,
        (Some(count), Some(size)) => {
            return Err(Error::invalid(format!(
                "{compact:?} has {n} letters, not {count} sides of {size}; separate the sides (riu-pgh-lcs-yao)"
            )))
        }
        (None, Some(size)) if n % size == 0 => size,
        (count, None) if n % count.unwrap_or(4) == 0 => n / count.unwrap_or(4),
        (count, size) => {
            let cut = match (count, size) {
                (_, Some(size)) => format!("sides of {size}"),
                (count, None) => format!("{} equal sides", count.unwrap_or(4)),
            };
            return Err(Error::invalid(format!(
                "{compact:?} has {n} letters, which do not make {cut}; give the number of sides or their size, \
                 or separate the sides (riu-pgh-lcs-yao)"
            )));
        }
    };
    Ok(letters.chunks(size).map(|side| side.iter().collect()).collect())
}

/// The JSON of an answer, with its words as the lists spelled them
/// ([`respell`]): what `wordhoard --json` prints.
pub fn answer_json<Q: Query, D: AsRef<[u8]> + Sync>(q: &Q, index: &Index<D>, out: &Q::Output) -> Result<Value> {
    let mut v = q.json(index, out).into_value()?;
    respell(index, &mut v)?;
    Ok(v)
}

/// What a reader makes of an answer's JSON shape: text (the CLI, the
/// JavaScript package), a [`Value`], or a binding's own objects (Python's
/// dicts). Each serializes the shape as it is, with no [`Value`] built on
/// the way unless the index respells its words.
pub trait AnswerSink {
    /// What the answer becomes.
    type Out;
    /// Serializes `shape`.
    fn take<S: Serialize + ?Sized>(self, shape: &S) -> Result<Self::Out>;
}

/// JSON text, through a formatter (the JavaScript package's writes
/// integers past 2^53 as strings).
#[derive(Clone, Copy, Debug)]
pub struct Text<F>(pub F);

impl<F: serde_json::ser::Formatter> AnswerSink for Text<F> {
    type Out = String;
    fn take<S: Serialize + ?Sized>(self, shape: &S) -> Result<String> {
        let mut text = Vec::new();
        shape
            .serialize(&mut serde_json::Serializer::with_formatter(&mut text, self.0))
            .map_err(|e| Error::invalid(format!("the answer as JSON: {e}")))?;
        // serde_json writes UTF-8 only.
        String::from_utf8(text).map_err(|e| Error::invalid(format!("the answer as JSON: {e}")))
    }
}

/// A [`Value`], for [`Request::answer`].
struct ToValue;

impl AnswerSink for ToValue {
    type Out = Value;
    fn take<S: Serialize + ?Sized>(self, shape: &S) -> Result<Value> {
        serde_json::to_value(shape).map_err(|e| Error::invalid(format!("the answer as JSON: {e}")))
    }
}

/// The answer's JSON into `sink`: straight from its shape, or through
/// [`answer_json`] on an index that respells its words.
pub fn answer_into<Q: Query, D: AsRef<[u8]> + Sync, K: AnswerSink>(
    q: &Q,
    index: &Index<D>,
    out: &Q::Output,
    sink: K,
) -> Result<K::Out> {
    if index.has_spellings() {
        sink.take(&answer_json(q, index, out)?)
    } else {
        sink.take(&q.json(index, out))
    }
}

/// [`answer_json`] as compact JSON text (see [`answer_into`]).
pub fn answer_text<Q: Query, D: AsRef<[u8]> + Sync>(q: &Q, index: &Index<D>, out: &Q::Output) -> Result<String> {
    answer_into(q, index, out, Text(serde_json::ser::CompactFormatter))
}

/// On an index that folds accents, shows each word of an answer as the
/// lists spelled it (`camión`, found as `camion`): an object's `"word"` gets
/// the spelling and a `"folded"` field with the word; the words of a list
/// (`"words"`, `"solutions"`) get their spellings, and the answer a
/// `"folded"` object from each spelling shown to its word. Nothing changes
/// on other indexes.
pub fn respell<D: AsRef<[u8]>>(index: &Index<D>, answer: &mut Value) -> Result<()> {
    if !index.has_spellings() {
        return Ok(());
    }
    let mut folded = serde_json::Map::new();
    respell_in(index, answer, &mut folded, 0)?;
    if let (false, Value::Object(top)) = (folded.is_empty(), answer) {
        top.insert("folded".into(), Value::Object(folded));
    }
    Ok(())
}

/// Answers nest a few levels (a chain's steps' words); deeper is not ours.
const RESPELL_DEPTH: usize = 8;

fn respell_in<D: AsRef<[u8]>>(
    index: &Index<D>,
    v: &mut Value,
    folded: &mut serde_json::Map<String, Value>,
    depth: usize,
) -> Result<()> {
    if depth > RESPELL_DEPTH {
        return Ok(());
    }
    match v {
        Value::Object(o) => {
            if let Some(Value::String(word)) = o.get("word") {
                if let Some(spelled) = index.spelling_of(word)? {
                    let word = word.clone();
                    o.insert("word".into(), Value::String(spelled));
                    o.insert("folded".into(), Value::String(word));
                }
            }
            for (key, child) in o.iter_mut() {
                if key == "words" || key == "solutions" {
                    respell_list(index, child, folded, depth)?;
                }
                respell_in(index, child, folded, depth + 1)?;
            }
        }
        Value::Array(items) => {
            for item in items {
                respell_in(index, item, folded, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The words of a list (or of a list of solutions), respelled in place.
fn respell_list<D: AsRef<[u8]>>(
    index: &Index<D>,
    v: &mut Value,
    folded: &mut serde_json::Map<String, Value>,
    depth: usize,
) -> Result<()> {
    match v {
        Value::String(word) => {
            if let Some(spelled) = index.spelling_of(word)? {
                folded.insert(spelled.clone(), Value::String(std::mem::replace(word, spelled)));
            }
        }
        Value::Array(items) if depth <= RESPELL_DEPTH => {
            for item in items {
                respell_list(index, item, folded, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A question with a typed answer and that answer's JSON.
pub trait Query {
    /// The typed answer.
    type Output;
    /// Its JSON shape: a [`Value`], or a typed shape borrowing the answer
    /// for the answers that list many items (see [`crate::json`]).
    type Json<'o>: JsonShape
    where
        Self: 'o;
    /// Answers the question.
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output>;
    /// The answer as `wordhoard --json` prints it.
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, index: &Index<D>, output: &'o Self::Output) -> Self::Json<'o>;
}

/// A honeycomb: `bee solve`, `report`, `hints`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Honeycomb {
    /// The honeycomb's distinct letters.
    pub letters: String,
    /// The centre letter (default: the first letter given).
    pub center: Option<String>,
    /// Only words of the common list.
    pub common_only: bool,
}

impl Honeycomb {
    /// The puzzle these letters make.
    pub fn puzzle<D: AsRef<[u8]>>(&self, index: &Index<D>) -> Result<bee::Puzzle> {
        bee::Puzzle::parse(index.alphabet(), &self.letters, self.center.as_deref())
    }

    fn opts(&self) -> SolveOptions {
        SolveOptions { common_only: self.common_only }
    }
}

/// `bee solve`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct BeeSolve(pub Honeycomb);

impl Query for BeeSolve {
    type Output = Solution;
    type Json<'o> = shapes::BeeSolutionJson<'o>;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Solution> {
        bee::solve(index, self.0.puzzle(index)?, &self.0.opts())
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, s: &'o Solution) -> Self::Json<'o> {
        shapes::bee_solution(s)
    }
}

/// `bee report`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct BeeReport(pub Honeycomb);

impl Query for BeeReport {
    type Output = (Solution, Vec<ReportGroup>);
    type Json<'o> = shapes::BeeSolutionJson<'o>;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output> {
        bee::report(index, self.0.puzzle(index)?, &self.0.opts())
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, (solution, groups): &'o Self::Output) -> Self::Json<'o> {
        shapes::bee_report(solution, groups)
    }
}

/// `bee hints`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct BeeHints(pub Honeycomb);

impl Query for BeeHints {
    type Output = Hints;
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Hints> {
        bee::hints(index, self.0.puzzle(index)?, &self.0.opts())
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, h: &'o Hints) -> Self::Json<'o> {
        shapes::bee_hints(h)
    }
}

/// `bee check`: guesses in order, the found words first.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BeeCheck {
    /// The honeycomb's distinct letters.
    pub letters: String,
    /// The centre letter (default: the first letter given).
    pub center: Option<String>,
    /// The guesses, in order.
    pub words: Vec<String>,
    /// Words found before (the CLI reads them from `--found FILE`), checked first.
    pub found: Vec<String>,
    /// Only words of the common list.
    pub common_only: bool,
}

impl Query for BeeCheck {
    type Output = Progress;
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Progress> {
        let comb =
            Honeycomb { letters: self.letters.clone(), center: self.center.clone(), common_only: self.common_only };
        let guesses: Vec<String> = self.found.iter().chain(&self.words).cloned().collect();
        bee::check(index, comb.puzzle(index)?, &guesses, &comb.opts())
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, p: &'o Progress) -> Self::Json<'o> {
        shapes::bee_progress(p)
    }
}

/// `bee best`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BeeBest {
    /// How many to list (0: all).
    pub top: usize,
    /// Letters no honeycomb may have (default: see [`exclude_set`]).
    pub exclude: Option<String>,
    /// Score only common words.
    pub common_only: bool,
}

impl Default for BeeBest {
    fn default() -> BeeBest {
        BeeBest { top: 10, exclude: None, common_only: false }
    }
}

impl Query for BeeBest {
    type Output = (LetterSet, Vec<bee::HoneycombScore>);
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output> {
        let excluded = exclude_set(index, self.exclude.as_deref())?;
        let opts = SolveOptions { common_only: self.common_only };
        Ok((excluded, bee::best(index, all_if_zero(self.top), excluded, &opts)?))
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(
        &'o self,
        index: &Index<D>,
        (excluded, combs): &'o Self::Output,
    ) -> Self::Json<'o> {
        json!({
            "exclude": index.alphabet().letters_of(*excluded),
            "honeycombs": combs.iter().map(|h| json!({"letters": h.letters, "center": h.center.to_string(),
                "score": h.score, "count": h.count, "pangrams": h.pangrams})).collect::<Vec<_>>(),
        })
    }
}

/// `bee stats`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BeeStats {
    /// Letters no honeycomb may have (default: see [`exclude_set`]).
    pub exclude: Option<String>,
}

impl Query for BeeStats {
    type Output = (LetterSet, bee::Stats);
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output> {
        let excluded = exclude_set(index, self.exclude.as_deref())?;
        Ok((excluded, bee::stats(index, excluded)?))
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, index: &Index<D>, (excluded, st): &'o Self::Output) -> Self::Json<'o> {
        json!({"words": st.words, "valid": st.valid, "pangram_words": st.pangram_words,
               "pangram_lettersets": st.pangram_lettersets, "candidate_honeycombs": st.candidate_honeycombs,
               "exclude": index.alphabet().letters_of(*excluded)})
    }
}

/// `bee generate`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BeeGenerate {
    /// The seed (default: from the clock).
    pub seed: Option<u64>,
    /// Letters the honeycomb may not have (default: see [`exclude_set`]).
    pub exclude: Option<String>,
    /// Lowest total score.
    pub min_score: Option<u32>,
    /// Highest total score.
    pub max_score: Option<u32>,
    /// Fewest words.
    pub min_words: Option<u32>,
    /// Most words.
    pub max_words: Option<u32>,
    /// Count only common words.
    pub common_only: bool,
    /// Text output only: show the answers (JSON always has them).
    pub answers: bool,
}

impl Query for BeeGenerate {
    type Output = (u64, Solution);
    type Json<'o> = shapes::BeeSolutionJson<'o>;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output> {
        let seed = self.seed.unwrap_or_else(clock_seed);
        let opts = bee::GenerateOptions {
            seed,
            exclude: exclude_set(index, self.exclude.as_deref())?,
            score: Bounds { min: self.min_score, max: self.max_score },
            words: Bounds { min: self.min_words, max: self.max_words },
            common_only: self.common_only,
        };
        Ok((seed, bee::generate(index, &opts)?))
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, (seed, s): &'o Self::Output) -> Self::Json<'o> {
        shapes::bee_generated(s, *seed)
    }
}

/// `boxed solve`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BoxedSolve {
    /// The sides; each item may hold several (see [`split_sides`]).
    pub sides: Vec<String>,
    /// How many sides a compact box (`riupghlcsyao`) has (default 4).
    pub side_count: Option<usize>,
    /// How many letters each side of a compact box has.
    pub size: Option<usize>,
    /// Most words in a solution.
    pub max_words: usize,
    /// Shortest playable word.
    pub min_len: usize,
    /// How many solutions to list (0: all); the count is always complete.
    pub limit: usize,
    /// Play only common words.
    pub common_only: bool,
    /// Stop at the fewest words that solve the box (up to `max_words`):
    /// the counts and solutions are of that many words.
    pub fewest: bool,
}

impl Default for BoxedSolve {
    fn default() -> BoxedSolve {
        let d = boxed::SolveOptions::default();
        BoxedSolve {
            sides: Vec::new(),
            side_count: None,
            size: None,
            max_words: d.max_words,
            min_len: d.min_len,
            limit: d.limit,
            common_only: false,
            fewest: false,
        }
    }
}

/// A box's counts before its solutions: what `boxed solve` says first.
#[derive(Debug)]
pub struct BoxedCounts {
    /// The box.
    pub letter_box: LetterBox,
    /// Playable words.
    pub playable: usize,
    /// The most words a solution counted may take: `max_words`, or with
    /// `fewest` the fewest that solve the box.
    pub max_words: usize,
    /// Solutions by word count.
    pub counts: Vec<u128>,
    /// All solutions counted.
    pub count: u128,
    /// How many will be listed.
    pub listed: u128,
    /// With no solution: the fewest words one takes, and how many take that many.
    pub shortest: Option<(usize, u128)>,
}

impl BoxedSolve {
    /// The solver's options.
    pub fn options(&self) -> boxed::SolveOptions {
        boxed::SolveOptions {
            max_words: self.max_words,
            min_len: self.min_len,
            limit: self.limit,
            common_only: self.common_only,
        }
    }

    /// The box and its counts, and the solver ready to list its solutions
    /// in order ([`Solver::each_solution`]): the CLI streams them from here.
    pub fn start<D: AsRef<[u8]>>(&self, index: &Index<D>) -> Result<(BoxedCounts, Solver)> {
        let letter_box = LetterBox::parse(index.alphabet(), &split_sides(&self.sides, self.side_count, self.size)?)?;
        let opts = self.options();
        let mut solver = Solver::new(index, &letter_box, &opts)?;
        let mut max_words = self.max_words;
        if self.fewest {
            // One search on one memo: the first count above 0, then only
            // that many words are counted and listed.
            if let Some((k, _)) = solver.fewest(1..=self.max_words)? {
                max_words = k;
                solver.set_max_words(k)?;
            }
        }
        let counts = solver.counts()?;
        let count = counts
            .iter()
            .try_fold(0u128, |a, &b| a.checked_add(b))
            .ok_or_else(|| Error::new(ErrorKind::Limit("too many solutions to count".into())))?;
        let listed = if self.limit == 0 { count } else { count.min(self.limit as u128) };
        // With none, the fewest words past the maximum, on the same memo (a
        // search past its bounds names none).
        let shortest =
            if count == 0 { solver.fewest(self.max_words + 1..=boxed::MAX_WORDS_LIMIT).unwrap_or(None) } else { None };
        let playable = solver.playable().len();
        Ok((BoxedCounts { letter_box, playable, max_words, counts, count, listed, shortest }, solver))
    }

    /// The JSON object before `solutions`.
    pub fn summary(&self, c: &BoxedCounts) -> Map<String, Value> {
        shapes::boxed_summary(&shapes::BoxedSummary {
            letter_box: &c.letter_box,
            playable: c.playable,
            counts: &c.counts,
            max_words: c.max_words,
            shortest: c.shortest,
        })
    }
}

impl Query for BoxedSolve {
    type Output = (BoxedCounts, Vec<Vec<String>>);
    type Json<'o> = shapes::BoxedSolveJson<'o>;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output> {
        let (counts, mut solver) = self.start(index)?;
        let mut solutions: Vec<Vec<String>> = Vec::new();
        if counts.listed > 0 {
            // Stopping at the limit is not an error.
            let _ = solver.each_solution(|words| {
                solutions.push(words.iter().map(|w| w.word.to_string()).collect());
                if solutions.len() as u128 == counts.listed {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })?;
        }
        Ok((counts, solutions))
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(
        &'o self,
        _: &Index<D>,
        (counts, solutions): &'o Self::Output,
    ) -> Self::Json<'o> {
        shapes::boxed_solve(self.summary(counts), solutions)
    }
}

/// `boxed check BOX WORD...`: the player's words in order.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BoxedCheck {
    /// The box (see [`split_sides`]).
    pub sides: Vec<String>,
    /// How many sides a compact box (`riupghlcsyao`) has (default 4).
    pub side_count: Option<usize>,
    /// How many letters each side of a compact box has.
    pub size: Option<usize>,
    /// The words played, in order.
    pub words: Vec<String>,
    /// The shortest playable word.
    pub min_len: usize,
    /// Play only common words.
    pub common_only: bool,
}

impl Default for BoxedCheck {
    fn default() -> BoxedCheck {
        let d = boxed::SolveOptions::default();
        BoxedCheck {
            sides: Vec::new(),
            side_count: None,
            size: None,
            words: Vec::new(),
            min_len: d.min_len,
            common_only: false,
        }
    }
}

impl Query for BoxedCheck {
    type Output = (LetterBox, boxed::Play);
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output> {
        let letter_box = LetterBox::parse(index.alphabet(), &split_sides(&self.sides, self.side_count, self.size)?)?;
        let opts = boxed::SolveOptions { min_len: self.min_len, common_only: self.common_only, ..Default::default() };
        let play = boxed::check(index, &letter_box, &self.words, &opts)?;
        Ok((letter_box, play))
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, (letter_box, p): &'o Self::Output) -> Self::Json<'o> {
        let words = p.words.iter().map(|(word, v)| {
            let position = match v {
                boxed::Verdict::SameSide { position } => Some(*position),
                _ => None,
            };
            json!({"word": word, "verdict": v.as_str(), "position": position})
        });
        json!({
            "sides": letter_box.sides, "words": words.collect::<Vec<_>>(), "used": p.used, "left": p.left,
            "solved": p.solved(), "played": p.played, "par": p.par, "finishes": p.finishes,
        })
    }
}

/// `anigram check WORD...`: a chain as played.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnigramCheck {
    /// The words played, in order.
    pub words: Vec<String>,
}

impl Query for AnigramCheck {
    type Output = anigram::ChainPlay;
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<anigram::ChainPlay> {
        Anigrams::open(index)?.check(&self.words)
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, p: &'o anigram::ChainPlay) -> Self::Json<'o> {
        let words = p.words.iter().map(|w| json!({"word": w.word, "verdict": w.verdict.as_str(), "added": w.added}));
        json!({"words": words.collect::<Vec<_>>(), "length": p.length, "longest_from_last": p.longest_from_last})
    }
}

/// Which of `words` are on the index's common list, sorted and distinct
/// (none when it was built without one); words it does not have are left
/// out. For marking common words in a listing.
pub fn common_words<D: AsRef<[u8]>>(index: &Index<D>, words: &[impl AsRef<str>]) -> Result<Vec<String>> {
    let common = index.common()?;
    let mut out = Vec::new();
    for word in words {
        let Ok(codes) = index.alphabet().parse_word(word.as_ref(), "word") else { continue };
        if index.word_id(&codes)?.map(|id| common.is_common(id)).transpose()? == Some(true) {
            out.push(index.alphabet().word_string(codes));
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// `boxed generate`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BoxedGenerate {
    /// The seed (default: from the clock).
    pub seed: Option<u64>,
    /// Sides of the box.
    pub sides: usize,
    /// Letters on each side.
    pub size: usize,
    /// Play only common words.
    pub common_only: bool,
    /// Fewest solutions of 1 and 2 words.
    pub min_solutions: Option<u64>,
    /// Most solutions of 1 and 2 words.
    pub max_solutions: Option<u64>,
    /// How many solutions to list (0: all).
    pub limit: usize,
    /// Text output only: show the solutions (JSON always has them).
    pub answers: bool,
}

impl Default for BoxedGenerate {
    fn default() -> BoxedGenerate {
        let d = boxed::GenerateOptions::default();
        BoxedGenerate {
            seed: None,
            sides: d.sides,
            size: d.size,
            common_only: false,
            min_solutions: None,
            max_solutions: None,
            limit: d.limit,
            answers: false,
        }
    }
}

impl Query for BoxedGenerate {
    type Output = (u64, Generated);
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output> {
        let seed = self.seed.unwrap_or_else(clock_seed);
        let opts = boxed::GenerateOptions {
            seed,
            sides: self.sides,
            size: self.size,
            common_only: self.common_only,
            min_solutions: self.min_solutions,
            max_solutions: self.max_solutions,
            limit: self.limit,
        };
        Ok((seed, boxed::generate(index, &opts)?))
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, (seed, g): &'o Self::Output) -> Self::Json<'o> {
        shapes::boxed_generated(g, *seed, self.common_only)
    }
}

/// `anigram unscramble`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnigramUnscramble {
    /// The letters, in any order.
    pub letters: String,
}

impl Query for AnigramUnscramble {
    type Output = Step;
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Step> {
        Anigrams::open(index)?.unscramble(&self.letters)
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, s: &'o Step) -> Self::Json<'o> {
        shapes::anigram_step(s)
    }
}

/// `anigram longest`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnigramLongest {
    /// Start from this word or term.
    pub from: Option<String>,
    /// Start from the best term of this many letters.
    pub start_len: usize,
}

impl Default for AnigramLongest {
    fn default() -> AnigramLongest {
        AnigramLongest { from: None, start_len: anigram::START_LEN }
    }
}

/// Where chains start: `from`'s term, else every term of `start_len` letters.
fn start_of<D: AsRef<[u8]>>(a: &Anigrams<'_, D>, from: Option<&str>, start_len: usize) -> Result<Start> {
    Ok(from.map(|f| a.find_term(f)).transpose()?.map_or(Start::Len(start_len), Start::Term))
}

impl Query for AnigramLongest {
    type Output = Vec<Step>;
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Vec<Step>> {
        let a = Anigrams::open(index)?;
        a.longest(start_of(&a, self.from.as_deref(), self.start_len)?)
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, chain: &'o Vec<Step>) -> Self::Json<'o> {
        shapes::anigram_chain(chain)
    }
}

/// `anigram count`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnigramCount {
    /// Count only games from this word or term.
    pub from: Option<String>,
    /// Letters in a game's first term.
    pub start_len: usize,
    /// Letters in a game's last term.
    pub goal_len: usize,
}

impl Default for AnigramCount {
    fn default() -> AnigramCount {
        AnigramCount { from: None, start_len: anigram::START_LEN, goal_len: anigram::GOAL_LEN }
    }
}

/// Games counted, with the term they start from (when `from` was given)
/// and its length.
#[derive(Clone, Debug)]
pub struct GameCount {
    /// The games.
    pub games: u64,
    /// `from`'s term.
    pub from_term: Option<String>,
    /// Letters in a game's first term.
    pub start_len: usize,
}

impl Query for AnigramCount {
    type Output = GameCount;
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<GameCount> {
        let a = Anigrams::open(index)?;
        let start = start_of(&a, self.from.as_deref(), self.start_len)?;
        let games = a.count(start, self.goal_len)?;
        let from_term = match start {
            Start::Term(t) => Some(a.step(t)?.term),
            Start::Len(_) => None,
        };
        let start_len = from_term.as_ref().map_or(self.start_len, |t| t.chars().count());
        Ok(GameCount { games, from_term, start_len })
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, c: &'o GameCount) -> Self::Json<'o> {
        json!({"start_len": c.start_len, "goal_len": self.goal_len, "from": c.from_term, "games": c.games})
    }
}

/// `anigram top`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnigramTop {
    /// How many terms to list (0: all).
    pub top: usize,
    /// Letters in a game's first term.
    pub start_len: usize,
    /// Letters in a game's last term.
    pub goal_len: usize,
}

impl Default for AnigramTop {
    fn default() -> AnigramTop {
        AnigramTop { top: 10, start_len: anigram::START_LEN, goal_len: anigram::GOAL_LEN }
    }
}

impl Query for AnigramTop {
    type Output = Vec<TermGames>;
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Vec<TermGames>> {
        let game = Game { start_len: self.start_len, goal_len: self.goal_len };
        Anigrams::open(index)?.top(all_if_zero(self.top), game)
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, top: &'o Vec<TermGames>) -> Self::Json<'o> {
        json!({"start_len": self.start_len, "goal_len": self.goal_len,
               "terms": top.iter().map(|t| json!({"term": t.term, "games": t.games, "words": t.words})).collect::<Vec<_>>()})
    }
}

/// `anigram generate`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnigramGenerate {
    /// The seed (default: from the clock).
    pub seed: Option<u64>,
    /// Text output only: show each step's words (JSON always has them).
    pub answers: bool,
    /// A game whose every step has a common word; steps show only those.
    pub common_only: bool,
}

impl Query for AnigramGenerate {
    type Output = (u64, Vec<Step>);
    type Json<'o> = Value;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Self::Output> {
        let seed = self.seed.unwrap_or_else(clock_seed);
        Ok((seed, Anigrams::open(index)?.generate_with(seed, self.common_only)?))
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, (seed, chain): &'o Self::Output) -> Self::Json<'o> {
        let mut v = shapes::anigram_chain(chain);
        v["seed"] = json!(seed);
        v
    }
}

/// `find PATTERN`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Find {
    /// The pattern: letters, `?`, `*`, `[abc]`, `[^abc]`.
    pub pattern: String,
    /// Only words of this many letters.
    pub len: Option<usize>,
    /// How many to list (0: all); the count is always exact.
    pub limit: usize,
    /// Only words of the common list.
    pub common_only: bool,
}

impl Default for Find {
    fn default() -> Find {
        Find { pattern: String::new(), len: None, limit: 50, common_only: false }
    }
}

/// Words found: the first `limit`, a-z, and how many matched.
#[derive(Clone, Debug)]
pub struct Found {
    /// The words listed, with whether each is common.
    pub words: Vec<(String, bool)>,
    /// Every match.
    pub count: u64,
}

impl Find {
    /// Calls `each` with the first `limit` matches (all if 0), a-z, and
    /// whether each is common (see [`find::find_first`]); returns the
    /// count of all.
    pub fn each<D: AsRef<[u8]>>(&self, index: &Index<D>, each: impl FnMut(&str, bool)) -> Result<u64> {
        let pattern = Pattern::parse(index.alphabet(), &self.pattern)?;
        let opts = FindOptions { len: self.len, common_only: self.common_only };
        find::find_first(index, &pattern, &opts, all_if_zero(self.limit), each)
    }

    /// [`Find::each`] that `each` may stop ([`find::find_while`]).
    pub fn each_while<D: AsRef<[u8]>>(
        &self,
        index: &Index<D>,
        each: impl FnMut(&str, bool) -> ControlFlow<()>,
    ) -> Result<u64> {
        let pattern = Pattern::parse(index.alphabet(), &self.pattern)?;
        find::find_while(index, &pattern, &FindOptions { len: self.len, common_only: self.common_only }, each)
    }
}

impl Query for Find {
    type Output = Found;
    type Json<'o> = shapes::FoundJson<'o>;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Found> {
        let mut words = Vec::new();
        let count = self.each(index, |w, common| words.push((w.to_string(), common)))?;
        Ok(Found { words, count })
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, f: &'o Found) -> Self::Json<'o> {
        shapes::found(&self.pattern, &f.words, f.count)
    }
}

/// `anagram LETTERS`: anagrams with blanks, of some of the letters
/// (`sub`), or of a phrase in words (`words`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Anagram {
    /// The letters (`?` a blank); with `words`, the phrase.
    pub letters: String,
    /// Words made of some of the letters.
    pub sub: bool,
    /// Sets of words whose letters are exactly the phrase's.
    pub words: bool,
    /// The shortest word.
    pub min_len: usize,
    /// With `words`: the most words in an anagram.
    pub max_words: Option<usize>,
    /// With `words`: a word every anagram contains.
    pub include: Option<String>,
    /// How many to list (0: all); the count is always exact.
    pub limit: usize,
    /// Only words of the common list.
    pub common_only: bool,
}

impl Default for Anagram {
    fn default() -> Anagram {
        Anagram {
            letters: String::new(),
            sub: false,
            words: false,
            min_len: 3,
            max_words: None,
            include: None,
            limit: 50,
            common_only: false,
        }
    }
}

/// An anagram answer: words (with what their blanks stood for), or
/// phrases of words.
#[derive(Clone, Debug)]
pub enum Anagrams {
    /// Single words: the first `limit`, and how many there are.
    Words(Vec<anagram::Anagram>, u64),
    /// Multi-word anagrams of a phrase.
    Phrases(anagram::PhraseAnagrams),
}

impl Query for Anagram {
    type Output = Anagrams;
    type Json<'o> = shapes::AnagramsJson<'o>;
    fn run<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>) -> Result<Anagrams> {
        if self.sub && self.words {
            return Err(Error::invalid_param("sub", "cannot be asked with words (multi-word anagrams of a phrase)"));
        }
        if !self.words {
            if let Some(param) = [("max_words", self.max_words.is_some()), ("include", self.include.is_some())]
                .into_iter()
                .find_map(|(param, given)| given.then_some(param))
            {
                return Err(Error::invalid_param(param, "needs words (multi-word anagrams of a phrase)"));
            }
        }
        if self.words {
            let opts = PhraseOptions {
                max_words: self.max_words.unwrap_or(PhraseOptions::default().max_words),
                min_len: self.min_len,
                include: self.include.clone(),
                common_only: self.common_only,
                limit: self.limit,
            };
            return Ok(Anagrams::Phrases(anagram::phrase_anagrams(index, &self.letters, &opts)?));
        }
        if self.letters.trim().is_empty() {
            return Err(Error::invalid("no letters given; e.g. `listen`, or `retain?` with a blank"));
        }
        let opts = AnagramOptions { min_len: self.min_len, common_only: self.common_only };
        let (words, count) = anagram::first_anagrams(index, &self.letters, self.sub, &opts, all_if_zero(self.limit))?;
        Ok(Anagrams::Words(words, count))
    }
    fn json<'o, D: AsRef<[u8]> + Sync>(&'o self, _: &Index<D>, a: &'o Anagrams) -> Self::Json<'o> {
        match a {
            Anagrams::Phrases(found) => shapes::phrase_anagrams_json(&self.letters, found),
            Anagrams::Words(words, count) => shapes::anagram_words_json(&self.letters, words, *count),
        }
    }
}

/// `info`: the header, the metadata and the section table. `path` is where
/// the index was read from (`null` for bytes).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Info {}

impl Info {
    /// The answer, naming the file it came from.
    pub fn json<D: AsRef<[u8]>>(&self, index: &Index<D>, path: Option<&str>) -> Value {
        let meta = index.metadata();
        let sections =
            index.header().sections.iter().map(
                |s| json!({"name": s.name(), "offset": s.offset, "bytes": s.len, "crc32": format!("{:08x}", s.crc)}),
            );
        json!({
            "path": path,
            "format_version": index.header().version,
            "name": meta.name,
            "words": meta.word_count,
            "alphabet": meta.alphabet,
            "fold": if meta.fold_accents { "accents" } else { "none" },
            "keep": meta.kept_letters,
            "proper_nouns": index.proper_nouns().map(|p| json!({
                "policy": if p.skipped { "skip" } else { "keep" },
                "auto": p.auto,
                "capitalised": p.capitalised,
                "words": p.words,
            })),
            "sources": meta.sources.iter().map(source_json).collect::<Vec<_>>(),
            "source_sha256": meta.source_sha256.to_string(),
            "lines_read": meta.lines_read,
            "lines_skipped": meta.lines_skipped,
            "common_source": meta.common_source.as_ref().map(source_json),
            "common_words": meta.common_count,
            "excluded_words": meta.excluded_count,
            "exclude_sources": meta.exclude_sources.iter().map(source_json).collect::<Vec<_>>(),
            "tool_version": meta.tool_version,
            "built_at": iso_time(meta.built_at_unix),
            "built_at_unix": meta.built_at_unix,
            "bytes": index.as_bytes().len(),
            "sections": sections.collect::<Vec<_>>(),
        })
    }
}

/// A word list as `info` shows it.
fn source_json(source: &SourceFile) -> Value {
    json!({"name": source.name, "sha256": source.sha256.to_string()})
}

/// `verify`: every section's checksum and structure. A damaged section is
/// an answer (`"ok": false`), not an error.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Verify {}

impl Verify {
    /// The answer, naming the file it came from.
    pub fn json(&self, checks: &[SectionCheck], path: Option<&str>) -> Value {
        json!({
            "path": path,
            "ok": checks.iter().all(|c| c.ok),
            "sections": checks.iter().map(|c| json!({"name": c.name, "bytes": c.len, "ok": c.ok, "problem": c.problem})).collect::<Vec<_>>(),
        })
    }
}

/// Every question, by command.
#[derive(Clone, Debug)]
#[allow(missing_docs)]
pub enum Request {
    Info(Info),
    Verify(Verify),
    BeeSolve(BeeSolve),
    BeeReport(BeeReport),
    BeeBest(BeeBest),
    BeeStats(BeeStats),
    BeeHints(BeeHints),
    BeeCheck(BeeCheck),
    BeeGenerate(BeeGenerate),
    BoxedSolve(BoxedSolve),
    BoxedGenerate(BoxedGenerate),
    BoxedCheck(BoxedCheck),
    AnigramCheck(AnigramCheck),
    AnigramUnscramble(AnigramUnscramble),
    AnigramLongest(AnigramLongest),
    AnigramCount(AnigramCount),
    AnigramTop(AnigramTop),
    AnigramGenerate(AnigramGenerate),
    Find(Find),
    Anagram(Anagram),
}

/// The commands [`Request::parse`] knows, as the CLI spells them.
pub const COMMANDS: [&str; 20] = [
    "info",
    "verify",
    "bee solve",
    "bee report",
    "bee best",
    "bee stats",
    "bee hints",
    "bee check",
    "bee generate",
    "boxed solve",
    "boxed generate",
    "boxed check",
    "anigram unscramble",
    "anigram longest",
    "anigram count",
    "anigram top",
    "anigram generate",
    "anigram check",
    "find",
    "anagram",
];

fn args<T: DeserializeOwned>(command: &str, args: &Value) -> Result<T> {
    let empty = Value::Object(Map::new());
    let args = if args.is_null() { &empty } else { args };
    T::deserialize(args).map_err(|e| Error::invalid(format!("{command}: {e}")))
}

impl Request {
    /// The request for `command` (one of [`COMMANDS`]) with `args`, an
    /// object of arguments by long-flag name (`null`: all defaults).
    pub fn parse(command: &str, a: &Value) -> Result<Request> {
        Ok(match command {
            "info" => Request::Info(args(command, a)?),
            "verify" => Request::Verify(args(command, a)?),
            "bee solve" => Request::BeeSolve(BeeSolve(args(command, a)?)),
            "bee report" => Request::BeeReport(BeeReport(args(command, a)?)),
            "bee best" => Request::BeeBest(args(command, a)?),
            "bee stats" => Request::BeeStats(args(command, a)?),
            "bee hints" => Request::BeeHints(BeeHints(args(command, a)?)),
            "bee check" => Request::BeeCheck(args(command, a)?),
            "bee generate" => Request::BeeGenerate(args(command, a)?),
            "boxed solve" => Request::BoxedSolve(args(command, a)?),
            "boxed generate" => Request::BoxedGenerate(args(command, a)?),
            "boxed check" => Request::BoxedCheck(args(command, a)?),
            "anigram check" => Request::AnigramCheck(args(command, a)?),
            "anigram unscramble" => Request::AnigramUnscramble(args(command, a)?),
            "anigram longest" => Request::AnigramLongest(args(command, a)?),
            "anigram count" => Request::AnigramCount(args(command, a)?),
            "anigram top" => Request::AnigramTop(args(command, a)?),
            "anigram generate" => Request::AnigramGenerate(args(command, a)?),
            "find" => Request::Find(args(command, a)?),
            "anagram" => Request::Anagram(args(command, a)?),
            _ => {
                return Err(Error::invalid(format!("no command {command:?}; the commands are {}", COMMANDS.join(", "))))
            }
        })
    }

    /// The answer as `wordhoard --json` prints it, as a [`Value`]; `path`
    /// is the file the index came from, which `info` and `verify` name.
    pub fn answer<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>, path: Option<&str>) -> Result<Value> {
        self.answer_into(index, path, ToValue)
    }

    /// [`Request::answer`] into `sink` (see [`AnswerSink`]): the answers
    /// that list many items are serialized from their typed shapes, with
    /// no [`Value`] built.
    pub fn answer_into<D: AsRef<[u8]> + Sync, K: AnswerSink>(
        &self,
        index: &Index<D>,
        path: Option<&str>,
        sink: K,
    ) -> Result<K::Out> {
        fn ask<Q: Query, D: AsRef<[u8]> + Sync, K: AnswerSink>(q: &Q, index: &Index<D>, sink: K) -> Result<K::Out> {
            let out = q.run(index)?;
            answer_into(q, index, &out, sink)
        }
        match self {
            Request::Info(q) => sink.take(&q.json(index, path)),
            Request::Verify(q) => sink.take(&q.json(&index.verify(), path)),
            Request::BeeSolve(q) => ask(q, index, sink),
            Request::BeeReport(q) => ask(q, index, sink),
            Request::BeeBest(q) => ask(q, index, sink),
            Request::BeeStats(q) => ask(q, index, sink),
            Request::BeeHints(q) => ask(q, index, sink),
            Request::BeeCheck(q) => ask(q, index, sink),
            Request::BeeGenerate(q) => ask(q, index, sink),
            Request::BoxedSolve(q) => ask(q, index, sink),
            Request::BoxedGenerate(q) => ask(q, index, sink),
            Request::BoxedCheck(q) => ask(q, index, sink),
            Request::AnigramCheck(q) => ask(q, index, sink),
            Request::AnigramUnscramble(q) => ask(q, index, sink),
            Request::AnigramLongest(q) => ask(q, index, sink),
            Request::AnigramCount(q) => ask(q, index, sink),
            Request::AnigramTop(q) => ask(q, index, sink),
            Request::AnigramGenerate(q) => ask(q, index, sink),
            Request::Find(q) => ask(q, index, sink),
            Request::Anagram(q) => ask(q, index, sink),
        }
    }

    /// [`Request::answer`] as compact JSON text: what `wordhoard --json`
    /// prints.
    pub fn answer_text<D: AsRef<[u8]> + Sync>(&self, index: &Index<D>, path: Option<&str>) -> Result<String> {
        self.answer_into(index, path, Text(serde_json::ser::CompactFormatter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index<Vec<u8>> {
        crate::testutil::index("game\ngames\namalgam\nglam\nmegaplex\nride\ndire\nired\nrides\n", None)
    }

    #[test]
    fn parses_flags_with_defaults_and_refuses_unknown_names() {
        let r = Request::parse("boxed solve", &json!({"sides": ["gm", "ae"]})).unwrap();
        let Request::BoxedSolve(b) = r else { panic!("not a boxed solve") };
        assert_eq!((b.max_words, b.limit, b.min_len), (2, 20, 3));
        let e = Request::parse("bee solve", &json!({"letters": "abc", "centre": "a"})).unwrap_err();
        assert!(e.is_usage() && e.to_string().contains("unknown field `centre`"), "{e}");
        let e = Request::parse("bee best", &json!({"top": -1})).unwrap_err();
        assert!(e.is_usage(), "{e}");
        assert!(Request::parse("bee fly", &Value::Null).unwrap_err().to_string().contains("bee solve"));
        for c in COMMANDS {
            // Every command parses with no arguments (its positional ones empty).
            Request::parse(c, &Value::Null).unwrap();
        }
        let index = index();
        let play =
            Request::parse("boxed check", &json!({"sides": ["gm-ae"], "words": ["glam", "ggame", "game"]})).unwrap();
        let play = play.answer(&index, None).unwrap();
        assert_eq!(play["words"][0], json!({"word": "glam", "verdict": "bad_letter", "position": null}));
        assert_eq!(play["words"][1], json!({"word": "ggame", "verdict": "same_side", "position": 2}));
        assert_eq!((play["solved"].clone(), play["played"].clone()), (json!(true), json!(1)));
        let chain = Request::parse("anigram check", &json!({"words": ["ride", "rides"]})).unwrap();
        let chain = chain.answer(&index, None).unwrap();
        assert_eq!(chain["words"][1], json!({"word": "rides", "verdict": "ok", "added": "s"}));
    }

    #[test]
    fn answers_follow_the_rules() {
        let index = index();
        let ask = |c: &str, a: Value| Request::parse(c, &a).and_then(|r| r.answer(&index, None));
        assert_eq!(ask("bee solve", json!({"letters": "aeglmpx", "center": "g"})).unwrap()["score"], 24);
        // The centre defaults to the first letter; S is excluded on a-z by default.
        assert_eq!(ask("bee solve", json!({"letters": "gaelmpx"})).unwrap()["center"], "g");
        assert_eq!(ask("bee stats", Value::Null).unwrap()["exclude"], "s");
        assert_eq!(ask("bee stats", json!({"exclude": ""})).unwrap()["exclude"], "");
        // A box's sides split at dashes, commas, slashes and spaces.
        let one = ask("boxed solve", json!({"sides": ["gm-ae"], "max_words": 3})).unwrap();
        assert_eq!(one, ask("boxed solve", json!({"sides": ["gm, ae"], "max_words": 3})).unwrap());
        assert_eq!(one["sides"], json!(["gm", "ae"]));
        // `fewest` stops at the fewest words that solve the box.
        let fewest = ask("boxed solve", json!({"sides": ["gm", "ae"], "max_words": 5, "fewest": true})).unwrap();
        // "game" alone covers the box: the fewest is one word.
        assert_eq!((fewest["max_words"].clone(), fewest["count"].clone()), (json!(1), one["count"].clone()));
        assert_eq!(fewest["solutions"], one["solutions"]);
        assert_eq!(ask("anigram count", json!({"from": "ride", "goal_len": 5})).unwrap()["from"], "deir");
        let found = ask("find", json!({"pattern": "*s", "limit": 0})).unwrap();
        assert_eq!(found["words"], json!(["games", "rides"]));
        let e = ask("anagram", json!({"letters": "ride", "include": "x"})).unwrap_err();
        assert!(e.is_usage(), "{e}");
        assert_eq!(ask("anagram", json!({"letters": "ride"})).unwrap()["count"], 3);
        assert_eq!(ask("info", Value::Null).unwrap()["path"], Value::Null);
        assert_eq!(ask("verify", Value::Null).unwrap()["ok"], true);
    }

    /// Each command asked two ways: the text written straight from its
    /// shape is byte for byte the `Value`'s text (keys a-z, numbers,
    /// nulls), with and without respelling, and under a formatter of the
    /// caller's.
    #[test]
    fn text_answers_are_the_values_text() {
        let plain = index();
        let folded = {
            use wordhoard_builder::{build_index, BuildFlags, WordSource};
            let list = "café\ncafés\nfacé\nface\nacé\névadé\nride\ndire\nrides\nglam\ngame\n";
            let lists = vec![WordSource::from_text("t", list)];
            let alphabet = "abcdefghijklmnopqrstuvwxyz".into();
            let flags = BuildFlags { lists: lists.clone(), fold: "accents".into(), alphabet, ..Default::default() };
            let opts = flags.options().unwrap();
            let built = build_index(&lists, &opts).unwrap();
            Index::from_bytes(built.into_bytes()).unwrap()
        };
        assert!(folded.has_spellings() && !plain.has_spellings());
        let asks = [
            ("bee solve", json!({"letters": "aeglmpx", "center": "g"})),
            ("bee solve", json!({"letters": "acefs", "center": "c"})),
            ("bee solve", json!({"letters": "qwz"})),
            ("bee report", json!({"letters": "aeglmpx", "center": "g"})),
            ("bee report", json!({"letters": "acefs"})),
            ("bee hints", json!({"letters": "aeglmpx", "center": "g"})),
            ("bee check", json!({"letters": "aeglmpx", "center": "g", "words": ["game", "gam"]})),
            ("bee best", json!({"top": 3, "exclude": ""})),
            ("bee stats", Value::Null),
            ("bee generate", json!({"seed": 3, "min_words": 1, "min_score": 0})),
            ("boxed solve", json!({"sides": ["gm", "ae"], "max_words": 3, "limit": 0})),
            ("boxed solve", json!({"sides": ["ca", "fe"], "max_words": 2})),
            ("boxed solve", json!({"sides": ["qz", "xw"]})),
            ("boxed generate", json!({"seed": 1, "sides": 2, "size": 2})),
            ("boxed check", json!({"sides": ["gm-ae"], "words": ["glam", "game"]})),
            ("anigram unscramble", json!({"letters": "deir"})),
            ("anigram longest", json!({"from": "ride"})),
            ("anigram count", json!({"from": "ride", "goal_len": 5})),
            ("anigram top", json!({"start_len": 4, "goal_len": 5})),
            ("anigram check", json!({"words": ["ride", "rides"]})),
            ("find", json!({"pattern": "*s", "limit": 0})),
            ("find", json!({"pattern": "?a*", "limit": 1})),
            ("find", json!({"pattern": "xyz"})),
            ("anagram", json!({"letters": "ride?"})),
            ("anagram", json!({"letters": "cafe", "sub": true})),
            ("anagram", json!({"letters": "ride glam", "words": true})),
            ("info", Value::Null),
            ("verify", Value::Null),
        ];
        let mut compared = 0;
        for index in [&plain, &folded] {
            for (command, args) in &asks {
                let request = Request::parse(command, args).unwrap();
                // Some asks have no answer on one of the two lists (no
                // such honeycomb): the text errs the same way.
                match request.answer(index, Some("p")) {
                    Ok(value) => {
                        let want = value.to_string();
                        assert_eq!(request.answer_text(index, Some("p")).unwrap(), want, "{command} {args}");
                        let pretty =
                            request.answer_into(index, Some("p"), Text(serde_json::ser::PrettyFormatter::new()));
                        assert_eq!(pretty.unwrap(), serde_json::to_string_pretty(&value).unwrap(), "{command} {args}");
                        compared += 1;
                    }
                    Err(e) => {
                        let text = request.answer_text(index, Some("p")).unwrap_err();
                        assert_eq!(text.to_string(), e.to_string(), "{command} {args}");
                    }
                }
            }
        }
        assert!(compared > asks.len(), "{compared} answers compared");
    }

    #[test]
    fn sides_split_every_way_they_are_typed() {
        for typed in [
            &["riu pgh lcs yao"][..],
            &["riu-pgh-lcs-yao"],
            &["riu,pgh,lcs,yao"],
            &["riu/pgh/lcs/yao"],
            &["riu", "pgh", "lcs", "yao"],
        ] {
            assert_eq!(split_sides(typed, None, None).unwrap(), ["riu", "pgh", "lcs", "yao"], "{typed:?}");
        }
        // The compact form: 4 sides by default, or as many or as long as
        // asked; letters past ASCII count as one each.
        assert_eq!(split_sides(&["riupghlcsyao"], None, None).unwrap(), ["riu", "pgh", "lcs", "yao"]);
        assert_eq!(split_sides(&["RIUPGHLCSYAO"], Some(4), Some(3)).unwrap(), ["RIU", "PGH", "LCS", "YAO"]);
        assert_eq!(split_sides(&["riupghlcsyao"], Some(3), None).unwrap(), ["riup", "ghlc", "syao"]);
        assert_eq!(split_sides(&["riupghlcsyao"], None, Some(2)).unwrap().len(), 6);
        assert_eq!(split_sides(&["äöüßab"], Some(3), None).unwrap(), ["äö", "üß", "ab"]);
        for (count, size) in [(None, None), (Some(4), None), (None, Some(3)), (Some(2), Some(5)), (Some(0), None)] {
            let e = split_sides(&["riupghlcsya"], count, size).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::InvalidInput { .. }), "{count:?} {size:?}: {e}");
        }
    }
}
