//! The JSON shape of each answer: what `wordhoard --json` prints and what
//! the web page (`crates/web`) reads, built in one place so the two can
//! never drift apart. Feature `json`.
//!
//! Keys and their meaning are the SPEC's; numbers are exact (Letter Boxed
//! counts are u128, which serde_json's `arbitrary_precision` keeps).
//!
//! Small answers are built as a [`Value`]. The answers that list many
//! items (a honeycomb's words, `find`'s matches, anagrams, Letter Boxed
//! solutions) are typed shapes that borrow the answer and serialize
//! straight to text: a `Value` is an allocation or more a field, and a
//! `bee solve` of 537 words took 154 us to build as one (the solve 16 us)
//! where its text takes some 32 us. Every object's keys
//! come out a-z, as a `Value`'s do, so the text is the same either way;
//! [`JsonShape::into_value`] gives the `Value` to the readers that want one.

use std::collections::BTreeMap;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::anagram::{Anagram, PhraseAnagrams};
use crate::anigram::Step;
use crate::bee::{Hints, Progress, Rank, ScoredWord, Solution, SolvedWords};
use crate::boxed::{Generated, LetterBox};
use crate::error::{Error, Result};

/// An answer's JSON: serializes as the text `wordhoard --json` prints, and
/// turns into a [`Value`] for a reader that walks one.
pub trait JsonShape: Serialize {
    /// The same JSON as a [`Value`].
    fn into_value(self) -> Result<Value>;
}

impl JsonShape for Value {
    fn into_value(self) -> Result<Value> {
        Ok(self)
    }
}

/// Typed shapes become a [`Value`] by serializing into one (no map key of
/// theirs is other than text, so this does not fail).
macro_rules! typed_shape {
    ($($shape:ident),*) => {$(
        impl JsonShape for $shape<'_> {
            fn into_value(self) -> Result<Value> {
                serde_json::to_value(&self).map_err(|e| Error::invalid(format!("the answer as JSON: {e}")))
            }
        }
    )*};
}

typed_shape!(BeeSolutionJson, FoundJson, AnagramsJson, BoxedSolveJson);

/// A Spelling Bee solution: `bee solve`; with its seed `bee generate`,
/// with its words by letter set `bee report`.
#[derive(Serialize)]
pub struct BeeSolutionJson<'a> {
    center: char,
    count: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    groups: Option<Vec<ReportGroupJson<'a>>>,
    letters: &'a str,
    pangrams: u32,
    problem: Option<&'static str>,
    score: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(serialize_with = "scored_words")]
    words: &'a SolvedWords,
}

/// A Spelling Bee solution: `bee solve`.
pub fn bee_solution(s: &Solution) -> BeeSolutionJson<'_> {
    BeeSolutionJson {
        center: s.center,
        count: s.words.len(),
        groups: None,
        letters: &s.letters,
        pangrams: s.pangrams,
        problem: s.problem().map(|p| p.as_str()),
        score: s.score,
        seed: None,
        words: &s.words,
    }
}

/// A honeycomb's words, each `{"common", "pangram", "score", "word"}`.
fn scored_words<S: Serializer>(words: &&SolvedWords, out: S) -> std::result::Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Word<'a> {
        common: bool,
        pangram: bool,
        score: u32,
        word: &'a str,
    }
    out.collect_seq(words.iter().map(|w| Word { common: w.common, pangram: w.pangram, score: w.score, word: w.word }))
}

#[derive(Serialize)]
struct ReportGroupJson<'a> {
    count: usize,
    letters: &'a str,
    score: u32,
    #[serde(serialize_with = "word_scores")]
    words: &'a [ScoredWord],
}

/// A group's words, each `{"score", "word"}`.
fn word_scores<S: Serializer>(words: &&[ScoredWord], out: S) -> std::result::Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Word<'a> {
        score: u32,
        word: &'a str,
    }
    out.collect_seq(words.iter().map(|w| Word { score: w.score, word: &w.word }))
}

/// `bee report`: the solution with its words grouped by letter set.
pub fn bee_report<'a>(s: &'a Solution, groups: &'a [crate::bee::ReportGroup]) -> BeeSolutionJson<'a> {
    let groups = groups
        .iter()
        .map(|g| ReportGroupJson { count: g.words.len(), letters: &g.letters, score: g.score, words: &g.words })
        .collect();
    BeeSolutionJson { groups: Some(groups), ..bee_solution(s) }
}

/// `find`: the words listed and how many matched.
#[derive(Serialize)]
pub struct FoundJson<'a> {
    count: u64,
    pattern: &'a str,
    #[serde(serialize_with = "first_of_pairs")]
    words: &'a [(String, bool)],
}

/// `find`'s answer.
pub fn found<'a>(pattern: &'a str, words: &'a [(String, bool)], count: u64) -> FoundJson<'a> {
    FoundJson { count, pattern, words }
}

/// The words of (word, common) pairs.
fn first_of_pairs<S: Serializer>(pairs: &&[(String, bool)], out: S) -> std::result::Result<S::Ok, S::Error> {
    out.collect_seq(pairs.iter().map(|(word, _)| word))
}

/// `anagram`: single words with their blanks, or a phrase's anagrams.
#[derive(Serialize)]
#[serde(transparent)]
pub struct AnagramsJson<'a>(AnagramsShape<'a>);

#[derive(Serialize)]
#[serde(untagged)]
enum AnagramsShape<'a> {
    /// `{"count", "letters", "words": [{"blanks", "word"}]}`.
    Words {
        count: u64,
        letters: &'a str,
        #[serde(serialize_with = "anagram_words")]
        words: &'a [Anagram],
    },
    /// `{"anagrams", "count", "phrase"}`.
    Phrases { anagrams: &'a [Vec<String>], count: u64, phrase: &'a str },
}

/// Single-word anagrams, each `{"blanks", "word"}`.
fn anagram_words<S: Serializer>(words: &&[Anagram], out: S) -> std::result::Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Word<'a> {
        blanks: &'a str,
        word: &'a str,
    }
    out.collect_seq(words.iter().map(|a| Word { blanks: &a.blanks, word: &a.word }))
}

/// `anagram LETTERS`'s single words.
pub fn anagram_words_json<'a>(letters: &'a str, words: &'a [Anagram], count: u64) -> AnagramsJson<'a> {
    AnagramsJson(AnagramsShape::Words { count, letters, words })
}

/// `anagram --words PHRASE`'s anagrams.
pub fn phrase_anagrams_json<'a>(phrase: &'a str, found: &'a PhraseAnagrams) -> AnagramsJson<'a> {
    AnagramsJson(AnagramsShape::Phrases { anagrams: &found.anagrams, count: found.count, phrase })
}

/// `boxed solve`: [`boxed_summary`]'s keys, then `solutions` (last a-z).
pub struct BoxedSolveJson<'a> {
    summary: Map<String, Value>,
    solutions: &'a [Vec<String>],
}

/// `boxed solve`'s answer.
pub fn boxed_solve(summary: Map<String, Value>, solutions: &[Vec<String>]) -> BoxedSolveJson<'_> {
    BoxedSolveJson { summary, solutions }
}

impl Serialize for BoxedSolveJson<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> std::result::Result<S::Ok, S::Error> {
        // Every summary key sorts before `solutions`: one object, a-z.
        let mut map = out.serialize_map(Some(self.summary.len() + 1))?;
        for (key, value) in &self.summary {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry("solutions", self.solutions)?;
        map.end()
    }
}

/// Spelling Bee hints, no words: `bee hints`.
pub fn bee_hints(h: &Hints) -> Value {
    let s = &h.solution;
    json!({
        "letters": s.letters, "center": s.center.to_string(), "count": s.words.len(), "score": s.score,
        "pangrams": s.pangrams, "perfect_pangrams": h.perfect_pangrams, "bingo": h.bingo,
        "problem": s.problem().map(|p| p.as_str()),
        "grid": bee_grid(&h.grid),
        "two_letter": h.two_letter,
        "ranks": h.ranks.iter().map(rank).collect::<Vec<_>>(),
    })
}

/// A player's progress: `bee check`.
pub fn bee_progress(p: &Progress) -> Value {
    json!({
        "letters": p.letters,
        "center": p.center.to_string(),
        "problem": p.problem().map(|p| p.as_str()),
        "guesses": p.guesses.iter().map(|v| json!({
            "word": v.word, "ok": v.reason.is_none(), "reason": v.reason.map(|r| r.as_str()),
            "score": v.score, "pangram": v.pangram,
        })).collect::<Vec<_>>(),
        "found": {"count": p.found_count, "score": p.found_score},
        "rank": {
            "name": p.rank.name, "score": p.rank.score,
            "next": p.next.as_ref().map(rank),
            "genius": p.genius, "queen_bee": p.queen_bee,
        },
        "left": {
            "count": p.left.count, "score": p.left.score, "pangrams": p.left.pangrams,
            "grid": bee_grid(&p.left.grid), "two_letter": p.left.two_letter,
        },
    })
}

fn rank(r: &Rank) -> Value {
    json!({"name": r.name, "score": r.score})
}

/// Word counts by first letter and length (`{"a": {"4": 2}}`).
fn bee_grid(grid: &BTreeMap<char, BTreeMap<usize, u32>>) -> Value {
    grid.iter()
        .map(|(c, row)| {
            (c.to_string(), json!(row.iter().map(|(l, n)| (l.to_string(), *n)).collect::<BTreeMap<_, _>>()))
        })
        .collect::<Map<_, _>>()
        .into()
}

/// What `boxed solve` prints before its solutions.
#[derive(Clone, Copy, Debug)]
pub struct BoxedSummary<'a> {
    /// The box.
    pub letter_box: &'a LetterBox,
    /// How many words the box can play.
    pub playable: usize,
    /// Solutions by word count: `counts[0]` of one word, and so on.
    pub counts: &'a [u128],
    /// The most words a solution may take.
    pub max_words: usize,
    /// With no solution: the fewest words one takes and how many take that
    /// many ([`Solver::fewest`](crate::boxed::Solver::fewest)).
    pub shortest: Option<(usize, u128)>,
}

/// `boxed solve`'s object without its `solutions` array, which streams
/// after it (it is the last key) and is a list of word lists.
pub fn boxed_summary(s: &BoxedSummary<'_>) -> Map<String, Value> {
    let count = s.counts.iter().fold(0u128, |a, &b| a.saturating_add(b));
    let mut m = Map::new();
    m.insert("sides".into(), json!(s.letter_box.sides));
    m.insert("playable".into(), json!(s.playable));
    m.insert("count".into(), json!(count));
    m.insert(
        "count_by_words".into(),
        json!(s.counts.iter().enumerate().map(|(i, n)| ((i + 1).to_string(), *n)).collect::<BTreeMap<_, _>>()),
    );
    m.insert("min_words".into(), json!(s.counts.iter().position(|&n| n > 0).map(|i| i + 1)));
    m.insert("max_words".into(), json!(s.max_words));
    m.insert("shortest".into(), json!(s.shortest.map(|(words, count)| json!({"words": words, "count": count}))));
    m
}

/// A generated box with its solutions of at most 2 words: `boxed generate`.
pub fn boxed_generated(g: &Generated, seed: u64, common_only: bool) -> Value {
    let answer = &g.answer;
    json!({
        "seed": seed,
        "sides": g.letter_box.sides,
        "playable": answer.playable,
        "count": answer.count,
        "count_by_words": answer.by_words.iter().enumerate().map(|(i, n)| ((i + 1).to_string(), *n)).collect::<BTreeMap<_, _>>(),
        "min_words": answer.min_words,
        "common_only": common_only,
        "tries": g.tries,
        "solutions": answer.solutions,
    })
}

/// A generated honeycomb with its answers: `bee generate`.
pub fn bee_generated(s: &Solution, seed: u64) -> BeeSolutionJson<'_> {
    BeeSolutionJson { seed: Some(seed), ..bee_solution(s) }
}

/// One Anigrams term and its words: `anigram unscramble`.
pub fn anigram_step(s: &Step) -> Value {
    json!({"term": s.term, "words": s.words})
}

/// An Anigrams chain, first term to last: `anigram longest`.
pub fn anigram_chain(chain: &[Step]) -> Value {
    json!({"length": chain.len(), "chain": chain.iter().map(anigram_step).collect::<Vec<_>>()})
}

/// Unix seconds as ISO 8601 UTC: `2026-11-23T11:40:05Z`.
pub fn iso_time(unix_secs: u64) -> String {
    let (days, secs) = (unix_secs / 86_400, unix_secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`: 400-year eras of 146,097 days).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anigram::Anigrams;
    use crate::{bee, boxed};

    #[test]
    fn shapes_carry_the_answer() {
        let index = crate::testutil::index("game\ngames\namalgam\nglam\nmegaplex\nride\ndire\nired\n", None);
        let puzzle = bee::Puzzle::parse(index.alphabet(), "aeglmpx", Some("g")).unwrap();
        let solution = bee::solve(&index, puzzle, &bee::SolveOptions::default()).unwrap();
        let v = bee_solution(&solution).into_value().unwrap();
        assert_eq!(v["score"], solution.score);
        assert_eq!(v["count"], solution.words.len());
        assert_eq!(v["words"][0]["word"], solution.words.get(0).unwrap().word);

        let guesses = ["game".to_string(), "gam".to_string()];
        let p = bee::check(&index, puzzle, &guesses, &bee::SolveOptions::default()).unwrap();
        let v = bee_progress(&p);
        assert_eq!(v["guesses"][0]["ok"], true);
        assert_eq!(v["guesses"][1]["reason"], "too_short");
        assert_eq!(v["left"]["count"], solution.words.len() - 1);

        let h = bee::hints(&index, puzzle, &bee::SolveOptions::default()).unwrap();
        let v = bee_hints(&h);
        let grid_total: u64 = v["grid"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|row| row.as_object().unwrap().values())
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(grid_total as usize, solution.words.len());

        let a = Anigrams::open(&index).unwrap();
        let v = anigram_step(&a.unscramble("deir").unwrap());
        assert_eq!(v, json!({"term": "deir", "words": ["dire", "ired", "ride"]}));

        let letter_box = boxed::LetterBox::parse(index.alphabet(), &["gm", "ae"]).unwrap();
        let counts = [0, 0, 1];
        let m = boxed_summary(&BoxedSummary {
            letter_box: &letter_box,
            playable: 1,
            counts: &counts,
            max_words: 3,
            shortest: None,
        });
        assert_eq!(m["count"], 1);
        assert_eq!(m["min_words"], 3);
        assert_eq!(m["count_by_words"], json!({"1": 0, "2": 0, "3": 1}));
        assert_eq!(m["shortest"], Value::Null);
    }

    #[test]
    fn formats_times_against_known_dates() {
        assert_eq!(iso_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_time(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso_time(1_795_433_105), "2026-11-23T11:25:05Z");
        assert_eq!(iso_time(4_107_542_399), "2100-02-28T23:59:59Z");
    }

    #[test]
    fn dates_step_one_day_at_a_time() {
        // Every day from 1970 to 2400 follows the one before: the day of
        // the month goes up by one, or a month or a year turns over.
        let mut last = civil_from_days(0);
        for day in 1..157_000 {
            let now = civil_from_days(day);
            let next_day = now == (last.0, last.1, last.2 + 1);
            let next_month = now == (last.0, last.1 + 1, 1) && last.1 < 12;
            let next_year = now == (last.0 + 1, 1, 1) && (last.1, last.2) == (12, 31);
            assert!(next_day || next_month || next_year, "{last:?} -> {now:?}");
            assert!(now.2 <= 31 && !(now.1 == 2 && now.2 > 29));
            last = now;
        }
    }
}
