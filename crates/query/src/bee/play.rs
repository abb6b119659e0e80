//! Playing along: the NYT's ranks, the hints grid, and checking guesses.

use std::collections::BTreeMap;

use super::{solve, Problem, Puzzle, ScoredWord, Solution, SolveOptions, MIN_WORD_LEN};
use crate::error::Result;
use crate::index::Index;

/// One rank of the NYT's ladder, with the points it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rank {
    /// The rank's name.
    pub name: &'static str,
    /// Points needed.
    pub score: u32,
}

/// The NYT ranks and their share of the total, in percent.
pub const RANKS: [(&str, u32); 10] = [
    ("Beginner", 0),
    ("Good Start", 2),
    ("Moving Up", 5),
    ("Good", 8),
    ("Solid", 15),
    ("Nice", 25),
    ("Great", 40),
    ("Amazing", 50),
    ("Genius", 70),
    ("Queen Bee", 100),
];

/// NYT-forum style hints for a honeycomb.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hints {
    /// The full solution the hints describe.
    pub solution: Solution,
    /// Pangrams that use each letter exactly once.
    pub perfect_pangrams: u32,
    /// True when every letter starts some word.
    pub bingo: bool,
    /// Word counts by first letter, then by length.
    pub grid: BTreeMap<char, BTreeMap<usize, u32>>,
    /// Word counts by first two letters.
    pub two_letter: BTreeMap<String, u32>,
    /// Points needed for each rank.
    pub ranks: Vec<Rank>,
}

/// Hints for a honeycomb.
pub fn hints<D: AsRef<[u8]>>(index: &Index<D>, puzzle: Puzzle, opts: &SolveOptions) -> Result<Hints> {
    let solution = solve(index, puzzle, opts)?;
    let (grid, two_letter) = grid_of(&mut solution.words.iter().map(|w| w.word));
    let letters = puzzle.letters.len();
    Ok(Hints {
        perfect_pangrams: solution.words.iter().filter(|w| w.pangram && w.word.chars().count() == letters).count()
            as u32,
        bingo: solution.letters.chars().all(|c| grid.contains_key(&c)),
        ranks: ranks(solution.score),
        grid,
        two_letter,
        solution,
    })
}

/// Word counts by first letter and length, and by first two letters.
#[allow(clippy::type_complexity)]
fn grid_of(
    // (One copy of the code for the solution's words and the words left.)
    words: &mut dyn ExactSizeIterator<Item = &str>,
) -> (BTreeMap<char, BTreeMap<usize, u32>>, BTreeMap<String, u32>) {
    // Each word's first letter and length, and its first two letters,
    // each pair packed in a u64 (the letter high), sorted, then counted
    // a run at a time: a map entry and a string a word took twice the
    // solve's instructions.
    let pack = |a: char, b: u64| (a as u64) << 32 | b;
    let mut cells: Vec<u64> = Vec::with_capacity(words.len());
    let mut starts: Vec<u64> = Vec::with_capacity(words.len());
    for word in words {
        let mut chars = word.chars();
        let (first, second) = (chars.next().unwrap_or('?'), chars.next());
        let len = 1 + second.is_some() as usize + chars.count();
        cells.push(pack(first, len.min(u32::MAX as usize) as u64));
        // A one-letter word's "second letter" sorts first.
        starts.push(pack(first, second.map_or(0, |c| c as u64 + 1)));
    }
    cells.sort_unstable();
    starts.sort_unstable();
    let unpack = |key: u64| (char::from_u32((key >> 32) as u32).unwrap_or('?'), key & 0xffff_ffff);
    let mut grid: BTreeMap<char, BTreeMap<usize, u32>> = BTreeMap::new();
    for run in cells.chunk_by(|a, b| a == b) {
        let (first, len) = unpack(run[0]);
        grid.entry(first).or_default().insert(len as usize, run.len() as u32);
    }
    let two_letter = starts
        .chunk_by(|a, b| a == b)
        .map(|run| {
            let (first, second) = unpack(run[0]);
            let mut start = first.to_string();
            start.extend((second as u32).checked_sub(1).and_then(char::from_u32));
            (start, run.len() as u32)
        })
        .collect();
    (grid, two_letter)
}

/// Why a guess is not accepted, checked in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Fewer than [`MIN_WORD_LEN`] letters.
    TooShort,
    /// It has a letter that is not in the honeycomb.
    BadLetter,
    /// It lacks the centre letter.
    MissingCenter,
    /// It is not an answer (not in the word list, or not common with
    /// `common_only`).
    NotInList,
    /// It was accepted earlier.
    Repeat,
}

impl Reason {
    /// The reason as JSON and scripts name it (`too_short`).
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::TooShort => "too_short",
            Reason::MissingCenter => "missing_center",
            Reason::BadLetter => "bad_letter",
            Reason::NotInList => "not_in_list",
            Reason::Repeat => "repeat",
        }
    }
}

/// The verdict on one guess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The guess, trimmed and lowercased.
    pub word: String,
    /// Why it is not accepted; `None` when it is.
    pub reason: Option<Reason>,
    /// Its points when accepted (else 0).
    pub score: u32,
    /// True when accepted and a pangram.
    pub pangram: bool,
}

/// The words not found yet, as hints: counts, never the words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Left {
    /// Words left.
    pub count: u32,
    /// Their points.
    pub score: u32,
    /// Pangrams left.
    pub pangrams: u32,
    /// Their counts by first letter, then by length.
    pub grid: BTreeMap<char, BTreeMap<usize, u32>>,
    /// Their counts by first two letters.
    pub two_letter: BTreeMap<String, u32>,
}

/// A player's progress on a honeycomb: what [`check`] answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The letters, sorted.
    pub letters: String,
    /// The centre letter.
    pub center: char,
    /// A verdict for each guess, in order.
    pub guesses: Vec<Verdict>,
    /// Words accepted.
    pub found_count: u32,
    /// Their points.
    pub found_score: u32,
    /// The rank reached.
    pub rank: Rank,
    /// The next rank, `None` at Queen Bee.
    pub next: Option<Rank>,
    /// Points for Genius.
    pub genius: u32,
    /// Points for Queen Bee: every word.
    pub queen_bee: u32,
    /// What is left to find.
    pub left: Left,
}

impl Progress {
    /// What keeps this honeycomb from being a puzzle, if anything.
    pub fn problem(&self) -> Option<Problem> {
        let found_pangrams = self.guesses.iter().filter(|v| v.reason.is_none() && v.pangram).count() as u64;
        let words = self.found_count as u64 + self.left.count as u64;
        Problem::of(words, found_pangrams + self.left.pangrams as u64)
    }
}

/// Checks guesses against a honeycomb, as the NYT game does: a verdict for
/// each (accepted with its points, or the first [`Reason`] it fails), the
/// score and rank reached, and hints for the words left.
///
/// ```
/// # let list = "game\nglam\nmegaplex\namalgam\n";
/// # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("t", list)], &Default::default()).unwrap();
/// # let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
/// use wordhoard_query::bee::{self, Puzzle, Reason, SolveOptions};
///
/// let puzzle = Puzzle::parse(index.alphabet(), "aeglmpx", Some("g"))?;
/// let progress = bee::check(&index, puzzle, &["GAME", "gam", "glam", "game"], &SolveOptions::default())?;
/// let reasons: Vec<_> = progress.guesses.iter().map(|v| v.reason).collect();
/// assert_eq!(reasons, [None, Some(Reason::TooShort), None, Some(Reason::Repeat)]);
/// assert_eq!((progress.found_count, progress.found_score), (2, 2));
/// assert_eq!((progress.left.count, progress.left.pangrams), (2, 1));
/// # Ok::<(), wordhoard_query::Error>(())
/// ```
pub fn check<D: AsRef<[u8]>>(
    index: &Index<D>,
    puzzle: Puzzle,
    guesses: &[impl AsRef<str>],
    opts: &SolveOptions,
) -> Result<Progress> {
    let solution = solve(index, puzzle, opts)?;
    let letters: Vec<char> = solution.letters.chars().collect();
    let mut found = vec![false; solution.words.len()];
    let verdicts = guesses
        .iter()
        .map(|guess| {
            // `lucid,` is read as `lucid`: the punctuation around a word
            // is how it was typed, not part of it.
            let typed = guess.as_ref().trim_matches(|c: char| c.is_whitespace() || c.is_ascii_punctuation());
            let word = index.alphabet().folding().normalise(typed);
            let answer = solution.words.position(&word);
            let reason = if word.chars().count() < MIN_WORD_LEN {
                Some(Reason::TooShort)
            } else if word.chars().any(|c| !letters.contains(&c)) {
                Some(Reason::BadLetter)
            } else if !word.contains(solution.center) {
                Some(Reason::MissingCenter)
            } else if answer.is_none() {
                Some(Reason::NotInList)
            } else if answer.is_some_and(|i| found[i]) {
                Some(Reason::Repeat)
            } else {
                None
            };
            let accepted = answer.filter(|_| reason.is_none());
            if let Some(i) = accepted {
                found[i] = true;
            }
            let scored = accepted.and_then(|i| solution.words.get(i));
            Verdict { word, reason, score: scored.map_or(0, |w| w.score), pangram: scored.is_some_and(|w| w.pangram) }
        })
        .collect();
    let found_score: u32 = solution.words.iter().zip(&found).filter(|(_, &f)| f).map(|(w, _)| w.score).sum();
    let left_words: Vec<ScoredWord> =
        solution.words.iter().zip(&found).filter(|(_, &f)| !f).map(|(w, _)| ScoredWord::from(w)).collect();
    let ladder = ranks(solution.score);
    let (rank, next) = rank_at(solution.score, found_score);
    let (grid, two_letter) = grid_of(&mut left_words.iter().map(|w| w.word.as_str()));
    let rank_named = |name: &str| ladder.iter().find(|r| r.name == name).map_or(0, |r| r.score);
    Ok(Progress {
        letters: solution.letters.clone(),
        center: solution.center,
        guesses: verdicts,
        found_count: found.iter().filter(|&&f| f).count() as u32,
        found_score,
        rank,
        next,
        genius: rank_named("Genius"),
        queen_bee: rank_named("Queen Bee"),
        left: Left {
            count: left_words.len() as u32,
            score: solution.score - found_score,
            pangrams: left_words.iter().filter(|w| w.pangram).count() as u32,
            grid,
            two_letter,
        },
    })
}

/// The rank `score` reaches out of `total` (the highest whose points it
/// has), and the next one (`None` at Queen Bee).
pub fn rank_at(total: u32, score: u32) -> (Rank, Option<Rank>) {
    let ladder = ranks(total);
    let reached = ladder.iter().rposition(|r| r.score <= score).unwrap_or(0);
    (ladder[reached].clone(), ladder.get(reached + 1).cloned())
}

/// The points needed for each rank: a share of `total`, rounded half up.
pub fn ranks(total: u32) -> Vec<Rank> {
    RANKS
        .iter()
        .map(|&(name, pct)| Rank { name, score: ((total as u64 * pct as u64 * 2 + 100) / 200) as u32 })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid and the two-letter counts as a plain count makes them,
    /// a string a word, on random words of 1 to 9 letters (some past
    /// ASCII, whose letters are more than a byte).
    #[test]
    fn grid_counts_as_a_plain_count_does() {
        let letters = ['a', 'b', 'e', 'é', 'ß', 'z'];
        let mut rng = crate::rng::SplitMix64::new(11);
        for _ in 0..50 {
            let words: Vec<String> = (0..rng.below(60))
                .map(|_| {
                    let len = 1 + rng.below(9) as usize;
                    (0..len).map(|_| letters[rng.below(letters.len() as u64) as usize]).collect()
                })
                .collect();
            let mut grid: BTreeMap<char, BTreeMap<usize, u32>> = BTreeMap::new();
            let mut two_letter: BTreeMap<String, u32> = BTreeMap::new();
            for w in &words {
                let first = w.chars().next().unwrap_or('?');
                *grid.entry(first).or_default().entry(w.chars().count()).or_default() += 1;
                *two_letter.entry(w.chars().take(2).collect()).or_default() += 1;
            }
            assert_eq!(grid_of(&mut words.iter().map(String::as_str)), (grid, two_letter));
        }
    }
}
