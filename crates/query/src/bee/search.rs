//! Answers from the tables: a honeycomb's words ([`solve`], [`report`]),
//! the best honeycombs ([`best`]) and the word list's counts ([`stats`]).

use super::tables::{Honeycombs, LetterSets, RowTexts};
use super::{
    base_points, HoneycombScore, Marks, Puzzle, ScoredWord, Solution, SolveOptions, SolvedWords, Stats,
    HONEYCOMB_LETTERS, PANGRAM_BONUS,
};
use crate::alphabet::{LetterSet, WordTexts};
use crate::error::Result;
use crate::format::SectionId;
use crate::index::{AscendingFlags, Index};

/// All words of a honeycomb, with their scores.
///
/// ```
/// # let built = wordhoard_builder::build_index(&[wordhoard_builder::WordSource::from_text("t", "game\nglam\nmegaplex\n")], &Default::default()).unwrap();
/// # let index = wordhoard_query::Index::from_bytes(built.into_bytes()).unwrap();
/// use wordhoard_query::bee::{self, Puzzle, SolveOptions};
///
/// let puzzle = Puzzle::parse(index.alphabet(), "aeglmpx", Some("g"))?;
/// let solution = bee::solve(&index, puzzle, &SolveOptions::default())?;
/// let words: Vec<&str> = solution.words.iter().map(|w| w.word).collect();
/// assert_eq!(words, ["game", "glam", "megaplex"]);
/// assert_eq!(solution.score, 1 + 1 + 15); // megaplex is a pangram: 8 + 7
/// # Ok::<(), wordhoard_query::Error>(())
/// ```
pub fn solve<D: AsRef<[u8]>>(index: &Index<D>, puzzle: Puzzle, opts: &SolveOptions) -> Result<Solution> {
    let (totals, words) = solve_words(index, puzzle, opts)?;
    let alphabet = index.alphabet();
    Ok(Solution {
        letters: alphabet.letters_of(puzzle.letters),
        center: alphabet.char_at(puzzle.center),
        score: totals.score,
        pangrams: totals.pangrams,
        words,
    })
}

/// One word of [`solve_each`], borrowed for the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored<'a> {
    /// The word.
    pub word: &'a str,
    /// Its points.
    pub score: u32,
    /// True when it uses every letter of the honeycomb.
    pub pangram: bool,
    /// True when it is on the index's common list.
    pub common: bool,
}

/// What [`solve_each`] found in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// The words.
    pub words: u32,
    /// Their points.
    pub score: u32,
    /// The pangrams among them.
    pub pangrams: u32,
}

/// [`solve`] for a reader that keeps no word: calls `each` with every
/// word a-z, its text in one buffer the calls share (no allocation a
/// word), and returns the totals.
pub fn solve_each<D: AsRef<[u8]>>(
    index: &Index<D>,
    puzzle: Puzzle,
    opts: &SolveOptions,
    mut each: impl FnMut(Scored<'_>),
) -> Result<Totals> {
    let (totals, words) = solve_words(index, puzzle, opts)?;
    words.iter().for_each(&mut each);
    Ok(totals)
}

/// A honeycomb's words and their totals: its rows' words, sorted by id
/// (a-z), their texts read in one pass that also scores and flags them.
fn solve_words<D: AsRef<[u8]>>(index: &Index<D>, puzzle: Puzzle, opts: &SolveOptions) -> Result<(Totals, SolvedWords)> {
    let common_only = opts.common_only;
    index.require_common_list(common_only)?;
    let sets = LetterSets::open(index)?;
    let rows = sets.rows_within(puzzle.letters, LetterSet::EMPTY.with(puzzle.center))?;
    // The texts of the letter sets' own rows, when the file has them and
    // they cover the honeycomb's rows (a word's place there must fit
    // beside its pangram bit).
    let row_texts =
        sets.texts.filter(|t| puzzle.letters.len() <= HONEYCOMB_LETTERS && t.column().len() <= PLACE_MASK as usize);
    let Gathered { mut words, code_bytes } = words_of_rows(&sets, &rows, puzzle.letters, row_texts.as_ref())?;
    crate::ids::sort_by_high_half(&mut words);
    let id_of = |w: &u64| (w >> 32) as u32;
    let (first, last) = (words.first().map_or(0, id_of), words.last().map_or(0, id_of));
    let mut common = index.common()?.ascending(first, last, words.len())?;
    if common_only {
        let mut failed = Ok(());
        words.retain(|&w| match common.is_common(id_of(&w)) {
            Ok(common) => common,
            Err(e) => {
                failed = Err(e);
                false
            }
        });
        failed?;
    }
    let mut marker = Marker { common, totals: Totals::default() };
    let mut marks = vec![Marks { score: 0, pangram: false, common: false }; words.len()];
    let alphabet = index.alphabet();
    let texts = match row_texts {
        Some(row_texts) => {
            let column = row_texts.column();
            // Room for every word's codes and a copy of 16 bytes past the
            // last: a word is one such copy (or one of its own length
            // near the column's end), the next word written over the rest.
            let mut codes = vec![0u8; code_bytes + WIDE_COPY];
            let mut ends = vec![0; words.len()];
            let mut end = 0;
            for ((&w, word_end), marks) in words.iter().zip(&mut ends).zip(&mut marks) {
                // A length byte, then the codes: checked in bounds as gathered.
                let at = (w & PLACE_MASK) as usize;
                let len = column.get(at).map_or(0, |&len| len as usize);
                let codes_at = at + 1..at + 1 + len;
                let wide = column.get(codes_at.start..).and_then(|rest| rest.first_chunk::<WIDE_COPY>());
                match (codes.get_mut(end..).and_then(|rest| rest.first_chunk_mut::<WIDE_COPY>()), wide) {
                    (Some(to), Some(wide)) if len <= WIDE_COPY => *to = *wide,
                    _ => match (codes.get_mut(end..end + len), column.get(codes_at)) {
                        (Some(to), Some(from)) => to.copy_from_slice(from),
                        _ => return Err(SectionId::Lettersets.corrupt("has a row's texts shorter than its words")),
                    },
                }
                end += len;
                *word_end = end;
                // One code a letter.
                *marks = marker.mark(w, len)?;
            }
            codes.truncate(end);
            if !alphabet.is_word(&codes) {
                return Err(SectionId::Lettersets.corrupt("holds a word with a character outside the alphabet"));
            }
            WordTexts::new(alphabet, codes, ends)
        }
        None => {
            let texts = index.texts_of(&words.iter().map(|&w| (w >> 32) as u32).collect::<Vec<_>>())?;
            for ((&w, word), marks) in words.iter().zip(texts.iter()).zip(&mut marks) {
                *marks = marker.mark(w, alphabet.letters_in(word))?;
            }
            texts
        }
    };
    Ok((marker.totals, SolvedWords::new(texts, marks)))
}

/// Scores and flags a honeycomb's words in turn, and adds them up.
struct Marker<'a> {
    common: AscendingFlags<'a>,
    totals: Totals,
}

impl Marker<'_> {
    /// Scores and flags word `w` (as [`words_of_rows`] gives it), of
    /// `letters` letters, and counts it.
    #[inline(always)]
    fn mark(&mut self, w: u64, letters: usize) -> Result<Marks> {
        let pangram = w & PANGRAM_BIT != 0;
        let score = base_points(letters) + if pangram { PANGRAM_BONUS } else { 0 };
        self.totals.words += 1;
        self.totals.score += score;
        self.totals.pangrams += pangram as u32;
        let common = self.common.is_common((w >> 32) as u32)?;
        Ok(Marks { score, pangram, common })
    }
}

/// In a word of [`words_of_rows`]: set when it is a pangram.
const PANGRAM_BIT: u64 = 1 << 31;
/// In a word of [`words_of_rows`]: where its length and codes lie in the
/// letter sets' texts.
const PLACE_MASK: u64 = PANGRAM_BIT - 1;

/// What [`words_of_rows`] gathers: the words, and with texts the
/// number of codes they hold in all.
struct Gathered {
    words: Vec<u64>,
    code_bytes: usize,
}

/// The bytes a word's codes are copied in at once (words are rarely longer).
const WIDE_COPY: usize = 16;

/// The words of `rows` (ascending), each as one integer: its id in the
/// high half, [`PANGRAM_BIT`] for the words of the row whose set is
/// `letters`, and with `texts` where it lies there ([`PLACE_MASK`]).
/// Each row's ids are checked in bounds and the rows' ranges disjoint
/// (offsets ascend with the rows), so however a file sets its offsets
/// no id is read twice; each row's texts must hold exactly its words.
fn words_of_rows(sets: &LetterSets, rows: &[usize], letters: LetterSet, texts: Option<&RowTexts>) -> Result<Gathered> {
    let corrupt = |problem: &str| SectionId::Lettersets.corrupt(problem);
    // Rows ascend with their sets, and the honeycomb's is the largest set
    // asked for: the pangrams are the last row's words, if any are.
    let pangram_row = match rows.last() {
        Some(&row) if sets.mask(row)? == letters => Some(row),
        _ => None,
    };
    let mut ranges = Vec::with_capacity(rows.len());
    let mut end = 0;
    for &row in rows {
        let range = sets.starts.range(row)?;
        if range.start < end {
            return Err(corrupt("has offsets that are not ascending"));
        }
        end = range.end;
        ranges.push(range);
    }
    // Disjoint ranges of one column: their sum is at most its length.
    let mut words = vec![0u64; ranges.iter().map(|r| r.len()).sum()];
    let (mut filled, mut code_bytes) = (0, 0);
    for (&row, range) in rows.iter().zip(ranges) {
        let ids = sets.ids.slice(range)?;
        // Within `words`: the ranges' lengths sum to its length.
        let out = words.get_mut(filled..filled + ids.len()).unwrap_or_default();
        filled += ids.len();
        let pangram = if Some(row) == pangram_row { PANGRAM_BIT } else { 0 };
        let Some(texts) = texts else {
            for (w, id) in out.iter_mut().zip(ids.iter()?) {
                *w = (id as u64) << 32 | pangram;
            }
            continue;
        };
        let (text, start) = texts.row(row)?;
        let mut at = 0;
        for (w, id) in out.iter_mut().zip(ids.iter()?) {
            let len = text.get(at).map_or(0, |&len| len as usize);
            if len == 0 || at + 1 + len > text.len() {
                return Err(corrupt("has a row's texts shorter than its words"));
            }
            *w = (id as u64) << 32 | pangram | (start + at) as u64;
            at += 1 + len;
        }
        if at != text.len() {
            return Err(corrupt("has a row's texts longer than its words"));
        }
        // A length byte a word, then its codes.
        code_bytes += text.len() - ids.len();
    }
    Ok(Gathered { words, code_bytes })
}

/// One group of Norvig's report: the words of one letter set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportGroup {
    /// The group's letter set, sorted.
    pub letters: String,
    /// Its points.
    pub score: u32,
    /// Its words, a-z.
    pub words: Vec<ScoredWord>,
}

/// The words of a honeycomb grouped by letter set, largest sets (pangrams)
/// first, then a-z; with the totals.
pub fn report<D: AsRef<[u8]>>(
    index: &Index<D>,
    puzzle: Puzzle,
    opts: &SolveOptions,
) -> Result<(Solution, Vec<ReportGroup>)> {
    let solution = solve(index, puzzle, opts)?;
    let alphabet = index.alphabet();
    // Each word's set, the words sorted by set, then by place (a-z within one),
    // then a group a run, its letters spelled once: a map entry and a
    // string a word cost twice the solve.
    let mut by_set: Vec<(u64, usize)> = solution
        .words
        .iter()
        .enumerate()
        .map(|(i, w)| (alphabet.set_of_text(w.word).unwrap_or_default().0, i))
        .collect();
    by_set.sort_unstable();
    let mut groups: Vec<ReportGroup> = by_set
        .chunk_by(|a, b| a.0 == b.0)
        .map(|run| {
            let words: Vec<ScoredWord> =
                run.iter().filter_map(|&(_, i)| solution.words.get(i)).map(ScoredWord::from).collect();
            ReportGroup {
                letters: alphabet.letters_of(LetterSet(run[0].0)),
                score: words.iter().map(|w| w.score).sum(),
                words,
            }
        })
        .collect();
    // Largest sets (pangrams) first, then by their letters, a-z.
    groups.sort_by(|a, b| {
        let size = |g: &ReportGroup| g.letters.chars().count();
        size(b).cmp(&size(a)).then_with(|| a.letters.cmp(&b.letters))
    });
    Ok((solution, groups))
}

/// The `top` highest-scoring honeycombs that use no letter of `exclude`:
/// score descending, then letters, then centre, a-z. With `common_only`,
/// scores count common words only (and a honeycomb needs a common pangram).
pub fn best<D: AsRef<[u8]>>(
    index: &Index<D>,
    top: usize,
    exclude: LetterSet,
    opts: &SolveOptions,
) -> Result<Vec<HoneycombScore>> {
    index.require_common_list(opts.common_only)?;
    // Sets of equal size compare a-z as their letter strings do exactly when
    // the lowest differing letter is in the smaller one: reversed bits, larger first.
    type Key = (std::cmp::Reverse<u32>, std::cmp::Reverse<u64>, usize);
    let key = |m: LetterSet, c: usize, score: u32| -> Key {
        (std::cmp::Reverse(score), std::cmp::Reverse(m.0.reverse_bits()), c)
    };
    // A heap of the best `top` so far, worst on top: no list of every candidate.
    let mut kept: std::collections::BinaryHeap<(Key, [u32; 3], LetterSet)> = std::collections::BinaryHeap::new();
    let table = if opts.common_only { SectionId::CommonHoneycombs } else { SectionId::Honeycombs };
    let combs = Honeycombs::open(index, table)?;
    for (row, mask) in combs.masks.iter()?.map(LetterSet).enumerate() {
        if mask.intersects(exclude) || (opts.common_only && combs.pangrams.at(row)? == 0) {
            continue;
        }
        if mask.len() != HONEYCOMB_LETTERS {
            return Err(combs.masks.section().corrupt("has a row that is not 7 letters"));
        }
        let cells = row * HONEYCOMB_LETTERS..(row + 1) * HONEYCOMB_LETTERS;
        for ((center, score), cell) in mask.indices().zip(combs.scores.slice(cells.clone())?.iter()?).zip(cells) {
            // Most cells lose on score alone: the full key only for the rest.
            if kept.len() == top && kept.peek().is_some_and(|worst| score < worst.0 .0 .0) {
                continue;
            }
            let k = key(mask, center, score);
            let totals = [score, combs.counts.at(cell)? as u32, combs.pangrams.at(row)? as u32];
            if kept.len() < top {
                kept.push((k, totals, mask));
            } else if kept.peek().is_some_and(|worst| k < worst.0) {
                kept.pop();
                kept.push((k, totals, mask));
            }
        }
    }
    let alphabet = index.alphabet();
    Ok(kept
        .into_sorted_vec()
        .into_iter()
        .map(|((_, _, center), [score, count, pangrams], mask)| HoneycombScore {
            letters: alphabet.letters_of(mask),
            center: alphabet.char_at(center),
            score,
            count,
            pangrams,
        })
        .collect())
}

/// Counts over the word list for honeycombs without `exclude`'s letters.
pub fn stats<D: AsRef<[u8]>>(index: &Index<D>, exclude: LetterSet) -> Result<Stats> {
    let sets = LetterSets::open(index)?;
    sets.check_whole(index)?;
    let sets = sets.for_a_pass()?;
    let mut stats = Stats {
        words: index.word_count() as u64,
        valid: 0,
        pangram_words: 0,
        pangram_lettersets: 0,
        candidate_honeycombs: 0,
    };
    // The masks and offsets read whole (checked above), not a checked
    // read a value: with the masks' own iterator, `bee stats` took 5.0 M
    // instructions, not 8.2 M.
    let mut starts = sets.starts.iter()?;
    let mut start = starts.next().unwrap_or(0);
    for (mask, end) in sets.masks.iter()?.zip(starts) {
        let (mask, count) = (LetterSet(mask), end.wrapping_sub(start) as u64);
        start = end;
        if mask.intersects(exclude) || mask.len() > HONEYCOMB_LETTERS {
            continue;
        }
        stats.valid += count;
        if mask.len() == HONEYCOMB_LETTERS {
            stats.pangram_words += count;
            stats.pangram_lettersets += 1;
        }
    }
    stats.candidate_honeycombs = stats.pangram_lettersets * HONEYCOMB_LETTERS as u64;
    Ok(stats)
}
