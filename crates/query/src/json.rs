//! The JSON shape of each answer: what `wordhoard --json` prints and what
//! the web page (`crates/web`) reads, built in one place so the two can
//! never drift apart. Feature `json`.
//!
//! Keys and their meaning are the SPEC's; numbers are exact (Letter Boxed
//! counts are u128, which serde_json's `arbitrary_precision` keeps).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::anigram::Step;
use crate::bee::{Hints, Progress, Rank, Solution};
use crate::boxed::{Generated, LetterBox};

/// A Spelling Bee solution: `bee solve`.
pub fn bee_solution(s: &Solution) -> Value {
    json!({
        "letters": s.letters,
        "center": s.center.to_string(),
        "score": s.score,
        "count": s.words.len(),
        "pangrams": s.pangrams,
        "problem": s.problem().map(|p| p.as_str()),
        "words": s.words.iter()
            .map(|w| json!({"word": w.word, "score": w.score, "pangram": w.pangram, "common": w.common}))
            .collect::<Vec<_>>(),
    })
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
pub fn bee_generated(s: &Solution, seed: u64) -> Value {
    let mut v = bee_solution(s);
    v["seed"] = json!(seed);
    v
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
        let v = bee_solution(&solution);
        assert_eq!(v["score"], solution.score);
        assert_eq!(v["count"], solution.words.len());
        assert_eq!(v["words"][0]["word"], solution.words[0].word.as_str());

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
