//! `verify`: every checksum, then every section's structure. It sits
//! above the puzzles, whose checks it runs, so that neither the index nor
//! a puzzle module needs the other's.

use crate::error::{Error, ErrorKind, Result};
use crate::format::SectionId;
use crate::index::Index;
use crate::{anigram, bee};

/// The outcome of checking one section in [`Index::verify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionCheck {
    /// The section's name.
    pub name: String,
    /// Its offset in the file.
    pub offset: u64,
    /// Its length in bytes.
    pub len: u64,
    /// True when its checksum matches and its structure opens.
    pub ok: bool,
    /// What is wrong, when not ok.
    pub problem: Option<String>,
}

impl<D: AsRef<[u8]>> Index<D> {
    /// Recomputes every section's checksum (no structural checks): what a
    /// writer needs to confirm the bytes on disk are the bytes it wrote.
    /// A large file is checked on two threads.
    pub fn verify_checksums(&self) -> Vec<SectionCheck>
    where
        D: Sync,
    {
        self.header()
            .sections
            .iter()
            .zip(self.section_crcs_ok())
            .map(|(e, ok)| {
                let problem = (!ok).then(|| "checksum mismatch".to_string());
                SectionCheck { name: e.name(), offset: e.offset, len: e.len, ok, problem }
            })
            .collect()
    }

    /// Whether each section's checksum matches, in the header's order: in
    /// a file of [`PARALLEL_VERIFY_MIN`] bytes or more, the sections up to
    /// half the bytes here and the rest on a second thread. (A build
    /// checks the file it wrote while its `fsync` runs: on enable1 the
    /// check, 2.5 ms on one thread, ended after the `fsync` once the
    /// writeback started early.)
    fn section_crcs_ok(&self) -> Vec<bool>
    where
        D: Sync,
    {
        let sections = &self.header().sections;
        let crc_ok = |range: std::ops::Range<usize>| -> Vec<bool> {
            // The structure checks of `verify` open sections: they need
            // not checksum them again, and read only some columns, which
            // they map again as they go.
            range.map(|i| self.check_section_crc(i)).collect()
        };
        if self.as_bytes().len() < PARALLEL_VERIFY_MIN {
            return crc_ok(0..sections.len());
        }
        let half = self.as_bytes().len() / 2;
        let split = sections.iter().position(|e| e.offset as usize + e.len as usize >= half).unwrap_or(0);
        let (mut ok, rest) = both(|| crc_ok(0..split), || crc_ok(split..sections.len()));
        ok.extend(rest.unwrap_or_else(|| vec![false; sections.len() - split]));
        ok
    }

    /// Recomputes every section's checksum and, when all match, opens every
    /// known section's structure (structures refer to each other, so a bad
    /// checksum is reported only on its own section). Unlike queries, this
    /// ignores earlier checks. A large file is checked on two threads.
    pub fn verify(&self) -> Vec<SectionCheck>
    where
        D: Sync,
    {
        let sections = &self.header().sections;
        let two_threads = self.as_bytes().len() >= PARALLEL_VERIFY_MIN;
        let crc_ok = self.section_crcs_ok();
        let all_ok = crc_ok.iter().all(|&ok| ok);
        // Each puzzle's check covers all of its sections: run each once.
        // Walking the two FSTs is the longest part: the terms FST (with
        // its groups) on the other thread, the rest here, measured to end
        // close together on enable1.
        let words = || self.words().and_then(|words| words.check_rank_map(self.alphabet()));
        let rest = || (words(), bee::check_sections(self), anigram::check_chains(self));
        let terms = || crate::terms::check_terms(self);
        let ((words, bee, chains), terms) = match (all_ok, two_threads) {
            (false, _) => ((Ok(()), Ok(()), Ok(())), Ok(())),
            (true, false) => (rest(), terms()),
            (true, true) => {
                let (mine, terms) = both(rest, terms);
                (mine, terms.unwrap_or_else(|| Err(Error::corrupt("the check stopped unexpectedly"))))
            }
        };
        let anigram = terms.and(chains);
        let check = |id: SectionId| -> Result<()> {
            match id {
                SectionId::Meta | SectionId::ProperNouns => Ok(()),
                SectionId::Spellings => self.check_spellings(),
                SectionId::WordText => self.check_word_text(),
                SectionId::Endings => self.check_endings(),
                SectionId::LetterGroups => self.check_letter_groups(),
                SectionId::Words => words.clone(),
                SectionId::Common => self.check_common(),
                SectionId::Lettersets | SectionId::Honeycombs | SectionId::CommonHoneycombs => bee.clone(),
                SectionId::Terms | SectionId::Chains => anigram.clone(),
            }
        };
        sections
            .iter()
            .zip(crc_ok)
            .map(|(entry, ok)| {
                let problem = if !ok {
                    Some("checksum mismatch".to_string())
                } else if all_ok {
                    SectionId::from_code(entry.code)
                        .and_then(|id| check(id).err())
                        .map(|e| problem_of(&e, &entry.name()))
                } else {
                    None
                };
                SectionCheck {
                    name: entry.name(),
                    offset: entry.offset,
                    len: entry.len,
                    ok: problem.is_none(),
                    problem,
                }
            })
            .collect()
    }
}

/// What is wrong with section `name`, said once: a problem of its own
/// as it is (`has a word id out of range`), one found in another section
/// that it depends on with that section's name, and no advice (the
/// caller says to rebuild).
fn problem_of(e: &Error, name: &str) -> String {
    match e.kind() {
        ErrorKind::Corrupt { section: Some(s), problem } if *s == name => problem.clone(),
        ErrorKind::Corrupt { section: Some(s), problem } => format!("section `{s}` {problem}"),
        ErrorKind::Corrupt { section: None, problem } => problem.clone(),
        ErrorKind::Checksum { section } => format!("section `{section}` fails its checksum"),
        ErrorKind::MissingSection { section } => format!("needs section `{section}`, which the index lacks"),
        _ => e.to_string(),
    }
}

/// Files this large are verified on two threads; smaller ones faster on one.
const PARALLEL_VERIFY_MIN: usize = 1 << 20;

/// Runs `first` here and `second` on a second thread where the platform
/// has threads; where it has none (wasm32-unknown-unknown), here after
/// `first`. `None` for `second` when it panicked.
fn both<A, B: Send>(first: impl FnOnce() -> A, second: impl FnOnce() -> B + Send) -> (A, Option<B>) {
    // Held in a cell so that a thread that could not start leaves it here.
    let second = std::sync::Mutex::new(Some(second));
    let run_second = || {
        let task = second.lock().ok()?.take();
        task.map(|f| f())
    };
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new().spawn_scoped(s, run_second);
        let a = first();
        let b = match spawned {
            Ok(handle) => handle.join().ok().flatten(),
            Err(_) => run_second(),
        };
        (a, b)
    })
}

#[cfg(test)]
mod tests {
    use crate::bee::{self, Puzzle, SolveOptions};
    use crate::format::SectionId;
    use crate::testutil::{index, with_columns};
    use crate::Index;

    const WORDS: &str = "amalgam\ngame\nglam\nmegaplex\n";

    fn problem(index: &Index<Vec<u8>>, name: &str) -> Option<String> {
        index.verify().into_iter().find(|c| c.name == name).and_then(|c| c.problem)
    }

    /// `index` with every byte of its `common` section flipped, checksums
    /// left as they were.
    fn common_damaged(idx: &Index<Vec<u8>>) -> Index<Vec<u8>> {
        let entry =
            idx.header().sections.iter().find(|e| e.code == SectionId::Common.code()).expect("a common section");
        let mut bytes = idx.as_bytes().to_vec();
        bytes[entry.range()].iter_mut().for_each(|b| *b ^= 0xff);
        Index::from_bytes(bytes).expect("the header is intact")
    }

    /// An index that flags no word reads no flag: with its flags damaged,
    /// a question that shows them still answers (every word uncommon),
    /// and only `verify` finds the damage. With a common list, the same
    /// damage is an error.
    #[test]
    fn an_index_that_flags_no_word_reads_no_flag() {
        let solve = |idx: &Index<Vec<u8>>| {
            let puzzle = Puzzle::parse(idx.alphabet(), "aeglmpx", Some("g"))?;
            bee::solve(idx, puzzle, &SolveOptions::default())
        };
        let none = common_damaged(&index(WORDS, None));
        let solution = solve(&none).expect("the flags are not read");
        assert_eq!(solution.words.len(), 4);
        assert!(solution.words.iter().all(|w| !w.common));
        assert_eq!(problem(&none, "common").as_deref(), Some("checksum mismatch"));
        let some = common_damaged(&index(WORDS, Some("game\n")));
        assert!(solve(&some).unwrap_err().to_string().contains("common"), "the flags are read");
    }

    /// `verify_checksums` names exactly the section a flipped byte lies
    /// in, in a file small enough for one thread and in one large enough
    /// for two (each thread's half of the sections, and the seam between).
    #[test]
    fn verify_checksums_names_the_section_a_flipped_byte_is_in() {
        let mut rng = crate::rng::SplitMix64::new(20);
        let large = crate::testutil::random_list(&mut rng, 30_000, 3, 10, 26);
        for (words, two_threads) in [(WORDS, false), (large.as_str(), true)] {
            let idx = index(words, None);
            assert_eq!(idx.as_bytes().len() >= super::PARALLEL_VERIFY_MIN, two_threads);
            assert!(idx.verify_checksums().iter().all(|c| c.ok && c.problem.is_none()));
            for (i, entry) in idx.header().sections.iter().enumerate() {
                for at in [entry.offset, entry.offset + entry.len / 2, entry.offset + entry.len - 1] {
                    let mut bytes = idx.as_bytes().to_vec();
                    bytes[at as usize] ^= 0x10;
                    let damaged = match Index::from_bytes(bytes) {
                        Ok(damaged) => damaged,
                        // The metadata is checked as the file opens.
                        Err(e) => {
                            assert_eq!(entry.code, SectionId::Meta.code(), "{e}");
                            continue;
                        }
                    };
                    let bad: Vec<usize> = (damaged.verify_checksums().iter().enumerate())
                        .filter(|(_, c)| !c.ok && c.problem.as_deref() == Some("checksum mismatch"))
                        .map(|(j, _)| j)
                        .collect();
                    assert_eq!(bad, [i], "byte {at} of section {}", entry.name());
                }
            }
        }
    }

    /// `verify` checks the flags against the metadata's count, which a
    /// query trusts when it is 0, and that none lies past the last word.
    #[test]
    fn verify_checks_the_flags_against_their_count() {
        let none = index(WORDS, None);
        assert_eq!(problem(&none, "common"), None);
        let lying = with_columns(&none, SectionId::Common, |cols| cols[0][0] |= 1);
        assert!(!lying.common().unwrap().is_common(0).unwrap(), "the count says none");
        assert_eq!(problem(&lying, "common").as_deref(), Some("flags 1 words common, where the metadata counts 0"));
        let some = index(WORDS, Some("game\n"));
        assert_eq!(problem(&some, "common"), None);
        assert!(some.common().unwrap().is_common(1).unwrap(), "game is word 1");
        let one_more = with_columns(&some, SectionId::Common, |cols| cols[0][0] |= 1);
        assert_eq!(problem(&one_more, "common").as_deref(), Some("flags 2 words common, where the metadata counts 1"));
        // Four words: bit 4 and on of the first value are past them.
        let past = with_columns(&some, SectionId::Common, |cols| cols[0][0] |= 1 << 4);
        assert_eq!(problem(&past, "common").as_deref(), Some("flags a word past the last word"));
    }
}
