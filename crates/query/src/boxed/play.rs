//! Playing along: each word checked in turn, with what is left.

use super::{LetterBox, SolveOptions, Solver, MAX_WORDS_LIMIT};
use crate::error::{ErrorKind, Result};
use crate::index::Index;

/// Why a played word is refused, or that it is accepted: the first that
/// applies, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Fewer letters than the shortest playable word.
    TooShort,
    /// A letter that is not on the box.
    BadLetter,
    /// Two letters in a row from one side; `position` is the second's,
    /// counted from 1.
    SameSide {
        /// The letter's position in the word, from 1.
        position: usize,
    },
    /// It does not start with the last letter of the word accepted before.
    WrongStart,
    /// Not a word of the index (of its common list, with `common_only`).
    NotInList,
    /// Accepted.
    Ok,
}

impl Verdict {
    /// The verdict's name in JSON: `too_short`, `bad_letter`, `same_side`,
    /// `wrong_start`, `not_in_list`, `ok`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::TooShort => "too_short",
            Verdict::BadLetter => "bad_letter",
            Verdict::SameSide { .. } => "same_side",
            Verdict::WrongStart => "wrong_start",
            Verdict::NotInList => "not_in_list",
            Verdict::Ok => "ok",
        }
    }
}

/// A Letter Boxed game as played: each word's verdict and where it leaves
/// the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// Each word as typed (lowercased, normalised) and its verdict.
    pub words: Vec<(String, Verdict)>,
    /// The box's letters the accepted words used, in box order.
    pub used: String,
    /// The box's letters still to use, in box order.
    pub left: String,
    /// Accepted words.
    pub played: usize,
    /// The fewest words that solve the box (up to [`MAX_WORDS_LIMIT`]);
    /// `None` when no solution is that short.
    pub par: Option<usize>,
    /// Single words that would finish the box from the last accepted word
    /// (from any letter before the first word).
    pub finishes: u128,
}

impl Play {
    /// True when every letter of the box is used.
    pub fn solved(&self) -> bool {
        self.left.is_empty()
    }
}

/// Checks the player's words in order: a [`Verdict`] each (only accepted
/// words count for the next), the letters used and left, par, and the
/// one-word finishes left.
pub fn check<D: AsRef<[u8]>>(
    index: &Index<D>,
    letter_box: &LetterBox,
    words: &[impl AsRef<str>],
    opts: &SolveOptions,
) -> Result<Play> {
    let alphabet = index.alphabet();
    let mut search = Solver::new(index, letter_box, &SolveOptions { max_words: MAX_WORDS_LIMIT, ..*opts })?;
    let common = index.common()?;
    let side = |b: u8| letter_box.side_of.iter().find(|&&(l, _)| l == b).map(|&(_, s)| s);
    let bit = |b: u8| letter_box.letters.iter().position(|&l| l == b).map(|i| 1u32 << i);
    let (mut used, mut last, mut played, mut out) = (0u32, None::<u8>, 0, Vec::new());
    for typed in words {
        let typed = typed.as_ref();
        let codes = alphabet.parse_word(typed, "word").ok();
        let shown = codes.as_ref().map_or_else(|| typed.to_lowercase(), |c| alphabet.word_string(c.clone()));
        let verdict = match &codes {
            _ if shown.chars().count() < opts.min_len.max(1) => Verdict::TooShort,
            None => Verdict::BadLetter,
            Some(c) if c.iter().any(|&b| side(b).is_none()) => Verdict::BadLetter,
            Some(c) => {
                if let Some(i) = c.windows(2).position(|p| side(p[0]) == side(p[1])) {
                    Verdict::SameSide { position: i + 2 }
                } else if last.is_some_and(|l| c.first() != Some(&l)) {
                    Verdict::WrongStart
                } else {
                    match index.word_id(c)? {
                        Some(id) if !opts.common_only || common.is_common(id)? => Verdict::Ok,
                        _ => Verdict::NotInList,
                    }
                }
            }
        };
        if verdict == Verdict::Ok {
            let c = codes.as_deref().unwrap_or_default();
            used |= c.iter().filter_map(|&b| bit(b)).fold(0, |m, b| m | b);
            last = c.last().copied();
            played += 1;
        }
        out.push((shown, verdict));
    }
    // The box's letters in mask, side by side as typed.
    let letters_of = |mask: u32| -> String {
        let on = |ch: char| alphabet.code_of(ch).and_then(bit).is_some_and(|m| mask & m != 0);
        letter_box.sides.iter().flat_map(|side| side.chars()).filter(|&ch| on(ch)).collect()
    };
    let full = (0..letter_box.letters.len()).fold(0u32, |m, i| m | 1 << i);
    let finishes = search
        .playable()
        .records()
        .iter()
        .filter(|w| last.is_none_or(|l| letter_box.letters.get(w.first as usize) == Some(&l)))
        .filter(|w| used | w.mask == full)
        .count() as u128;
    // Par: the fewest words of any solution, in one memoised search; a
    // box too large to search has none rather than an error.
    let mut par = None;
    for k in 1..=MAX_WORDS_LIMIT {
        match search.count(k) {
            Ok(0) => {}
            Ok(_) => {
                par = Some(k);
                break;
            }
            Err(e) if matches!(e.kind(), ErrorKind::Limit(_)) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(Play { words: out, used: letters_of(used), left: letters_of(full & !used), played, par, finishes })
}
