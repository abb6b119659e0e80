//! `verify --deep`: every derived table rebuilt from the words and
//! compared with the file's, as SQLite's `integrity_check` walks every
//! b-tree where `quick_check` looks at structure only.
//!
//! Quick verification ([`Index::verify`]) proves a file safe to read: its
//! bounds, checksums, offsets and FSTs. It cannot tell a honeycomb score
//! set to 4,294,967,295 or every word moved into one anagram group from
//! the truth, since both are well-formed. Every table but the words and
//! the common flags is a function of them, so the deep check reads the
//! words out of the FST and the flags out of their column, builds every
//! other section as `wordhoard build` would, and compares the two byte
//! for byte, naming the first difference by section, column and row.
//! The words FST is rebuilt too: a file whose FST spells the right words
//! in nodes no build writes is named as well. The spellings, the
//! metadata and the common flags come from the word lists, which the
//! index does not keep: the flags are checked against the metadata's
//! count of common words (and the common honeycombs rebuilt from them),
//! the others get the quick check only.

use wordhoard_query::format::{Columns, ColumnsWriter, SectionId};
use wordhoard_query::{Error, ErrorKind, Index, SectionCheck};

use crate::compile::{encode_sections, CommonReport, OptionalSections};
use crate::sorted_words::SortedWords;

/// The outcome for one section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeepCheck {
    /// The section's name (`honeycombs`).
    pub section: &'static str,
    /// The first difference from the rebuilt section, `None` when they
    /// are the same bytes.
    pub problem: Option<String>,
}

/// The most bytes of words the deep check reads out of an FST for each of
/// its bytes. Rebuilding holds every word, as a build does; an honest FST
/// of a word list spells a few bytes a byte (enable1: 1.6 MB of words
/// from a 0.5 MB FST), while one of 16 levels of 3 letters that all lead
/// to one node spells a gigabyte from a kilobyte.
pub const MAX_WORD_BYTES_PER_FST_BYTE: usize = 64;

/// Rebuilds every derived section of `index` and compares it with the
/// file's. Run [`Index::verify`] first: this trusts what it checks (an
/// error here is a file that fails it, or one too large to rebuild).
pub fn verify_deep<D: AsRef<[u8]>>(index: &Index<D>) -> Result<Vec<DeepCheck>, Error> {
    let words = words_of(index)?;
    let flags = common_flags(index, words.len())?;
    let flagged = flags.iter().filter(|&&f| f).count() as u64;
    let has_common = index.has_common_list();
    let report = has_common.then(|| CommonReport { source: String::new(), flagged: 0, not_in_index: 0, skipped: 0 });
    // The letter groups rebuilt with the file's keys (a build chooses
    // them by the list's size, and may have been told).
    let key_letters = || -> Result<usize, Error> {
        let shape = index.columns(SectionId::LetterGroups)?.u32s(0)?;
        Ok(shape.get(0).unwrap_or(0) as usize)
    };
    let letter_groups = match index.has_section(SectionId::LetterGroups) {
        true => Some(Some(key_letters()?)),
        false => None,
    };
    let optional = OptionalSections { endings: index.has_section(SectionId::Endings), letter_groups };
    let sections = encode_sections(&words, index.alphabet(), optional, |_| (flags, report));
    let bad = |e: crate::BuildError| Error::new(ErrorKind::Limit(format!("cannot rebuild the index: {e}")));
    // Joined, each into one buffer to compare with the file's.
    let mut rebuilt = vec![
        (SectionId::Words, sections.words.map_err(bad)?),
        (SectionId::WordText, as_written_then(index, SectionId::WordText, sections.word_text.to_vec())?),
        (SectionId::Common, sections.common.to_vec()),
        (SectionId::Lettersets, as_written_then(index, SectionId::Lettersets, sections.bee.lettersets.to_vec())?),
        (SectionId::Honeycombs, sections.bee.honeycombs.to_vec()),
    ];
    if let Some(endings) = sections.endings {
        // In the file's order: after the word text.
        rebuilt.insert(2, (SectionId::Endings, endings.to_vec()));
    }
    if let Some(letter_groups) = sections.letter_groups {
        // In the file's order: after the word text and the endings.
        let at = rebuilt.iter().position(|(id, _)| *id == SectionId::Common).expect("rebuilt");
        rebuilt.insert(at, (SectionId::LetterGroups, letter_groups.map_err(bad)?.to_vec()));
    }
    if let Some(common) = sections.bee.common_honeycombs {
        rebuilt.push((SectionId::CommonHoneycombs, common.to_vec()));
    }
    rebuilt.push((SectionId::Terms, sections.terms.map_err(bad)?.to_vec()));
    rebuilt
        .push((SectionId::Chains, as_written_then(index, SectionId::Chains, sections.chains.map_err(bad)?.to_vec())?));
    let mut checks = Vec::new();
    for (id, want) in rebuilt {
        // Builds before the word text and the endings did not write them;
        // readers do without.
        if matches!(id, SectionId::WordText | SectionId::Endings) && !index.has_section(id) {
            continue;
        }
        let problem = if !index.has_section(id) {
            // A build writes the common flags, and both honeycomb tables
            // when it has a common list: a file without them is not one.
            Some("is missing; a build writes it".to_string())
        } else {
            difference(id, index.section(id)?, &want, index.alphabet().len())
        };
        checks.push(DeepCheck { section: id.name(), problem });
    }
    if let Some(check) = checks.iter_mut().find(|c| c.section == SectionId::Common.name()) {
        if check.problem.is_none() && flagged != index.metadata().common_count {
            check.problem =
                Some(format!("flags {flagged} words common where the metadata says {}", index.metadata().common_count));
        }
    }
    Ok(checks)
}

/// The quick checks of every section and, asked for `deep` and when they
/// all pass (rebuilding trusts what they prove), the deep ones: what
/// `wordhoard verify [--deep]` and Python's `Index.verify(deep=...)` run.
pub fn verify_all<D: AsRef<[u8]> + Sync>(
    index: &Index<D>,
    deep: bool,
) -> Result<(Vec<SectionCheck>, Option<Vec<DeepCheck>>), Error> {
    let checks = index.verify();
    let deep = if deep && checks.iter().all(|c| c.ok) { Some(verify_deep(index)?) } else { None };
    Ok((checks, deep))
}

/// [`verify_all`]'s answer as `verify --json` prints it: the quick
/// answer of the request layer, with, after a deep check, `"deep"` (one
/// object a section, `{"name", "ok", "problem"}`) and `"ok"` covering both.
#[cfg(feature = "json")]
pub fn verify_json(checks: &[SectionCheck], deep: Option<&[DeepCheck]>, path: Option<&str>) -> serde_json::Value {
    let mut answer = wordhoard_query::request::Verify {}.json(checks, path);
    if let Some(deep) = deep {
        let sections: Vec<_> = deep
            .iter()
            .map(|c| serde_json::json!({"name": c.section, "ok": c.problem.is_none(), "problem": c.problem}))
            .collect();
        answer["deep"] = sections.into();
        answer["ok"] = (checks.iter().all(|c| c.ok) && deep.iter().all(|c| c.problem.is_none())).into();
    }
    answer
}

/// Every word of the index, read out of its FST in order.
fn words_of<D: AsRef<[u8]>>(index: &Index<D>) -> Result<SortedWords, Error> {
    let fst = index.words()?;
    let section_len = index.section(SectionId::Words)?.len();
    let most = section_len.saturating_mul(MAX_WORD_BYTES_PER_FST_BYTE).min(u32::MAX as usize);
    let mut words = SortedWords { bytes: Vec::new(), starts: vec![0] };
    let mut search = fst.search(wordhoard_query::format::fst::Everything);
    while let Some((word, id)) = search.next()? {
        let previous = words.len().checked_sub(1).map(|last| words.get(last));
        if id != words.len() as u64 || previous.is_some_and(|p| p >= word) || !index.alphabet().is_word(word) {
            return Err(Error::new(ErrorKind::Corrupt {
                section: Some(SectionId::Words.name()),
                problem: "is not the rank map of a set of words".into(),
            }));
        }
        if words.bytes.len() + word.len() > most {
            return Err(Error::new(ErrorKind::Limit(format!(
                "too large to rebuild: the words FST spells more than {most} bytes of words from {section_len} bytes \
                 (at most {MAX_WORD_BYTES_PER_FST_BYTE} a byte)"
            ))));
        }
        words.bytes.extend_from_slice(word);
        words.starts.push(words.bytes.len() as u32);
    }
    Ok(words)
}

/// Sections that gained columns at their end that readers may do
/// without, and how many columns builds before them wrote.
const EARLIER_COLUMNS: [(SectionId, usize); 3] =
    [(SectionId::Chains, 6), (SectionId::WordText, 3), (SectionId::Lettersets, 4)];

/// A rebuilt section as the file's build wrote it: from a build before
/// the section's later columns (the terms by length, the runs'
/// checksums, the letter sets' texts), its first columns alone; else as
/// rebuilt.
fn as_written_then<D: AsRef<[u8]>>(index: &Index<D>, id: SectionId, rebuilt: Vec<u8>) -> Result<Vec<u8>, Error> {
    let Some(&(_, before)) = EARLIER_COLUMNS.iter().find(|(section, _)| *section == id) else { return Ok(rebuilt) };
    if Columns::parse(id, index.section(id)?)?.len() != before {
        return Ok(rebuilt);
    }
    first_columns(id, &rebuilt, before)
}

/// A section's first `count` columns alone, as a column table.
fn first_columns(id: SectionId, section: &[u8], count: usize) -> Result<Vec<u8>, Error> {
    let cols = Columns::parse(id, section)?;
    let mut out = ColumnsWriter::new();
    for i in 0..count.min(cols.len()) {
        out.bytes(cols.bytes(i)?.to_vec());
    }
    Ok(out.finish())
}

/// The common flag of each word, as the file has it.
fn common_flags<D: AsRef<[u8]>>(index: &Index<D>, words: usize) -> Result<Vec<bool>, Error> {
    let common = index.common()?;
    (0..words).map(|id| common.is_common(id as u32)).collect()
}

/// What each column of a section holds, for naming a difference, and its
/// value width in bytes (0: an FST). `mask` is 4 or 8 bytes, by the
/// alphabet.
fn columns_of(id: SectionId, mask: usize) -> &'static [(&'static str, usize)] {
    match (id, mask) {
        (SectionId::Common, _) => &[("common flags", 8)],
        (SectionId::WordText, _) => &[("lengths", 1), ("run starts", 4), ("text", 1), ("run checksums", 4)],
        (SectionId::Endings, _) => &[("word ids", 4), ("keys", 4)],
        (SectionId::LetterGroups, _) => &[("key and alphabet letters", 4), ("starts", 4), ("groups", 1)],
        (SectionId::Lettersets, 4) => {
            &[("letter sets", 4), ("points", 4), ("offsets", 4), ("word ids", 4), ("text offsets", 4), ("texts", 1)]
        }
        (SectionId::Lettersets, _) => {
            &[("letter sets", 8), ("points", 4), ("offsets", 4), ("word ids", 4), ("text offsets", 4), ("texts", 1)]
        }
        (SectionId::Honeycombs | SectionId::CommonHoneycombs, 4) => {
            &[("letter sets", 4), ("pangrams", 4), ("scores", 4), ("word counts", 4)]
        }
        (SectionId::Honeycombs | SectionId::CommonHoneycombs, _) => {
            &[("letter sets", 8), ("pangrams", 4), ("scores", 4), ("word counts", 4)]
        }
        (SectionId::Terms, _) => &[("terms FST", 0), ("offsets", 4), ("word ids", 4)],
        (SectionId::Chains, _) => &[
            ("offsets", 4),
            ("successors", 4),
            ("lengths", 1),
            ("longest chains", 1),
            ("next terms", 4),
            ("games", 4),
            ("terms by length", 4),
            ("length starts", 4),
        ],
        _ => &[],
    }
}

/// The first difference between a section of the file and the rebuilt
/// one, in words: the column and the value where they part.
fn difference(id: SectionId, file: &[u8], want: &[u8], letters: usize) -> Option<String> {
    if file == want {
        return None;
    }
    if id == SectionId::Words {
        return Some(first_byte(file, want, "the FST"));
    }
    let (Ok(have), Ok(rebuilt)) = (Columns::parse(id, file), Columns::parse(id, want)) else {
        return Some("is not a column table".into());
    };
    if have.len() != rebuilt.len() {
        return Some(format!("has {} columns where a build writes {}", have.len(), rebuilt.len()));
    }
    let names = columns_of(id, if letters <= 32 { 4 } else { 8 });
    for i in 0..have.len() {
        let (Ok(a), Ok(b)) = (have.bytes(i), rebuilt.bytes(i)) else { continue };
        if a == b {
            continue;
        }
        let (name, mut width) = names.get(i).copied().unwrap_or(("column", 1));
        // The games column is u64s when a count does not fit in a u32:
        // its width is its length over the term count (column 2's).
        if id == SectionId::Chains && i == 5 {
            width = rebuilt.bytes(2).ok().filter(|t| !t.is_empty()).map_or(4, |t| (b.len() / t.len()).max(1));
        }
        let what = format!("column {i} ({name})");
        if width == 0 {
            return Some(first_byte(a, b, &what));
        }
        let (na, nb) = (a.len() / width, b.len() / width);
        let value = |col: &[u8], at: usize| {
            col[at * width..(at + 1) * width].iter().rev().fold(0u64, |v, &x| v << 8 | x as u64)
        };
        let at = (0..na.min(nb)).find(|&at| value(a, at) != value(b, at));
        return Some(match at {
            Some(at) => format!("{what}: value {at} is {} where a build writes {}", value(a, at), value(b, at)),
            None => format!("{what} has {na} values where a build writes {nb}"),
        });
    }
    Some("differs from a build in its column layout".into())
}

/// Where two byte strings first differ.
fn first_byte(have: &[u8], want: &[u8], what: &str) -> String {
    match have.iter().zip(want).position(|(a, b)| a != b) {
        Some(at) => format!("{what} differs from a build's at byte {at}"),
        None => format!("{what} has {} bytes where a build writes {}", have.len(), want.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build_index, BuildOptions, WordSource};

    fn built(list: &str, common: Option<&str>) -> Vec<u8> {
        let opts = BuildOptions {
            common: common.map(|c| WordSource::from_text("common", c)),
            letter_groups: Some(true),
            ..BuildOptions::default()
        };
        build_index(&[WordSource::from_text("list", list)], &opts).unwrap().into_bytes()
    }

    #[test]
    fn a_build_rebuilds_to_itself() {
        let index =
            Index::from_bytes(built("ride\ndire\nired\ngame\ngames\nmegaplex\nglam\n", Some("game\n"))).unwrap();
        let checks = verify_deep(&index).unwrap();
        assert_eq!(checks.len(), 10, "{checks:?}");
        assert!(checks.iter().all(|c| c.problem.is_none()), "{checks:?}");
    }

    /// A file whose sections lack their later columns (`chains` its terms
    /// by length, `word_text` its run checksums, `lettersets` its texts),
    /// as earlier builds wrote them, verifies and rebuilds to itself; so
    /// does each alone.
    #[test]
    fn sections_without_their_later_columns_rebuild_to_themselves() {
        use wordhoard_query::format::{FileWriter, Header};
        let file = built("ride\ndire\nired\ngame\ngames\nmegaplex\nglam\n", Some("game\n"));
        let header = Header::parse(&file).unwrap();
        let each_alone = (0..EARLIER_COLUMNS.len()).map(|i| &EARLIER_COLUMNS[i..=i]);
        for earlier in each_alone.chain([&EARLIER_COLUMNS[..]]) {
            let mut out = FileWriter::new();
            for entry in &header.sections {
                let mut payload = file[entry.range()].to_vec();
                if let Some(&(id, before)) = earlier.iter().find(|(id, _)| id.code() == entry.code) {
                    let now = Columns::parse(id, &payload).unwrap().len();
                    assert!(now > before, "a build writes {}'s later columns", id.name());
                    payload = first_columns(id, &payload, before).unwrap();
                    assert_eq!(Columns::parse(id, &payload).unwrap().len(), before);
                }
                out.add_raw(entry.code, payload);
            }
            let index = Index::from_bytes(out.finish()).unwrap();
            assert!(index.verify().iter().all(|c| c.ok));
            let checks = verify_deep(&index).unwrap();
            assert!(checks.iter().all(|c| c.problem.is_none()), "{checks:?}");
        }
    }

    /// `index` with one value of one column of section `id` changed, every
    /// checksum recomputed.
    fn edited(file: &[u8], id: SectionId, column: usize, at: usize, width: usize) -> Option<Vec<u8>> {
        use wordhoard_query::format::{FileWriter, Header};
        let header = Header::parse(file).ok()?;
        let mut out = FileWriter::new();
        let mut changed = false;
        for entry in &header.sections {
            let mut payload = file[entry.range()].to_vec();
            if entry.code == id.code() {
                let cols = Columns::parse(id, &payload).ok()?;
                let col = cols.bytes(column).ok()?;
                let start = col.as_ptr() as usize - payload.as_ptr() as usize + at * width;
                if (at + 1) * width > col.len() {
                    return None;
                }
                // The value's lowest bit flipped: a new value (a common
                // flag flipped changes the count the metadata states).
                payload[start] ^= 1;
                changed = true;
            }
            out.add_raw(entry.code, payload);
        }
        changed.then(|| out.finish())
    }

    /// On random small lists, a build rebuilds to itself, and a value
    /// changed in any column of any table is caught: by the quick checks,
    /// or by the deep check naming that section.
    #[test]
    fn every_single_value_edit_is_caught_on_random_lists() {
        let mut rng = crate::test_rng::SplitMix64::new(28);
        let (mut deep_caught, mut quick_caught) = (0, 0);
        for round in 0..40 {
            let words: Vec<String> = (0..3 + rng.below(60))
                .map(|_| (0..1 + rng.below(9)).map(|_| (b'a' + rng.below(9) as u8) as char).collect())
                .collect();
            let common: Vec<&String> = words.iter().filter(|_| rng.below(3) == 0).collect();
            let list = words.join("\n");
            let common = common.iter().map(|w| w.as_str()).collect::<Vec<_>>().join("\n");
            let file = built(&list, (round % 4 != 0).then_some(common.as_str()));
            let index = Index::from_bytes(file.as_slice()).unwrap();
            let checks = verify_deep(&index).unwrap();
            assert!(checks.iter().all(|c| c.problem.is_none()), "round {round}: {checks:?}");
            for id in [
                SectionId::Endings,
                SectionId::LetterGroups,
                SectionId::Common,
                SectionId::Lettersets,
                SectionId::Honeycombs,
                SectionId::CommonHoneycombs,
                SectionId::Terms,
                SectionId::Chains,
            ] {
                for (column, &(_, width)) in columns_of(id, 4).iter().enumerate().filter(|(_, c)| c.1 != 0) {
                    let at = rng.below(8) as usize;
                    let Some(bad) = edited(&file, id, column, at, width) else { continue };
                    let index = Index::from_bytes(bad.as_slice()).unwrap();
                    if index.verify().iter().any(|c| !c.ok) {
                        quick_caught += 1;
                        continue;
                    }
                    let checks = verify_deep(&index).unwrap();
                    let named: Vec<_> = checks.iter().filter(|c| c.problem.is_some()).map(|c| c.section).collect();
                    assert!(
                        named.contains(&id.name()),
                        "round {round}: {} column {column} value {at}: {named:?}",
                        id.name()
                    );
                    deep_caught += 1;
                }
            }
        }
        // Both kinds of check have work here: edits that keep the
        // structure valid are common.
        assert!(deep_caught > 100 && quick_caught > 20, "deep {deep_caught}, quick {quick_caught}");
    }
}
