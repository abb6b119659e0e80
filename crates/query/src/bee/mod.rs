//! The NYT Spelling Bee, answered from the `lettersets` and `honeycombs`
//! sections (their layout: the [format spec](crate::format)).
//!
//! A honeycomb is 7 letters with one at the centre; a word counts when it
//! has at least [`MIN_WORD_LEN`] letters, all of the honeycomb, among them
//! the centre. [`solve`] finds a honeycomb's words by visiting only the
//! letter sets within it (127 of them), never a word list; [`best`],
//! [`stats`] and [`generate`] read the precomputed honeycomb table.
//!
//! ```
//! # let list = "game\nglam\nmegaplex\namalgam\nmaple\n";
//! # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("t", list)], &Default::default()).unwrap();
//! # let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
//! use wordhoard_query::bee::{self, Puzzle, SolveOptions};
//!
//! let puzzle = Puzzle::parse(index.alphabet(), "aeglmpx", Some("x"))?;
//! let solution = bee::solve(&index, puzzle, &SolveOptions::default())?;
//! assert_eq!(solution.words.len(), 1); // megaplex: the only word with an x
//! assert!(solution.words.get(0).is_some_and(|w| w.pangram));
//! let best = bee::best(&index, 1, Default::default(), &SolveOptions::default())?;
//! assert_eq!(best[0].score, solution.score.max(best[0].score));
//! # Ok::<(), wordhoard_query::Error>(())
//! ```

use compact_str::CompactString;

use crate::alphabet::{Alphabet, LetterSet, WordTexts};
use crate::error::{Error, Result};

mod generate;
mod play;
mod search;
mod tables;

pub use generate::{generate, GenerateOptions};
pub use play::{check, hints, rank_at, ranks, Hints, Left, Progress, Rank, Reason, Verdict, RANKS};
pub use search::{best, report, solve, solve_each, stats, ReportGroup, Scored, Totals};
pub(crate) use tables::check_sections;

/// The shortest word the Spelling Bee accepts.
pub const MIN_WORD_LEN: usize = 4;
/// The letters of an NYT honeycomb.
pub const HONEYCOMB_LETTERS: usize = 7;
/// The bonus for a pangram.
pub const PANGRAM_BONUS: u32 = 7;

/// Points for a word of `len` letters, before any pangram bonus.
pub fn base_points(len: usize) -> u32 {
    if len == MIN_WORD_LEN {
        1
    } else {
        len as u32
    }
}

/// A honeycomb: a set of distinct letters and a centre letter among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The letters.
    pub letters: LetterSet,
    /// The centre's letter index.
    pub center: usize,
}

impl Puzzle {
    /// Parses letters as typed and an optional centre (default: the first
    /// letter typed).
    pub fn parse(alphabet: &Alphabet, letters: &str, center: Option<&str>) -> Result<Puzzle> {
        let set = alphabet.parse_distinct(letters, "letters")?;
        if set.is_empty() {
            return Err(Error::invalid("letters are empty; give the honeycomb's letters, e.g. `aeginrt`"));
        }
        let center = match center {
            Some(c) => alphabet.parse_letter(c, "center")?,
            None => alphabet.parse_letter(&letters[..letters.chars().next().map_or(0, char::len_utf8)], "center")?,
        };
        if !set.contains(center) {
            return Err(Error::invalid_param(
                "center",
                format!(
                    "{:?} is not one of the letters {:?}; pick one of them",
                    alphabet.char_at(center),
                    alphabet.letters_of(set)
                ),
            ));
        }
        Ok(Puzzle { letters: set, center })
    }
}

/// One word of a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredWord {
    /// The word (a word of up to 24 bytes is kept inline: a solution of
    /// hundreds of words is not hundreds of allocations).
    pub word: CompactString,
    /// Its points.
    pub score: u32,
    /// True when it uses every letter of the honeycomb.
    pub pangram: bool,
    /// True when it is on the index's common list.
    pub common: bool,
}

/// Every word of a honeycomb.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The letters, sorted.
    pub letters: String,
    /// The centre letter.
    pub center: char,
    /// The total score.
    pub score: u32,
    /// The pangram count.
    pub pangrams: u32,
    /// The words, a-z.
    pub words: SolvedWords,
}

/// A solution's words, a-z, their texts back to back in one string (the
/// buffer the index decoded them into): a honeycomb's hundreds of words
/// are two allocations, not a string a word (537 words: a string each
/// cost a sixth of a solve).
///
/// ```
/// # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("t", "game\nglam\nmegaplex\n")], &Default::default()).unwrap();
/// # let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
/// use wordhoard_query::bee::{self, Puzzle, SolveOptions};
///
/// let puzzle = Puzzle::parse(index.alphabet(), "aeglmpx", Some("g"))?;
/// let words = bee::solve(&index, puzzle, &SolveOptions::default())?.words;
/// assert_eq!(words.len(), 3);
/// assert_eq!(words.get(2).map(|w| (w.word, w.score, w.pangram)), Some(("megaplex", 15, true)));
/// assert_eq!(words.position("glam"), Some(1));
/// # Ok::<(), wordhoard_query::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolvedWords {
    /// Every word's text.
    texts: WordTexts,
    /// What [`Scored`] tells of each word besides its text.
    marks: Vec<Marks>,
}

/// One word of [`SolvedWords`] besides its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Marks {
    score: u32,
    pangram: bool,
    common: bool,
}

impl SolvedWords {
    /// The words `texts`, the marks of word `i` pushed `i`-th by `marks`.
    fn new(texts: WordTexts, marks: Vec<Marks>) -> SolvedWords {
        SolvedWords { texts, marks }
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.marks.len()
    }

    /// True when there is no word.
    pub fn is_empty(&self) -> bool {
        self.marks.is_empty()
    }

    /// Word `i` (a-z), if there are that many.
    pub fn get(&self, i: usize) -> Option<Scored<'_>> {
        let marks = self.marks.get(i)?;
        Some(Scored { word: self.texts.get(i)?, score: marks.score, pangram: marks.pangram, common: marks.common })
    }

    /// The words, a-z.
    pub fn iter(&self) -> SolvedIter<'_> {
        let (text, ends) = self.texts.parts();
        let words = ends.len().min(self.marks.len());
        SolvedIter { text, ends: ends[..words].iter(), marks: self.marks[..words].iter(), start: 0 }
    }

    /// Where `word` is among the words, if it is one (a binary search:
    /// the words are a-z).
    pub fn position(&self, word: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.get(mid).map(|w| w.word.cmp(word))? {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }
}

impl<'a> IntoIterator for &'a SolvedWords {
    type Item = Scored<'a>;
    type IntoIter = SolvedIter<'a>;

    fn into_iter(self) -> SolvedIter<'a> {
        self.iter()
    }
}

/// The words of [`SolvedWords`], a-z.
#[derive(Clone, Debug)]
pub struct SolvedIter<'a> {
    text: &'a str,
    /// Where each word left ends in `text`, beside its marks.
    ends: std::slice::Iter<'a, usize>,
    marks: std::slice::Iter<'a, Marks>,
    /// Where the next word starts.
    start: usize,
}

impl<'a> SolvedIter<'a> {
    #[inline]
    fn scored(&self, start: usize, end: usize, marks: &Marks) -> Option<Scored<'a>> {
        Some(Scored {
            word: self.text.get(start..end)?,
            score: marks.score,
            pangram: marks.pangram,
            common: marks.common,
        })
    }
}

impl<'a> Iterator for SolvedIter<'a> {
    type Item = Scored<'a>;

    #[inline]
    fn next(&mut self) -> Option<Scored<'a>> {
        let (&end, marks) = (self.ends.next()?, self.marks.next()?);
        let start = std::mem::replace(&mut self.start, end);
        self.scored(start, end, marks)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.marks.len(), Some(self.marks.len()))
    }
}

impl DoubleEndedIterator for SolvedIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let (&end, marks) = (self.ends.next_back()?, self.marks.next_back()?);
        let start = self.ends.as_slice().last().copied().unwrap_or(self.start);
        self.scored(start, end, marks)
    }
}

impl ExactSizeIterator for SolvedIter<'_> {
    // Said, not derived from the size hint: the default's check of the
    // hint is kilobytes of formatting code in the WebAssembly.
    fn len(&self) -> usize {
        self.marks.len()
    }
}

impl From<Scored<'_>> for ScoredWord {
    fn from(w: Scored<'_>) -> ScoredWord {
        ScoredWord { word: w.word.into(), score: w.score, pangram: w.pangram, common: w.common }
    }
}

impl Solution {
    /// What keeps this honeycomb from being a puzzle, if anything.
    pub fn problem(&self) -> Option<Problem> {
        Problem::of(self.words.len() as u64, self.pangrams as u64)
    }
}

/// What keeps a honeycomb from being a Spelling Bee puzzle: the NYT's
/// always have words, and at least one pangram. A player is told, rather
/// than congratulated on finding 0 of 0 ("Queen Bee").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// No word of the index fits the honeycomb.
    NoWords,
    /// Words, but none uses every letter.
    NoPangram,
}

impl Problem {
    /// The problem of a honeycomb with `words` words and `pangrams` pangrams.
    pub fn of(words: u64, pangrams: u64) -> Option<Problem> {
        match (words, pangrams) {
            (0, _) => Some(Problem::NoWords),
            (_, 0) => Some(Problem::NoPangram),
            _ => None,
        }
    }

    /// The JSON name: `no_words`, `no_pangram`.
    pub fn as_str(self) -> &'static str {
        match self {
            Problem::NoWords => "no_words",
            Problem::NoPangram => "no_pangram",
        }
    }

    /// What a player is told.
    pub fn message(self) -> &'static str {
        match self {
            Problem::NoWords => "No word of this index fits this honeycomb: there is nothing to find.",
            Problem::NoPangram => "No word uses every letter: this honeycomb has no pangram, as the NYT's always do.",
        }
    }
}

/// A honeycomb's totals, as `best` lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoneycombScore {
    /// The letters, sorted.
    pub letters: String,
    /// The centre letter.
    pub center: char,
    /// The total score.
    pub score: u32,
    /// The word count.
    pub count: u32,
    /// The pangram count.
    pub pangrams: u32,
}

/// Counts over the whole word list, as Norvig's notebook gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// All words in the index.
    pub words: u64,
    /// Words of at least 4 letters, none excluded, at most 7 distinct.
    pub valid: u64,
    /// Valid words with exactly 7 distinct letters.
    pub pangram_words: u64,
    /// Distinct letter sets of the pangram words.
    pub pangram_lettersets: u64,
    /// Pangram letter sets times 7 centres.
    pub candidate_honeycombs: u64,
}

/// Which words a question counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOptions {
    /// Only words on the index's common list (an error for an index built
    /// without one).
    pub common_only: bool,
}

/// Inclusive bounds on a number, either side open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// The least value allowed.
    pub min: Option<u32>,
    /// The greatest value allowed.
    pub max: Option<u32>,
}

impl Bounds {
    /// True when `v` is within the bounds.
    pub fn contains(&self, v: u32) -> bool {
        self.min.is_none_or(|lo| v >= lo) && self.max.is_none_or(|hi| v <= hi)
    }

    /// True when neither side is set.
    pub fn is_open(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::tables::Honeycombs;
    use super::*;
    use crate::format::SectionId;
    use crate::index::Index;
    use crate::rng::SplitMix64;
    use crate::testutil::{index, NORVIG_TINY};

    fn puzzle(idx: &Index<Vec<u8>>, letters: &str, center: &str) -> Puzzle {
        Puzzle::parse(idx.alphabet(), letters, Some(center)).unwrap()
    }

    #[test]
    fn ranks_change_exactly_at_their_points() {
        for total in 0..400 {
            let ladder = ranks(total);
            for (i, r) in ladder.iter().enumerate() {
                let (at, next) = rank_at(total, r.score);
                // Ranks that share points: the highest of them is reached.
                let top = ladder.iter().rposition(|x| x.score == r.score).unwrap();
                assert_eq!(at, ladder[top], "total {total}, {}", r.name);
                assert_eq!(next, ladder.get(top + 1).cloned());
                if r.score > 0 && (i == 0 || ladder[i - 1].score < r.score) {
                    assert_eq!(rank_at(total, r.score - 1).0, ladder[i - 1], "total {total}: below {}", r.name);
                }
            }
            assert_eq!(rank_at(total, total).0.name, "Queen Bee");
            assert_eq!(rank_at(total, total).1, None);
        }
    }

    #[test]
    fn norvig_tiny_list_figures() {
        let idx = index(NORVIG_TINY, None);
        let st = stats(&idx, idx.alphabet().parse_distinct("s", "x").unwrap()).unwrap();
        // game, amalgam, glam, megaplex, cacciatore, erotica
        assert_eq!(st.valid, 6);
        assert_eq!(st.pangram_words, 3);
        assert_eq!(st.pangram_lettersets, 2, "cacciatore and erotica share one");
        let top = best(&idx, 7, idx.alphabet().parse_distinct("s", "x").unwrap(), &SolveOptions::default()).unwrap();
        assert!(top.iter().all(|h| h.letters == "aceiort" && h.score == 31 && h.count == 2));
        let centres: String = top.iter().map(|h| h.center).collect();
        assert_eq!(centres, "aceiort", "ties fall by centre, a-z");
    }

    #[test]
    fn solve_scores_words_and_pangrams() {
        let idx = index(NORVIG_TINY, None);
        let s = solve(&idx, puzzle(&idx, "aeglmpx", "g"), &SolveOptions::default()).unwrap();
        let words: Vec<&str> = s.words.iter().map(|w| w.word).collect();
        assert_eq!(words, vec!["amalgam", "game", "glam", "megaplex"]);
        assert_eq!(s.score, 7 + 1 + 1 + 15);
        assert_eq!(s.pangrams, 1);
        assert!(s.words.get(3).unwrap().pangram && !s.words.get(0).unwrap().pangram);
        assert_eq!(s.words.iter().rev().map(|w| w.word).collect::<Vec<_>>(), ["megaplex", "glam", "game", "amalgam"]);
        assert_eq!(s.words.iter().len(), 4);
        assert_eq!(s.words.get(4), None);
        for (i, w) in s.words.iter().enumerate() {
            assert_eq!(s.words.position(w.word), Some(i));
        }
        assert_eq!(s.words.position("gam"), None);
        assert_eq!(s.words.position("zzz"), None);
    }

    #[test]
    fn solve_handles_large_letter_sets_by_scanning() {
        let idx = index(NORVIG_TINY, None);
        let all = "abcdefghijklmnopqrstuvwxyz";
        let s = solve(&idx, puzzle(&idx, all, "a"), &SolveOptions::default()).unwrap();
        assert_eq!(s.words.len(), 8, "every word of 4+ letters with an a");
    }

    #[test]
    fn report_puts_pangrams_first() {
        let idx = index(NORVIG_TINY, None);
        let (_, groups) = report(&idx, puzzle(&idx, "aeglmpx", "g"), &SolveOptions::default()).unwrap();
        assert_eq!(groups[0].letters, "aeglmpx");
        assert_eq!(groups.last().unwrap().letters, "aglm");
    }

    /// A solve reads a honeycomb's words from the letter sets' own texts
    /// (columns 4 and 5) where the file has them, else by id from the
    /// word text: the two give the same answers, with and without a
    /// common list, on random lists of words over eight letters, for
    /// honeycombs of 6 to 8 letters (8: past the texts, by id either way).
    #[test]
    fn row_texts_and_the_word_text_give_the_same_answers() {
        use crate::testutil::with_columns;
        let letters = ['a', 'b', 'c', 'd', 'e', 'g', 'r', 't'];
        let mut rng = SplitMix64::new(33);
        for round in 0..12 {
            let list: Vec<String> =
                (0..120).map(|_| (0..3 + rng.below(7)).map(|_| letters[rng.below(8) as usize]).collect()).collect();
            let common: Vec<&str> = list.iter().filter(|_| rng.below(3) == 0).map(String::as_str).collect();
            let with = index(&list.join("\n"), (round % 2 == 0).then(|| common.join("\n")).as_deref());
            let without = with_columns(&with, SectionId::Lettersets, |cols| cols.truncate(4));
            for _ in 0..8 {
                let size = 6 + rng.below(3) as usize;
                let mut picked: Vec<char> = letters.to_vec();
                while picked.len() > size {
                    picked.remove(rng.below(picked.len() as u64) as usize);
                }
                let comb: String = picked.iter().collect();
                let center = picked[rng.below(size as u64) as usize].to_string();
                let p = puzzle(&with, &comb, &center);
                for common_only in [false, round % 2 == 0] {
                    let opts = SolveOptions { common_only };
                    let got = solve(&with, p, &opts).unwrap();
                    assert_eq!(got, solve(&without, p, &opts).unwrap(), "{comb} {center}");
                    let mut streamed = Vec::new();
                    solve_each(&with, p, &opts, |w| streamed.push(ScoredWord::from(w))).unwrap();
                    assert_eq!(streamed, got.words.iter().map(ScoredWord::from).collect::<Vec<_>>());
                }
            }
        }
    }

    /// Texts that do not hold exactly their row's words are an error for
    /// the solve that reads them, and `verify` names them, whatever the
    /// checksums say.
    #[test]
    fn row_texts_that_disagree_with_their_rows_are_errors() {
        use crate::testutil::with_columns;
        let intact = index(NORVIG_TINY, None);
        let p = puzzle(&intact, "aeglmpx", "g");
        let problem = |idx: &Index<Vec<u8>>| {
            idx.verify().into_iter().find(|c| c.name == "lettersets").and_then(|c| c.problem).unwrap_or_default()
        };
        assert_eq!(problem(&intact), "");
        // The first row's first word made one code longer, shorter, empty.
        for (edit, want) in [(1i32, "past their end"), (-1, "letters are not the row's"), (-100, "empty")] {
            let bad = with_columns(&intact, SectionId::Lettersets, |cols| {
                let len = cols[5][0] as i32;
                cols[5][0] = (len + edit).clamp(0, 255) as u8;
            });
            assert!(problem(&bad).contains(want), "{edit}: {}", problem(&bad));
        }
        // A word dropped from every row: each row's texts fall short.
        let short = with_columns(&intact, SectionId::Lettersets, |cols| {
            let starts: Vec<u32> = cols[4].chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().unwrap())).collect();
            let mut texts = Vec::new();
            let mut new_starts = vec![0u32];
            for range in starts.windows(2) {
                let row = &cols[5][range[0] as usize..range[1] as usize];
                let skip = row.first().map_or(0, |&len| 1 + len as usize);
                texts.extend_from_slice(&row[skip..]);
                new_starts.push(texts.len() as u32);
            }
            cols[4] = new_starts.iter().flat_map(|v| v.to_le_bytes()).collect();
            cols[5] = texts;
        });
        let err = solve(&short, p, &SolveOptions::default()).unwrap_err();
        assert!(err.to_string().contains("lettersets"), "{err}");
        assert!(problem(&short).contains("shorter than its words"), "{}", problem(&short));
        // Texts where a row of 8 letters has none.
        let big = index("abcdefgh\nmegaplex\n", None);
        let padded = with_columns(&big, SectionId::Lettersets, |cols| {
            cols[5].splice(0..0, [8, b'a', b'b', b'c', b'd', b'e', b'f', b'g', b'h']);
            let starts: Vec<u32> = cols[4]
                .chunks_exact(4)
                .enumerate()
                .map(|(i, b)| u32::from_le_bytes(b.try_into().unwrap()) + if i == 0 { 0 } else { 9 })
                .collect();
            cols[4] = starts.iter().flat_map(|v| v.to_le_bytes()).collect();
        });
        assert!(problem(&padded).contains("more than 7 letters"), "{}", problem(&padded));
    }

    /// The groups as a plain map makes them, keyed by (size, letters): on
    /// random lists of words over eight letters and every honeycomb of
    /// seven of them.
    #[test]
    fn report_groups_as_a_plain_map_does() {
        use std::collections::BTreeMap;
        let letters = ['a', 'b', 'c', 'd', 'e', 'g', 'r', 't'];
        let mut rng = crate::rng::SplitMix64::new(21);
        for _ in 0..8 {
            let list: Vec<String> =
                (0..150).map(|_| (0..4 + rng.below(5)).map(|_| letters[rng.below(8) as usize]).collect()).collect();
            let idx = index(&list.join("\n"), None);
            for skip in 0..letters.len() {
                let comb: String = letters.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, c)| *c).collect();
                let p = puzzle(&idx, &comb, &comb[..1]);
                let (solution, groups) = report(&idx, p, &SolveOptions::default()).unwrap();
                let mut want: BTreeMap<(usize, String), Vec<ScoredWord>> = BTreeMap::new();
                for w in &solution.words {
                    let set = idx.alphabet().set_of(w.word.as_bytes()).unwrap();
                    want.entry((usize::MAX - set.len(), idx.alphabet().letters_of(set))).or_default().push(w.into());
                }
                let want: Vec<(String, u32, Vec<ScoredWord>)> = want
                    .into_iter()
                    .map(|((_, letters), words)| (letters, words.iter().map(|w| w.score).sum(), words))
                    .collect();
                let got: Vec<(String, u32, Vec<ScoredWord>)> =
                    groups.into_iter().map(|g| (g.letters, g.score, g.words)).collect();
                assert_eq!(got, want, "{comb}");
            }
        }
    }

    #[test]
    fn generate_is_reproducible_and_bounded() {
        let idx = index(NORVIG_TINY, Some("game\nerotica\n"));
        let opts = GenerateOptions { seed: 3, ..Default::default() };
        assert_eq!(generate(&idx, &opts).unwrap(), generate(&idx, &opts).unwrap());
        let high = GenerateOptions { seed: 3, score: Bounds { min: Some(30), max: None }, ..Default::default() };
        assert_eq!(generate(&idx, &high).unwrap().letters, "aceiort");
        let empty = GenerateOptions { score: Bounds { min: Some(5), max: Some(4) }, ..Default::default() };
        assert!(generate(&idx, &empty).unwrap_err().is_usage());
        let none = GenerateOptions { score: Bounds { min: Some(1000), max: None }, ..Default::default() };
        assert!(generate(&idx, &none).unwrap_err().is_usage());
        let common = GenerateOptions { common_only: true, ..Default::default() };
        let g = generate(&idx, &common).unwrap();
        assert!(g.words.iter().all(|w| w.common) && g.pangrams > 0);
    }

    #[test]
    fn generate_picks_the_seeds_cell_among_every_fitting_one() {
        // The n-th fitting (honeycomb, centre) in table order, found the
        // slow way, is the one generate picks for a seed drawing n.
        let words: String = [
            "aerating",
            "granite",
            "tearing",
            "integrate",
            "rating",
            "gratine",
            "orating",
            "agitator",
            "rotating",
            "notation",
            "ignorant",
            "gnat",
            "tang",
            "iota",
            "roan",
            "noting",
            "toning",
        ]
        .join("\n");
        let idx = index(&words, None);
        let combs = Honeycombs::open(&idx, SectionId::Honeycombs).unwrap();
        let cases = [(None, None), (Some(20), None), (None, Some(25)), (Some(5), Some(40))];
        for (lo, hi) in cases {
            let fits: Vec<(LetterSet, usize)> = combs
                .each(LetterSet::EMPTY)
                .map(Result::unwrap)
                .filter(|(_, _, [score, _, pangrams])| {
                    *pangrams > 0 && lo.is_none_or(|lo| *score >= lo) && hi.is_none_or(|hi| *score <= hi)
                })
                .map(|(mask, centre, _)| (mask, centre))
                .collect();
            if (lo, hi) == (None, None) {
                assert!(fits.len() >= 14, "several honeycombs to pick from");
            }
            for seed in 0..40 {
                let opts = GenerateOptions {
                    seed,
                    score: Bounds { min: lo, max: hi },
                    exclude: LetterSet::EMPTY,
                    ..Default::default()
                };
                let got = generate(&idx, &opts);
                if fits.is_empty() {
                    assert!(got.unwrap_err().is_usage());
                    continue;
                }
                let (mask, centre) = fits[SplitMix64::new(seed).below(fits.len() as u64) as usize];
                let got = got.unwrap();
                assert_eq!(got.letters, idx.alphabet().letters_of(mask), "seed {seed}, score {lo:?}..{hi:?}");
                assert_eq!(got.center, idx.alphabet().letter(centre) as char);
            }
        }
    }

    #[test]
    fn hints_count_grid_and_pangrams() {
        let idx = index(NORVIG_TINY, None);
        let h = hints(&idx, puzzle(&idx, "acieort", "e"), &SolveOptions::default()).unwrap();
        assert_eq!(h.solution.words.len(), 2);
        assert_eq!(h.perfect_pangrams, 1, "erotica uses each letter once");
        assert!(!h.bingo);
        assert_eq!(h.grid[&'e'][&7], 1);
        assert_eq!(h.two_letter["ca"], 1);
    }

    #[test]
    fn points_follow_the_rules() {
        assert_eq!(base_points(4), 1);
        assert_eq!(base_points(5), 5);
        assert_eq!(base_points(8), 8);
    }

    #[test]
    fn ranks_round_half_up() {
        let r = ranks(3898);
        assert_eq!(r[8], Rank { name: "Genius", score: 2729 });
        assert_eq!(r[9].score, 3898);
        assert_eq!(r[0].score, 0);
        // 2% of 25 is 0.5, which rounds up.
        assert_eq!(ranks(25)[1].score, 1);
    }

    #[test]
    fn puzzle_parsing_checks_centre_and_letters() {
        let a = Alphabet::latin();
        let p = Puzzle::parse(&a, "RAEGINT", None).unwrap();
        assert_eq!(a.letter(p.center), b'r');
        assert_eq!(p.letters.len(), 7);
        assert!(Puzzle::parse(&a, "aeginrt", Some("s")).unwrap_err().to_string().contains("not one of"));
        assert!(Puzzle::parse(&a, "aaginrt", None).is_err());
        assert!(Puzzle::parse(&a, "", None).is_err());
        assert!(Puzzle::parse(&a, "ae1", None).unwrap_err().is_usage());
    }
}
