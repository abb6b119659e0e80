//! A random honeycomb within bounds on its score and word count.

use super::tables::Honeycombs;
use super::{solve, Bounds, Puzzle, Solution, SolveOptions, HONEYCOMB_LETTERS};
use crate::alphabet::LetterSet;
use crate::error::{Error, Result};
use crate::format::SectionId;
use crate::index::Index;
use crate::rng::SplitMix64;

/// Bounds and options for [`generate`].
#[derive(Clone, Debug, Default)]
pub struct GenerateOptions {
    /// The seed; the same seed and index give the same puzzle.
    pub seed: u64,
    /// Letters no honeycomb may have.
    pub exclude: LetterSet,
    /// Bounds on the honeycomb's score.
    pub score: Bounds,
    /// Bounds on its number of words.
    pub words: Bounds,
    /// Count only common words (the honeycomb needs a common pangram).
    pub common_only: bool,
}

/// A random valid honeycomb (it has a pangram) within the bounds, chosen
/// uniformly among all that qualify, with its answers.
pub fn generate<D: AsRef<[u8]>>(index: &Index<D>, opts: &GenerateOptions) -> Result<Solution> {
    check_range("score.min", opts.score)?;
    check_range("words.min", opts.words)?;
    index.require_common_list(opts.common_only)?;
    let table = if opts.common_only { SectionId::CommonHoneycombs } else { SectionId::Honeycombs };
    let combs = Honeycombs::open(index, table)?;
    let bounded = !opts.score.is_open() || !opts.words.is_open();
    let cell_fits = |cell: usize| -> Result<bool> {
        Ok(opts.score.contains(combs.scores.at(cell)? as u32) && opts.words.contains(combs.counts.at(cell)? as u32))
    };
    // Count the fitting (honeycomb, centre) cells row by row, then walk to
    // the chosen one: without bounds a row is all in or all out, and its
    // cells are not read at all.
    // The masks and pangram counts read whole, each column checked once,
    // not a value at a time (1.6 M of `bee generate`'s 3.8 M instructions).
    let mut per_row = Vec::with_capacity(combs.masks.len());
    let mut matching = 0u64;
    // (`open` checked that the columns have a value a row.)
    let rows = combs.masks.iter()?.zip(combs.pangrams.iter()?);
    for (row, (mask, pangrams)) in rows.enumerate() {
        let mask = LetterSet(mask);
        let fits = if mask.intersects(opts.exclude) || pangrams == 0 {
            0
        } else if mask.len() != HONEYCOMB_LETTERS {
            return Err(combs.masks.section().corrupt("has a row that is not 7 letters"));
        } else if !bounded {
            HONEYCOMB_LETTERS
        } else {
            (0..HONEYCOMB_LETTERS)
                .try_fold(0, |n, j| Ok::<_, Error>(n + cell_fits(row * HONEYCOMB_LETTERS + j)? as usize))?
        };
        per_row.push(fits as u8);
        matching += fits as u64;
    }
    if matching == 0 {
        return Err(Error::invalid(
            "no honeycomb meets those bounds; widen the score or word bounds, or exclude fewer letters",
        ));
    }
    let mut pick = SplitMix64::new(opts.seed).below(matching) as usize;
    let row = per_row
        .iter()
        .position(|&n| {
            let here = pick < n as usize;
            if !here {
                pick -= n as usize;
            }
            here
        })
        .ok_or_else(|| combs.masks.section().corrupt("changed between two reads"))?;
    let letters = LetterSet(combs.masks.at(row)?);
    let mut fitting = Vec::with_capacity(HONEYCOMB_LETTERS);
    for (j, center) in letters.indices().enumerate() {
        if !bounded || cell_fits(row * HONEYCOMB_LETTERS + j)? {
            fitting.push(center);
        }
    }
    let center = *fitting.get(pick).ok_or_else(|| combs.masks.section().corrupt("changed between two reads"))?;
    solve(index, Puzzle { letters, center }, &SolveOptions { common_only: opts.common_only })
}

/// Empty bounds are a usage error in the lower bound (`score.min`).
fn check_range(min_param: &'static str, bounds: Bounds) -> Result<()> {
    match (bounds.min, bounds.max) {
        (Some(lo), Some(hi)) if lo > hi => {
            Err(Error::invalid_param(min_param, format!("{lo} is above the upper bound {hi}: the range is empty")))
        }
        _ => Ok(()),
    }
}
