//! Word lists in, an index file's sections out: [`build_index`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use wordhoard_query::alphabet::Folding;
use wordhoard_query::format::{
    run_checksum, ColumnsWriter, FileWriter, Metadata, Payload, SectionId, WORD_TEXT_RUN as RUN,
};
use wordhoard_query::Alphabet;

use crate::error::{BuildError, BuildErrorKind, ListRole};
use crate::sorted_words::SortedWords;
use crate::survey::{self, AlphabetRule, ProperNounReport, ProperNouns};
use crate::wordlist::{Skipped, WordList, WordSource};
use crate::{anigram, bee, fst_writer};

/// Options for [`build_index`].
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// The index's name; default: the first source's file stem.
    pub name: Option<String>,
    /// A list of common words to flag.
    pub common: Option<WordSource>,
    /// Lists of words to leave out of the index (offensive words, say):
    /// a word on any of them is in no answer and no generated puzzle.
    pub exclude: Vec<WordSource>,
    /// The alphabet; words with other characters are skipped.
    pub alphabet: AlphabetChoice,
    /// Whether a capitalised word is a proper noun, skipped.
    pub proper_nouns: ProperNouns,
    /// The build time to record, seconds since the Unix epoch. `None`:
    /// `SOURCE_DATE_EPOCH` when it is set (reproducible builds), else now.
    pub built_at: Option<u64>,
    /// Leave out the optional `endings` table (4 bytes a word): patterns
    /// that start with `*` then scan the word text. For an index shipped
    /// to a reader that never asks them (the web page).
    pub without_endings: bool,
    /// Whether to write the optional `letter_groups` table (a copy of the
    /// words with no letter twice in a row, with their ids, grouped by
    /// their lowest letters, from which Letter Boxed finds a box's words).
    /// `None`: when the index has at least [`LETTER_GROUPS_FROM`] words.
    pub letter_groups: Option<bool>,
}

/// The fewest words for which a build writes the `letter_groups` table
/// unless told. Below it, a Letter Boxed walk of the words FST is nearly
/// as quick and smaller: on enable1 (172,820 words) the table saves a box
/// 0.2 ms of 2.2 and costs 2.0 MB of 15.8 and 4.5 ms of an 82 ms build;
/// on 926,380 words a box's walk held 14.8 MB resident against 12.8 MB
/// (the first groups); on 8.7 million, 86 MB and 12.7 times `--version`
/// against 25 MB and 7.4 times (docs/performance.md).
pub const LETTER_GROUPS_FROM: usize = 500_000;

/// Which optional tables a build writes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OptionalSections {
    pub(crate) endings: bool,
    /// `None`: no `letter_groups`; else how many lowest letters name a
    /// group (`None` inside: by the list's size).
    pub(crate) letter_groups: Option<Option<usize>>,
}

/// Which letters an index is built over.
#[derive(Clone, Debug)]
pub enum AlphabetChoice {
    /// `a`..`z` for word lists that are ASCII; otherwise the letters the
    /// lists use, after NFC, lowercasing and this folding.
    Auto(Folding),
    /// Exactly these letters (normalised with the alphabet's folding);
    /// words with other letters are skipped and counted.
    Fixed(Box<Alphabet>),
}

impl Default for AlphabetChoice {
    fn default() -> AlphabetChoice {
        AlphabetChoice::Auto(Folding::default())
    }
}

/// The sources to read twice (once to plan, once for the words): standard
/// input is copied to a temporary file first when it must be planned for
/// (the guard removes it).
fn rereadable(sources: &[WordSource]) -> Result<(Vec<WordSource>, Option<Spool>), BuildError> {
    let spool = sources.iter().any(|s| matches!(s, WordSource::Stdin)).then(Spool::new);
    let read = sources
        .iter()
        .map(|source| match &spool {
            Some(spool) => source.clone().rereadable(&spool.0),
            None => Ok(source.clone()),
        })
        .collect::<Result<_, _>>()?;
    Ok((read, spool))
}

/// A temporary copy of standard input, removed when dropped.
struct Spool(std::path::PathBuf);

impl Spool {
    fn new() -> Spool {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        Spool(std::env::temp_dir().join(format!("wordhoard-stdin-{}-{nanos}", std::process::id())))
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The build time an index records: the option, else `SOURCE_DATE_EPOCH`
/// (see reproducible-builds.org), else the clock.
fn build_time(opts: &BuildOptions) -> u64 {
    let from_env = || std::env::var("SOURCE_DATE_EPOCH").ok().and_then(|v| v.trim().parse().ok());
    let now = || SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    opts.built_at.or_else(from_env).unwrap_or_else(now)
}

/// What a build read, kept and wrote.
#[derive(Clone, Debug)]
pub struct BuildReport {
    /// The index's name.
    pub name: String,
    /// The sources read.
    pub sources: Vec<String>,
    /// Lines read.
    pub lines: u64,
    /// Distinct words kept.
    pub words: u64,
    /// Lines skipped, by reason.
    pub skipped: Skipped,
    /// The alphabet's letters.
    pub alphabet: String,
    /// How the alphabet was chosen.
    pub alphabet_rule: AlphabetRule,
    /// What was done with capitalised words, when the lists had any.
    pub proper_nouns: Option<ProperNounReport>,
    /// Duplicate words collapsed.
    pub duplicates: u64,
    /// The common list, if given.
    pub common: Option<CommonReport>,
    /// The exclusion lists, if any.
    pub excluded: Option<ExcludeReport>,
    /// Anagram terms.
    pub terms: u64,
    /// Each section's name and size in bytes.
    pub sections: Vec<(String, u64)>,
    /// The file's size in bytes.
    pub bytes: u64,
    /// SHA-256 of the sources (see [`WordList::sources_sha256`]).
    pub source_sha256: String,
    /// Wall time of each phase, in seconds, in order.
    pub phases: Vec<(&'static str, f64)>,
}

/// What the exclusion lists removed.
#[derive(Clone, Debug)]
pub struct ExcludeReport {
    /// The lists' names.
    pub sources: Vec<String>,
    /// Distinct words they name.
    pub listed: u64,
    /// Words of the word lists left out.
    pub removed: u64,
}

/// What was read from the common list.
#[derive(Clone, Debug)]
pub struct CommonReport {
    /// The list's name.
    pub source: String,
    /// Words of the index flagged common.
    pub flagged: u64,
    /// Common words that are not in the index (ignored).
    pub not_in_index: u64,
    /// Lines of the list skipped.
    pub skipped: u64,
}

/// A built index: its sections, ready to write, and the report.
pub struct Built {
    /// The index file, section by section; [`crate::write_atomically`] writes it.
    pub file: FileWriter,
    /// What the build did.
    pub report: BuildReport,
}

impl Built {
    /// The whole index file in one buffer.
    pub fn into_bytes(self) -> Vec<u8> {
        self.file.finish()
    }
}

/// Reads the word lists and encodes the index in memory.
pub fn build_index(sources: &[WordSource], opts: &BuildOptions) -> Result<Built, BuildError> {
    if sources.is_empty() {
        return Err(BuildError::new(BuildErrorKind::NoSources));
    }
    let mut clock = Phases::default();
    let (sources, _spool) = rereadable(sources)?;
    let sources = sources.as_slice();
    let plan = survey::plan(&opts.alphabet, opts.proper_nouns, sources)?;
    let alphabet = plan.alphabet;
    let skip_capitalised = plan.proper_nouns.is_some_and(|p| p.skipped);
    let (mut list, common_list, mut exclude_list) = read_lists(sources, opts, &alphabet, skip_capitalised)?;
    let exclude_files = exclude_list.as_mut().map(|l| std::mem::take(&mut l.sources)).unwrap_or_default();
    clock.lap("read");
    let (lines, skipped, source_sha256) = (list.lines, list.skipped.clone(), list.sources_sha256());
    let source_files = std::mem::take(&mut list.sources);
    let spellings = list.spellings();
    let kept_lines = lines - skipped.total();
    let (words, excluded) = without_excluded(list.into_sorted_words(), exclude_list, opts);
    if words.len() > u32::MAX as usize {
        return Err(BuildError::too_large("more than 4 billion distinct words; split the list"));
    }
    let spellings = spellings_section(&words, &spellings)?;
    clock.lap("sort");
    let name = opts.name.clone().unwrap_or_else(|| default_name(&sources[0]));
    let common_file = common_list.as_ref().and_then(|c| c.sources.first().cloned());
    let letter_groups = opts.letter_groups.unwrap_or(words.len() >= LETTER_GROUPS_FROM).then_some(None);
    let optional = OptionalSections { endings: !opts.without_endings, letter_groups };
    let mut sections = encode_sections(&words, &alphabet, optional, |words| flag_common(opts, common_list, words));
    clock.lap("sections");
    let common_report = sections.common_report.take();

    let meta = Metadata {
        word_count: words.len() as u64,
        lines_read: lines,
        lines_skipped: skipped.total(),
        common_count: common_report.as_ref().map_or(0, |c| c.flagged),
        excluded_count: excluded.as_ref().map_or(0, |e| e.removed),
        built_at_unix: build_time(opts),
        name: name.clone(),
        alphabet: alphabet.as_str().to_string(),
        fold_accents: alphabet.folding().accents,
        kept_letters: alphabet.folding().keep.clone(),
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        sources: source_files,
        source_sha256,
        common_source: common_file.filter(|_| common_report.is_some()),
        exclude_sources: exclude_files,
    };
    let term_count = sections.term_count;
    let file = lay_out_file(&meta, sections, spellings, plan.proper_nouns.as_ref())?;
    let section_sizes = file
        .section_sizes()
        .into_iter()
        .map(|(code, len)| (SectionId::from_code(code).map_or("?", |id| id.name()).to_string(), len as u64))
        .collect();
    let bytes = file.file_len() as u64;
    clock.lap("encode");
    let report = BuildReport {
        name,
        sources: sources.iter().map(WordSource::name).collect(),
        lines,
        words: words.len() as u64,
        skipped,
        alphabet: alphabet.as_str().to_string(),
        alphabet_rule: plan.alphabet_rule,
        proper_nouns: plan.proper_nouns,
        duplicates: kept_lines - words.len() as u64 - excluded.as_ref().map_or(0, |e| e.removed),
        common: common_report,
        excluded,
        terms: term_count as u64,
        sections: section_sizes,
        bytes,
        source_sha256: source_sha256.to_string(),
        phases: clock.laps,
    };
    Ok(Built { file, report })
}

/// The words without those of the exclusion lists, and what was removed.
fn without_excluded(
    words: SortedWords,
    exclude_list: Option<WordList>,
    opts: &BuildOptions,
) -> (SortedWords, Option<ExcludeReport>) {
    let Some(exclude_list) = exclude_list else { return (words, None) };
    let listed = exclude_list.into_sorted_words();
    let (words, removed) = words.without(&listed);
    let sources = opts.exclude.iter().map(WordSource::name).collect();
    (words, Some(ExcludeReport { sources, listed: listed.len() as u64, removed }))
}

/// The main lists, and the common and exclusion lists read beside them
/// on another thread.
fn read_lists(
    sources: &[WordSource],
    opts: &BuildOptions,
    alphabet: &Alphabet,
    skip_capitalised: bool,
) -> Result<(WordList, Option<WordList>, Option<WordList>), BuildError> {
    let (list, (common, exclude)) = std::thread::scope(|s| {
        let others = s.spawn(|| {
            let common = opts
                .common
                .as_ref()
                .map(|c| WordList::read(std::slice::from_ref(c), alphabet).map_err(|e| e.for_role(ListRole::Common)));
            let exclude = (!opts.exclude.is_empty())
                .then(|| WordList::read(&opts.exclude, alphabet).map_err(|e| e.for_role(ListRole::Exclusion)));
            (common, exclude)
        });
        (WordList::read_skipping(sources, alphabet, skip_capitalised), others.join().expect("common list thread"))
    });
    Ok((list?, common.transpose()?, exclude.transpose()?))
}

/// The index file's sections in the format's order: the metadata, the
/// encoded tables, and the optional spellings and proper-noun sections.
fn lay_out_file(
    meta: &Metadata,
    sections: Sections,
    spellings: Option<Payload>,
    proper_nouns: Option<&ProperNounReport>,
) -> Result<FileWriter, BuildError> {
    let mut file = FileWriter::new();
    file.add(SectionId::Meta, meta.encode())
        .add(SectionId::Words, sections.words?)
        .add(SectionId::WordText, sections.word_text);
    if let Some(endings) = sections.endings {
        file.add(SectionId::Endings, endings);
    }
    if let Some(letter_groups) = sections.letter_groups {
        file.add(SectionId::LetterGroups, letter_groups?);
    }
    file.add(SectionId::Common, sections.common)
        .add(SectionId::Lettersets, sections.bee.lettersets)
        .add(SectionId::Honeycombs, sections.bee.honeycombs);
    if let Some(common_honeycombs) = sections.bee.common_honeycombs {
        file.add(SectionId::CommonHoneycombs, common_honeycombs);
    }
    file.add(SectionId::Terms, sections.terms?).add(SectionId::Chains, sections.chains?);
    if let Some(spellings) = spellings {
        file.add(SectionId::Spellings, spellings);
    }
    // Only a build that skipped proper nouns says so: one that lowercased
    // its capitals made the index every earlier build made, byte for byte.
    if let Some(p) = proper_nouns.filter(|p| p.skipped) {
        let stored = wordhoard_query::format::ProperNouns {
            skipped: p.skipped,
            auto: p.auto,
            capitalised: p.capitalised,
            words: p.words,
        };
        file.add(SectionId::ProperNouns, stored.encode());
    }
    Ok(file)
}

/// The `word_text` section: each word's length, where each run of 16
/// words starts, the words back to back, and each run's checksum
/// (FORMAT.md).
fn word_text_section(words: &SortedWords) -> Payload {
    let lengths: Vec<u8> = words.starts.windows(2).map(|w| (w[1] - w[0]) as u8).collect();
    let starts: Vec<u32> = words.starts[..words.len()].iter().copied().step_by(RUN).collect();
    let text = words.bytes();
    let checksums: Vec<u32> = lengths
        .chunks(RUN)
        .zip(&starts)
        .map(|(run, &start)| {
            let end = start as usize + run.iter().map(|&l| l as usize).sum::<usize>();
            run_checksum(start, run, &text[start as usize..end])
        })
        .collect();
    ColumnsWriter::new().bytes(lengths).u32s(&starts).bytes(text.to_vec()).u32s(&checksums).take_payload()
}

/// The `spellings` section: word ids (ascending), offsets, and the UTF-8
/// spellings, for the words of `words` that have one; `None` when none do.
fn spellings_section(words: &SortedWords, spellings: &[(Vec<u8>, String)]) -> Result<Option<Payload>, BuildError> {
    let (mut ids, mut offsets, mut text) = (Vec::new(), vec![0u32], Vec::new());
    for (word, spelling) in spellings {
        // Excluded words have no id, and no spelling.
        let Some(id) = words.find(word) else { continue };
        ids.push(id as u32);
        text.extend_from_slice(spelling.as_bytes());
        offsets.push(u32::try_from(text.len()).map_err(|_| BuildError::too_large("over 4 GiB of spellings"))?);
    }
    if ids.is_empty() {
        return Ok(None);
    }
    Ok(Some(ColumnsWriter::new().u32s(&ids).u32s(&offsets).bytes(text).take_payload()))
}

/// Every section but the metadata, encoded.
pub(crate) struct Sections {
    pub(crate) words: Result<Vec<u8>, BuildError>,
    pub(crate) word_text: Payload,
    /// `None` when the build leaves it out.
    pub(crate) endings: Option<Payload>,
    /// `None` when the build leaves it out.
    pub(crate) letter_groups: Option<Result<Payload, BuildError>>,
    pub(crate) common: Payload,
    pub(crate) common_report: Option<CommonReport>,
    pub(crate) bee: bee::BeeSections,
    pub(crate) terms: Result<Payload, BuildError>,
    pub(crate) chains: Result<Payload, BuildError>,
    pub(crate) term_count: usize,
}

/// Encodes every section from the sorted words, on two threads.
///
/// Each section depends only on the words, but not equally: the chain
/// graph needs the terms first and is the longest single job, so one
/// thread makes the terms and then the chains; the other makes the words
/// FST, the common flags, the bee rows and the small tables (endings,
/// word text). The terms FST goes to whichever
/// thread is free first, and both end on the honeycombs, which come in
/// chunks either may claim ([`bee::BeeBuild::help`]), so neither waits
/// long for the other. On enable1 this is the build's longest phase.
/// `flag_common` gives each word's common flag, and the report of a
/// common list (`None`: built without one).
pub(crate) fn encode_sections(
    words: &SortedWords,
    alphabet: &Alphabet,
    optional: OptionalSections,
    flag_common: impl FnOnce(&SortedWords) -> (Vec<bool>, Option<CommonReport>),
) -> Sections {
    let terms = OnceLock::new();
    let make_terms = || anigram::Terms::new(words);
    let bee: OnceLock<bee::BeeBuild> = OnceLock::new();
    let terms_fst_claimed = AtomicBool::new(false);
    let terms_section = OnceLock::new();
    let terms_fst = || {
        if !terms_fst_claimed.swap(true, Ordering::Relaxed) {
            // Waits for the other thread's terms (or makes them, if it died).
            let _ = terms_section.set(anigram::terms_section(terms.get_or_init(make_terms)));
        }
    };
    let (words_fst, (common, common_report), (endings, letter_groups, word_text), chains) = std::thread::scope(|s| {
        let chains = s.spawn(|| {
            let chains = anigram::chains_section(terms.get_or_init(make_terms));
            terms_fst();
            // The bee rows are made by now, unless that thread is slow.
            if let Some(bee) = bee.get() {
                bee.help();
            }
            chains
        });
        let fst = fst_writer::rank_map(words.iter(), "words");
        let (common, report) = flag_common(words);
        let bee = bee.get_or_init(|| bee::BeeBuild::new(words, alphabet, &common, report.is_some()));
        terms_fst();
        // Before the honeycombs, which the other thread shares when done.
        let endings = optional.endings.then(|| crate::endings::endings_section(words, alphabet));
        let letter_groups =
            optional.letter_groups.map(|key| crate::letter_groups::letter_groups_section(words, alphabet, key));
        let word_text = word_text_section(words);
        bee.help();
        (fst, (common, report), (endings, letter_groups, word_text), chains.join().expect("chains build thread"))
    });
    Sections {
        words: words_fst,
        word_text,
        endings,
        letter_groups,
        common: common_section(&common),
        common_report,
        bee: bee.into_inner().expect("made in the scope").finish(),
        terms: terms_section.into_inner().expect("claimed in the scope"),
        chains,
        term_count: terms.get().map_or(0, anigram::Terms::len),
    }
}

/// Times the phases of a build.
struct Phases {
    last: std::time::Instant,
    laps: Vec<(&'static str, f64)>,
}

impl Default for Phases {
    fn default() -> Phases {
        Phases { last: std::time::Instant::now(), laps: Vec::new() }
    }
}

impl Phases {
    fn lap(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        self.laps.push((name, (now - self.last).as_secs_f64()));
        self.last = now;
    }
}

/// The name an index built from `source` gets without `--name`: the file
/// stem of a file.
pub fn default_name(source: &WordSource) -> String {
    match source {
        WordSource::File(p) => p.file_stem().map_or("index".into(), |s| s.to_string_lossy().into_owned()),
        WordSource::Stdin => "stdin".into(),
        WordSource::Text { name, .. } | WordSource::Spooled { name, .. } => name.clone(),
    }
}

/// The common flag per word id, and what the common list held.
fn flag_common(opts: &BuildOptions, list: Option<WordList>, words: &SortedWords) -> (Vec<bool>, Option<CommonReport>) {
    let mut flags = vec![false; words.len()];
    let (Some(source), Some(list)) = (&opts.common, list) else { return (flags, None) };
    let skipped = list.skipped.total();
    let mut report = CommonReport { source: source.name(), flagged: 0, not_in_index: 0, skipped };
    // Both lists are sorted: each common word is sought from the last
    // one's place, in steps that double (common words are a few in each
    // stretch of the list).
    let common = list.into_sorted_words();
    let mut id = 0;
    for word in common.iter() {
        let mut step = 1;
        while id + step < words.len() && words.get(id + step) < word {
            id += step;
            step *= 2;
        }
        // The first word not below `word` lies in id..=id + step.
        id = words.first_not_below(word, id..id + step + 1);
        if id < words.len() && words.get(id) == word {
            flags[id] = true;
            report.flagged += 1;
        } else {
            report.not_in_index += 1;
        }
    }
    (flags, Some(report))
}

fn common_section(flags: &[bool]) -> Payload {
    let mut bits = vec![0u64; flags.len().div_ceil(64)];
    for (id, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
        bits[id / 64] |= 1 << (id % 64);
    }
    ColumnsWriter::new().u64s(&bits).take_payload()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;

    #[test]
    fn flags_exactly_the_common_words_in_the_list() {
        let mut rng = SplitMix64::new(7);
        let mut word = || (0..1 + rng.below(4)).map(|_| (b'a' + rng.below(4) as u8) as char).collect::<String>();
        for round in 0..40 {
            // Common lists from empty to larger than the main list, with
            // words of their own.
            let list: Vec<String> = (0..rng_len(round, 60)).map(|_| word()).collect();
            let common: Vec<String> = (0..rng_len(round * 7 + 3, 90)).map(|_| word()).collect();
            let opts =
                BuildOptions { common: Some(WordSource::from_text("c", &common.join("\n"))), ..Default::default() };
            let read = |l: &[String]| WordList::read(&[WordSource::from_text("l", &l.join("\n"))], &Alphabet::latin());
            let words = read(&list).unwrap().into_sorted_words();
            let (flags, report) = flag_common(&opts, Some(read(&common).unwrap()), &words);
            let common_set: std::collections::HashSet<&[u8]> = common.iter().map(|w| w.as_bytes()).collect();
            let want: Vec<bool> = words.iter().map(|w| common_set.contains(w)).collect();
            assert_eq!(flags, want, "round {round}");
            let report = report.unwrap();
            assert_eq!(report.flagged, want.iter().filter(|&&f| f).count() as u64);
            assert_eq!(report.flagged + report.not_in_index, common_set.len() as u64);
        }
    }

    /// A length that sweeps 0..max as `round` grows.
    fn rng_len(round: usize, max: usize) -> usize {
        round * 37 % (max + 1)
    }
}
