//! What a word list means, decided before it is read for words: the
//! alphabet it is written in, and whether its capitals mark proper nouns.
//!
//! The rules, as `wordhoard build --help` states them:
//!
//! - **Alphabet** (`--alphabet auto`): a list whose words are 99% or more
//!   plain a-z is an a-z list, and its other words are skipped and
//!   counted (an English dictionary with `éclair` and `Zürich` is still
//!   English); any other list keeps every letter it uses (German keeps
//!   ä ö ü ß). A per-letter cut does not work: é is in 1.8 of 1,000 words
//!   of Debian's american-english-huge, and ü in 1.8 of 1,000 of its
//!   Spanish list.
//! - **Proper nouns** (`--proper-nouns auto`): in a list where at least 3
//!   of 4 words have no capital letter, a word with one is a proper noun
//!   (`Lucinda`, `ACLU`) and is skipped. A list with more capitals uses
//!   them for something else (German capitalises every noun), and they
//!   are lowercased as before.
//!
//! A *word* here is a line that is letters only once trimmed, lowercased
//! and folded. ENABLE and other all-lowercase ASCII lists take one fast
//! pass over their bytes and come out as before, byte for byte.

use std::collections::BTreeSet;

use wordhoard_query::alphabet::{Folding, MAX_LETTERS};
use wordhoard_query::Alphabet;

use crate::error::{BuildError, BuildErrorKind};
use crate::wordlist::{is_capitalised, WordSource, MAX_WORD_LEN};

/// `--proper-nouns`: what a capitalised word is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProperNouns {
    /// Skipped in a mostly-lowercase list, lowercased in any other.
    #[default]
    Auto,
    /// Always skipped.
    Skip,
    /// Always lowercased and kept.
    Keep,
}

impl ProperNouns {
    /// From the flag's value: `auto`, `skip` or `keep`.
    pub fn parse(value: &str) -> Option<ProperNouns> {
        match value {
            "auto" => Some(ProperNouns::Auto),
            "skip" => Some(ProperNouns::Skip),
            "keep" => Some(ProperNouns::Keep),
            _ => None,
        }
    }
}

/// The share of plain a-z words, in thousandths, at or above which a list
/// is an a-z list.
pub const PLAIN_PER_MILLE: u64 = 990;
/// The share of words without a capital, in quarters, at or above which a
/// list is mostly lowercase.
pub const LOWERCASE_QUARTERS: u64 = 3;

/// How the alphabet was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AlphabetRule {
    /// Named with `--alphabet`.
    Given,
    /// Every word is plain a-z (every list that is ASCII): a-z.
    AllPlain,
    /// `plain` of the `words` kept are plain a-z, 99% or more: a-z.
    MostlyPlain {
        /// Plain a-z words.
        plain: u64,
        /// Words.
        words: u64,
    },
    /// Fewer than 99% are plain a-z: every letter the words use.
    LettersUsed {
        /// Plain a-z words.
        plain: u64,
        /// Words.
        words: u64,
    },
}

/// What was decided about proper nouns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProperNounReport {
    /// True when capitalised words were skipped, false when kept.
    pub skipped: bool,
    /// Words with a capital letter in the lists.
    pub capitalised: u64,
    /// Words in the lists.
    pub words: u64,
    /// True when the rule decided (`auto`), false when the flag did.
    pub auto: bool,
}

/// The plan for reading the lists.
pub(crate) struct Plan {
    pub alphabet: Alphabet,
    pub alphabet_rule: AlphabetRule,
    /// `None` when the lists have no capitalised word.
    pub proper_nouns: Option<ProperNounReport>,
}

/// Words counted by case and by letters.
#[derive(Default)]
struct Tally {
    words: u64,
    plain: u64,
    /// a-z letters used, as bits.
    ascii_letters: u32,
    /// Other letters used.
    other_letters: BTreeSet<char>,
}

impl Tally {
    fn add(&mut self, word: &str) {
        self.words += 1;
        if word.bytes().all(|b| b.is_ascii_lowercase()) {
            self.plain += 1;
            self.ascii_letters |= word.bytes().fold(0, |bits, b| bits | 1 << (b - b'a'));
        } else {
            for c in word.chars() {
                match c {
                    'a'..='z' => self.ascii_letters |= 1 << (c as u8 - b'a'),
                    _ => {
                        self.other_letters.insert(c);
                    }
                }
            }
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.words += other.words;
        self.plain += other.plain;
        self.ascii_letters |= other.ascii_letters;
        self.other_letters.extend(other.other_letters.iter().copied());
    }

    fn letters(&self) -> String {
        let ascii = (b'a'..=b'z').filter(|b| self.ascii_letters & 1 << (b - b'a') != 0).map(char::from);
        ascii.chain(self.other_letters.iter().copied()).collect()
    }
}

/// The lists' words, lowercase ones and capitalised ones apart.
#[derive(Default)]
struct Survey {
    lowercase: Tally,
    capitalised: Tally,
}

impl Survey {
    fn read(sources: &[WordSource], folding: &Folding) -> Result<Survey, BuildError> {
        let mut survey = Survey::default();
        for source in sources {
            source.each_line(|line| survey.add_line(line, folding))?;
        }
        Ok(survey)
    }

    fn add_line(&mut self, line: &[u8], folding: &Folding) {
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        let tally = if is_capitalised(line) { &mut self.capitalised } else { &mut self.lowercase };
        if line.is_ascii() {
            let word = line.trim_ascii();
            if (1..=MAX_WORD_LEN).contains(&word.len()) && word.iter().all(u8::is_ascii_alphabetic) {
                let word = word.to_ascii_lowercase();
                tally.add(std::str::from_utf8(&word).expect("ASCII"));
            }
        } else if let Ok(text) = std::str::from_utf8(line) {
            let word = folding.normalise(text.trim());
            if !word.is_empty() && word.len() <= 4 * MAX_WORD_LEN && word.chars().all(char::is_alphabetic) {
                tally.add(&word);
            }
        }
    }
}

/// Decides the alphabet and the proper-noun rule for `sources` (which
/// must be readable twice).
pub(crate) fn plan(
    alphabet: &crate::AlphabetChoice,
    proper_nouns: ProperNouns,
    sources: &[WordSource],
) -> Result<Plan, BuildError> {
    let folding = match alphabet {
        crate::AlphabetChoice::Fixed(given) => given.folding().clone(),
        crate::AlphabetChoice::Auto(folding) => folding.clone(),
    };
    let mut lowercase_ascii = true;
    for source in sources {
        if !source.is_lowercase_ascii()? {
            lowercase_ascii = false;
            break;
        }
    }
    let survey = if lowercase_ascii { Survey::default() } else { Survey::read(sources, &folding)? };
    let (lower, capital) = (&survey.lowercase, &survey.capitalised);
    let words = lower.words + capital.words;
    let mostly_lowercase = lower.words * 4 >= words * LOWERCASE_QUARTERS;
    let skip = match proper_nouns {
        ProperNouns::Auto => mostly_lowercase,
        ProperNouns::Skip => true,
        ProperNouns::Keep => false,
    };
    let proper_nouns = (capital.words > 0).then_some(ProperNounReport {
        skipped: skip,
        capitalised: capital.words,
        words,
        auto: proper_nouns == ProperNouns::Auto,
    });
    let mut kept = Tally::default();
    kept.merge(lower);
    if !skip {
        kept.merge(capital);
    }
    let (alphabet, alphabet_rule) = match alphabet {
        crate::AlphabetChoice::Fixed(given) => ((**given).clone(), AlphabetRule::Given),
        crate::AlphabetChoice::Auto(_) if lowercase_ascii || kept.plain == kept.words => {
            (Alphabet::latin(), AlphabetRule::AllPlain)
        }
        crate::AlphabetChoice::Auto(folding) => {
            let (plain, words) = (kept.plain, kept.words);
            if plain * 1000 >= words * PLAIN_PER_MILLE {
                let latin = Alphabet::with_folding("abcdefghijklmnopqrstuvwxyz", folding.clone()).expect("a-z");
                (latin, AlphabetRule::MostlyPlain { plain, words })
            } else {
                (letters_used(&kept.letters(), folding)?, AlphabetRule::LettersUsed { plain, words })
            }
        }
    };
    Ok(Plan { alphabet, alphabet_rule, proper_nouns })
}

fn letters_used(letters: &str, folding: &Folding) -> Result<Alphabet, BuildError> {
    Alphabet::with_folding(letters, folding.clone()).map_err(|_| {
        BuildError::new(BuildErrorKind::Alphabet(format!(
            "the word lists use {} letters ({letters}); an index holds at most {MAX_LETTERS}: fold accents, or name the letters",
            letters.chars().count(),
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AlphabetChoice;

    fn plan_of(text: &str, proper_nouns: ProperNouns) -> Plan {
        let sources = [WordSource::from_text("t", text)];
        plan(&AlphabetChoice::Auto(Folding::default()), proper_nouns, &sources).unwrap()
    }

    /// A list of `n` words: `accented` in 1,000 carry `é` (or `ä`, `ö`,
    /// `ü`, `ß` in turn), `capitalised` in 1,000 start with a capital.
    fn generated(n: usize, accented: usize, capitalised: usize, german: bool) -> String {
        let mut rng = crate::test_rng::SplitMix64::new(n as u64 + accented as u64);
        let mut out = String::new();
        for i in 0..n {
            let mut word: String = (0..3 + rng.below(6)).map(|_| (b'a' + rng.below(26) as u8) as char).collect();
            if i % 1000 < accented {
                let extra = if german { ['ä', 'ö', 'ü', 'ß'][i % 4] } else { 'é' };
                word.insert(1, extra);
            }
            if (i * 7 % 1000) < capitalised {
                word = word[..1].to_uppercase() + &word[1..];
            }
            out.push_str(&word);
            out.push('\n');
        }
        out
    }

    #[test]
    fn a_list_of_rare_accents_is_a_to_z_and_one_of_common_accents_keeps_them() {
        // 3 in 1,000 accented (american-english-huge): a-z.
        let p = plan_of(&generated(20_000, 3, 0, false), ProperNouns::Auto);
        assert_eq!(p.alphabet.as_str(), "abcdefghijklmnopqrstuvwxyz");
        assert!(matches!(p.alphabet_rule, AlphabetRule::MostlyPlain { plain, words } if words - plain == 60));
        // 10 in 1,000: just at the rule's edge, still a-z; 11: every letter.
        let p = plan_of(&generated(20_000, 10, 0, false), ProperNouns::Auto);
        assert_eq!(p.alphabet.as_str(), "abcdefghijklmnopqrstuvwxyz");
        let p = plan_of(&generated(20_000, 11, 0, false), ProperNouns::Auto);
        assert_eq!(p.alphabet.as_str(), "abcdefghijklmnopqrstuvwxyzé");
        // German, 200 in 1,000 with umlauts and ß, a quarter capitalised
        // (nouns): keeps its letters and its nouns.
        let p = plan_of(&generated(20_000, 200, 400, true), ProperNouns::Auto);
        assert_eq!(p.alphabet.as_str(), "abcdefghijklmnopqrstuvwxyzßäöü");
        let nouns = p.proper_nouns.unwrap();
        assert!(!nouns.skipped && nouns.auto && nouns.capitalised == 8000, "{nouns:?}");
    }

    #[test]
    fn capitals_are_proper_nouns_only_in_a_mostly_lowercase_list() {
        for (per_mille, skipped) in [(100, true), (250, true), (251, false), (600, false)] {
            let p = plan_of(&generated(4000, 0, per_mille, false), ProperNouns::Auto);
            let nouns = p.proper_nouns.unwrap();
            assert_eq!(nouns.skipped, skipped, "{per_mille} in 1,000 capitalised");
            assert_eq!(nouns.capitalised, 4 * per_mille as u64);
            let keep = plan_of(&generated(4000, 0, per_mille, false), ProperNouns::Keep).proper_nouns.unwrap();
            assert!(!keep.skipped && !keep.auto);
            let skip = plan_of(&generated(4000, 0, per_mille, false), ProperNouns::Skip).proper_nouns.unwrap();
            assert!(skip.skipped);
        }
        // Lowercase lists, ASCII or not, have no proper nouns to decide.
        assert_eq!(plan_of("apple\nbread\n", ProperNouns::Auto).alphabet_rule, AlphabetRule::AllPlain);
        assert!(plan_of("apple\nbread\n", ProperNouns::Auto).proper_nouns.is_none());
        assert!(plan_of("café\nbread\n", ProperNouns::Auto).proper_nouns.is_none());
    }

    #[test]
    fn the_accents_of_skipped_proper_nouns_do_not_choose_the_alphabet() {
        // Accents only on capitalised words: once they are skipped, the
        // list is plain a-z.
        let mut text = generated(2000, 0, 0, false);
        text.push_str(&"Zürich\nMünchen\nSão\n".repeat(100));
        let p = plan_of(&text, ProperNouns::Auto);
        assert_eq!(p.alphabet.as_str(), "abcdefghijklmnopqrstuvwxyz");
        let p = plan_of(&text, ProperNouns::Keep);
        assert_eq!(p.alphabet.as_str(), "abcdefghijklmnopqrstuvwxyzãü");
    }
}
