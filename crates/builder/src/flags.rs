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
use crate::{AlphabetChoice, BuildError, BuildErrorKind, BuildOptions, WordSource};

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
        }
    }
}

fn usage(msg: impl Into<String>) -> BuildError {
    BuildError::new(BuildErrorKind::InvalidInput(msg.into()))
}

impl BuildFlags {
    /// The build's options, or the flag that is wrong.
    pub fn options(&self) -> Result<BuildOptions, BuildError> {
        if self.lists.is_empty() {
            return Err(BuildError::new(BuildErrorKind::NoSources));
        }
        let stdin = self.lists.iter().chain(&self.common).chain(&self.exclude);
        if stdin.filter(|s| matches!(s, WordSource::Stdin)).count() > 1 {
            return Err(usage("`-` (stdin) can be given only once"));
        }
        let accents = match self.fold.as_str() {
            "none" => false,
            "accents" => true,
            other => return Err(usage(format!("`fold` is `none` or `accents`, not {other:?}"))),
        };
        let keep = self.keep.as_deref().unwrap_or("");
        let folding = Folding { accents, keep: Folding::default().normalise(keep) };
        if !accents && !folding.keep.is_empty() {
            return Err(usage("`keep` names letters that `fold` accents would strip; give `fold` accents too"));
        }
        let alphabet = if self.alphabet == "auto" {
            AlphabetChoice::Auto(folding)
        } else {
            let mut letters: Vec<char> = folding.normalise(&self.alphabet).chars().collect();
            letters.sort_unstable();
            letters.dedup();
            let letters: String = letters.into_iter().collect();
            let alphabet = Alphabet::with_folding(&letters, folding)
                .map_err(|e| usage(format!("`alphabet` {:?}: {e}", self.alphabet)))?;
            AlphabetChoice::Fixed(Box::new(alphabet))
        };
        Ok(BuildOptions {
            alphabet,
            name: self.name.clone(),
            common: self.common.clone(),
            exclude: self.exclude.clone(),
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
            return Err(usage(format!(
                "`{name}` cannot name an index file in the index folder; give `name` NAME (no `/`, no `.hoard`) or `output` PATH"
            )));
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
        "skipped": r.skipped.total(),
        "skipped_by_reason": {
            "empty": r.skipped.empty, "not_in_alphabet": r.skipped.not_in_alphabet,
            "not_utf8": r.skipped.not_utf8, "too_long": r.skipped.too_long,
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
