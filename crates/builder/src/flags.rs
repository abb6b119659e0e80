//! `build`'s flags as rules: the alphabet, folding and kept letters, where
//! a named index goes, and the build report as JSON. The CLI and the
//! Python package both build through here, so the same flags mean the
//! same index and the same errors.

use std::path::PathBuf;

use wordhoard_query::alphabet::Folding;
use wordhoard_query::folder::{is_name, IndexFolder};
use wordhoard_query::Alphabet;

#[cfg(feature = "json")]
use serde_json::json;

#[cfg(feature = "json")]
use crate::BuildReport;
use crate::{AlphabetChoice, BuildError, BuildErrorKind, BuildOptions, ProperNouns, WordSource};

/// The letters `--alphabet` names, ranges spelled out: `a-z` is the 26
/// letters, `a-zäöüß` those and four more. A `-` between two letters is a
/// range (the first not after the second); anywhere else it is an error,
/// since no alphabet has a hyphen for a letter.
pub fn expand_ranges(spec: &str) -> Result<String, String> {
    let chars: Vec<char> = spec.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        match (chars[i], chars.get(i + 1), chars.get(i + 2)) {
            ('-', ..) => return Err("a `-` must stand between two letters, as in `a-z`".into()),
            (from, Some('-'), Some(&to)) if to != '-' => {
                if from > to {
                    return Err(format!("the range `{from}-{to}` runs backwards"));
                }
                // Ranges are of letters: at most the alphabet's limit, so
                // `a-\u{10FFFF}` is refused rather than spelled out.
                if (to as u32 - from as u32) as usize >= wordhoard_query::alphabet::MAX_LETTERS {
                    return Err(format!(
                        "the range `{from}-{to}` spans more than {} letters",
                        wordhoard_query::alphabet::MAX_LETTERS
                    ));
                }
                out.extend((from..=to).filter(|c| c.is_alphabetic()));
                i += 3;
            }
            (_, Some('-'), None) => return Err("a `-` must stand between two letters, as in `a-z`".into()),
            (c, ..) => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// What `build` was asked, as typed.
#[derive(Clone, Debug)]
pub struct BuildFlags {
    /// The word lists.
    pub lists: Vec<WordSource>,
    /// The index's name (default: the first list's file stem).
    pub name: Option<String>,
    /// A list of common words.
    pub common: Option<WordSource>,
    /// Lists of words to leave out.
    pub exclude: Vec<WordSource>,
    /// `auto`, or the letters themselves.
    pub alphabet: String,
    /// `none` or `accents`.
    pub fold: String,
    /// Letters kept as they are when folding accents.
    pub keep: Option<String>,
    /// `auto`, `skip` or `keep`: what a word with a capital letter is.
    pub proper_nouns: String,
    /// Whether to write the optional `endings` table (default: yes).
    pub endings: bool,
    /// Whether to write the optional `letter_groups` table (default: when
    /// the index has at least [`crate::LETTER_GROUPS_FROM`] words).
    pub letter_groups: Option<bool>,
}

impl Default for BuildFlags {
    fn default() -> BuildFlags {
        BuildFlags {
            lists: Vec::new(),
            name: None,
            common: None,
            exclude: Vec::new(),
            alphabet: "auto".into(),
            fold: "none".into(),
            keep: None,
            proper_nouns: "auto".into(),
            endings: true,
            letter_groups: None,
        }
    }
}

fn usage(problem: impl Into<String>) -> BuildError {
    BuildError::new(BuildErrorKind::InvalidInput { param: None, problem: problem.into() })
}

/// A wrong option, `param`, by its field name here.
fn usage_in(param: &'static str, problem: impl Into<String>) -> BuildError {
    BuildError::new(BuildErrorKind::InvalidInput { param: Some(param), problem: problem.into() })
}

impl BuildFlags {
    /// The build's options, or the flag that is wrong.
    pub fn options(&self) -> Result<BuildOptions, BuildError> {
        if self.lists.is_empty() {
            return Err(BuildError::new(BuildErrorKind::NoSources));
        }
        let stdin = self.lists.iter().chain(&self.common).chain(&self.exclude);
        if stdin.filter(|s| matches!(s, WordSource::Stdin)).count() > 1 {
            return Err(usage("standard input (`-`) can be read only once"));
        }
        let accents = match self.fold.as_str() {
            "none" => false,
            "accents" => true,
            other => return Err(usage_in("fold", format!("is none or accents, not {other:?}"))),
        };
        let keep = self.keep.as_deref().unwrap_or("");
        let folding = Folding { accents, keep: Folding::default().normalise(keep) };
        if !accents && !folding.keep.is_empty() {
            return Err(usage_in("keep", "names letters kept from accent folding, which is off; fold accents too"));
        }
        let proper_nouns = ProperNouns::parse(&self.proper_nouns)
            .ok_or_else(|| usage_in("proper_nouns", format!("is auto, skip or keep, not {:?}", self.proper_nouns)))?;
        let alphabet = if self.alphabet == "auto" {
            AlphabetChoice::Auto(folding)
        } else {
            let spelled =
                expand_ranges(&self.alphabet).map_err(|e| usage_in("alphabet", format!("{:?}: {e}", self.alphabet)))?;
            let mut letters: Vec<char> = folding.normalise(&spelled).chars().collect();
            letters.sort_unstable();
            letters.dedup();
            let letters: String = letters.into_iter().collect();
            let alphabet = Alphabet::with_folding(&letters, folding)
                .map_err(|e| usage_in("alphabet", format!("{:?}: {e}", self.alphabet)))?;
            AlphabetChoice::Fixed(Box::new(alphabet))
        };
        Ok(BuildOptions {
            alphabet,
            proper_nouns,
            name: self.name.clone(),
            common: self.common.clone(),
            exclude: self.exclude.clone(),
            without_endings: !self.endings,
            letter_groups: self.letter_groups,
            ..Default::default()
        })
    }

    /// `NAME.hoard` in the index folder (NAME from `name` or the first
    /// list), and whether the folder had to be made (it is made here).
    pub fn in_index_folder(&self) -> Result<(PathBuf, Option<IndexFolder>), BuildError> {
        let folder = IndexFolder::find().map_err(|e| usage(e.to_string()))?;
        let first = self.lists.first().ok_or_else(|| BuildError::new(BuildErrorKind::NoSources))?;
        let name = self.name.clone().unwrap_or_else(|| crate::default_name(first));
        if !is_name(&name) {
            return Err(usage_in(
                "name",
                format!("{name:?} cannot name an index file in the index folder (no `/`, no `.hoard`); give another, or an output path"),
            ));
        }
        let mut created = None;
        if !folder.path.is_dir() {
            std::fs::create_dir_all(&folder.path).map_err(|e| {
                usage(format!("cannot create the index folder {} (from {}): {e}", folder.path.display(), folder.from))
            })?;
            created = Some(folder.clone());
        }
        Ok((folder.index(&name), created))
    }

    /// The paths read, which the output may not be.
    pub fn inputs(&self) -> Vec<PathBuf> {
        self.lists
            .iter()
            .chain(&self.common)
            .chain(&self.exclude)
            .filter_map(|s| match s {
                WordSource::File(p) => Some(p.clone()),
                _ => None,
            })
            .collect()
    }
}

#[cfg(feature = "json")]
/// The build report as `wordhoard build --json` prints it (the CLI adds
/// `peak_rss_kb`).
pub fn report_json(r: &BuildReport, out: &std::path::Path, secs: f64) -> serde_json::Value {
    json!({
        "output": out.display().to_string(),
        "name": r.name,
        "sources": r.sources,
        "lines": r.lines,
        "words": r.words,
        "duplicates": r.duplicates,
        "alphabet": r.alphabet,
        "alphabet_rule": alphabet_rule_json(&r.alphabet_rule),
        "proper_nouns": r.proper_nouns.map(|p| json!({
            "policy": if p.skipped { "skip" } else { "keep" }, "auto": p.auto,
            "capitalised": p.capitalised, "words": p.words,
        })),
        "skipped": r.skipped.total(),
        "skipped_by_reason": {
            "empty": r.skipped.empty, "not_in_alphabet": r.skipped.not_in_alphabet,
            "letter_outside_alphabet": r.skipped.letter_outside_alphabet,
            "not_utf8": r.skipped.not_utf8, "too_long": r.skipped.too_long,
            "proper_noun": r.skipped.proper_noun,
        },
        "skipped_examples": {
            "not_in_alphabet": r.skipped.examples.not_in_alphabet,
            "letter_outside_alphabet": r.skipped.examples.letter_outside_alphabet,
            "not_utf8": r.skipped.examples.not_utf8, "too_long": r.skipped.examples.too_long,
            "proper_noun": r.skipped.examples.proper_noun,
        },
        "common": r.common.as_ref().map(|c| json!({
            "source": c.source, "flagged": c.flagged, "not_in_index": c.not_in_index, "skipped": c.skipped,
        })),
        "excluded": r.excluded.as_ref().map(|e| json!({
            "sources": e.sources, "listed": e.listed, "removed": e.removed,
        })),
        "terms": r.terms,
        "sections": r.sections.iter().map(|(n, b)| json!({"name": n, "bytes": b})).collect::<Vec<_>>(),
        "bytes": r.bytes,
        "source_sha256": r.source_sha256,
        "seconds": secs,
        "phases": r.phases.iter().map(|(n, t)| (n.to_string(), *t)).collect::<std::collections::BTreeMap<_, _>>(),
    })
}

#[cfg(feature = "json")]
fn alphabet_rule_json(rule: &crate::AlphabetRule) -> serde_json::Value {
    use crate::AlphabetRule::*;
    match *rule {
        Given => json!({"rule": "given"}),
        AllPlain => json!({"rule": "all_a_to_z"}),
        MostlyPlain { plain, words } => json!({"rule": "mostly_a_to_z", "plain": plain, "words": words}),
        LettersUsed { plain, words } => json!({"rule": "letters_used", "plain": plain, "words": words}),
    }
}

#[cfg(test)]
mod tests {
    use super::expand_ranges;

    #[test]
    fn alphabet_ranges_spell_out() {
        assert_eq!(expand_ranges("a-z").unwrap(), "abcdefghijklmnopqrstuvwxyz");
        assert_eq!(expand_ranges("a-zäöüß").unwrap(), "abcdefghijklmnopqrstuvwxyzäöüß");
        assert_eq!(expand_ranges("a-cx-z").unwrap(), "abcxyz");
        assert_eq!(expand_ranges("abc").unwrap(), "abc");
        assert_eq!(expand_ranges("α-ω").unwrap().chars().count(), 25, "with final sigma");
        for bad in ["-a", "a-", "z-a", "a--b", "a-\u{10FFFF}"] {
            assert!(expand_ranges(bad).is_err(), "{bad}");
        }
    }
}
