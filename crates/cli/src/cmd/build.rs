//! `wordhoard build`: word lists in, index file out.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use serde_json::json;
use wordhoard_builder::{
    build_index, check_output, write_atomically, AlphabetRule, BuildError, BuildErrorKind, BuildFlags, BuildReport,
    OutputProblem, PublishOptions, WordSource,
};

use super::Context;
use crate::output::{emit, plural, shown, thousands};

/// Arguments of `build`.
#[derive(clap::Args)]
#[command(after_help = "Example: wordhoard build enable1.txt --common popular.txt   (writes enable1.hoard into \
                         the index folder: $WORDHOARD_HOME, else the platform's data folder)")]
pub struct Args {
    /// Word lists, one word a line (`-` reads stdin)
    #[arg(required = true, value_name = "WORDLIST")]
    wordlists: Vec<String>,
    /// Where to write the index [default: --index if given, else NAME.hoard in the index folder]
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
    /// A list of common words: flagged in the index, used to rank and filter
    #[arg(long, value_name = "FILE")]
    common: Option<String>,
    /// A list of words to leave out of the index (repeatable): they are in
    /// no answer and no generated puzzle
    #[arg(long, value_name = "FILE")]
    exclude: Vec<String>,
    /// The letters: `auto`, or the letters themselves, ranges allowed (`a-z`, `a-zäöüß`).
    /// `auto`: a list whose words are 99% or more plain a-z is an a-z list (its other words are
    /// skipped and counted); any other list keeps every letter it uses
    #[arg(long, default_value = "auto", value_name = "auto|LETTERS")]
    alphabet: String,
    /// What a word with a capital letter is. `auto`: in a list where at least 3 in 4 words have no
    /// capital, a proper noun, skipped (Debian's dictionaries); in any other, a word (German
    /// nouns). `skip` or `keep` decide for any list
    #[arg(long, default_value = "auto", value_name = "auto|skip|keep", value_parser = ["auto", "skip", "keep"])]
    proper_nouns: String,
    /// Fold words before their letters are taken: `accents` strips diacritics (é -> e), `none` keeps them
    #[arg(long, default_value = "none", value_name = "none|accents", value_parser = ["none", "accents"])]
    fold: String,
    /// Letters kept as they are when folding accents (e.g. ñ)
    #[arg(long, value_name = "LETTERS", requires = "fold")]
    keep: Option<String>,
    /// The index's name [default: the first word list's file stem]
    #[arg(long, value_name = "N")]
    name: Option<String>,
    /// Leave out the table of words by their ending (4 bytes a word; `find`
    /// patterns that start with `*` then read every word): for an index
    /// shipped to a reader that never asks them, as the web page
    #[arg(long)]
    no_endings: bool,
    /// Write the table of words grouped by their lowest letters (a copy of
    /// the words with no letter twice in a row, with their ids, from which
    /// Letter Boxed finds a box's words) [default: for 500,000 words or
    /// more]
    #[arg(long, conflicts_with = "no_letter_groups")]
    letter_groups: bool,
    /// Leave that table out (Letter Boxed then walks the words FST, which
    /// on a list of millions of words reads most of it)
    #[arg(long)]
    no_letter_groups: bool,
    /// Replace OUT even if it is a file that is not a wordhoard index
    #[arg(long)]
    force: bool,
}

/// Builds and publishes the index, then reports what it did.
pub fn run(ctx: &Context, args: Args) -> Result<()> {
    let started = Instant::now();
    crate::malloc::tune_allocator_for_build();
    let flags = BuildFlags {
        lists: args.wordlists.iter().map(|a| WordSource::from_arg(a)).collect(),
        name: args.name,
        common: args.common.as_deref().map(WordSource::from_arg),
        exclude: args.exclude.iter().map(|a| WordSource::from_arg(a)).collect(),
        alphabet: args.alphabet,
        fold: args.fold,
        keep: args.keep,
        proper_nouns: args.proper_nouns,
        endings: !args.no_endings,
        letter_groups: match (args.letter_groups, args.no_letter_groups) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
    };
    let opts = flags.options().map_err(flagged)?;
    // Where a named index goes is settled before the work, so a system
    // without a data folder fails at once.
    let out = match (args.output, &ctx.index) {
        (Some(out), _) => out,
        (None, None) => {
            let (out, created) = flags.in_index_folder().map_err(flagged)?;
            if let Some(folder) = created {
                eprintln!("Created the index folder {} (from {}).", folder.path.display(), folder.from);
            }
            out
        }
        (None, Some(_)) => ctx.index_path()?,
    };
    // Settled before reading a word: never an input, a device, a FIFO or
    // someone's file that is not an index.
    let out = check_output(&out, &flags.inputs(), args.force).map_err(flagged)?;
    crate::stop::partial_index(&out);
    let mut built = build_index(&flags.lists, &opts).map_err(flagged)?;
    let publish_started = Instant::now();
    // The page cache is left alone: dropping it saved 0.2 MB of a first
    // query's 6 MB and cost it 40 ms of reading back (README, Speed).
    write_atomically(&out, built.file, &PublishOptions::default()).map_err(flagged)?;
    built.report.phases.push(("publish", publish_started.elapsed().as_secs_f64()));
    let elapsed = started.elapsed();
    let r = &built.report;
    emit(ctx.json, || report_json(r, &out, elapsed.as_secs_f64()), |s| report_text(s, r, &out, elapsed.as_secs_f64()))
}

fn report_json(r: &BuildReport, out: &std::path::Path, secs: f64) -> serde_json::Value {
    let mut v = wordhoard_builder::report_json(r, out, secs);
    v["peak_rss_kb"] = json!(peak_rss_kb());
    v
}

fn report_text(s: &mut String, r: &BuildReport, out: &std::path::Path, secs: f64) {
    use std::fmt::Write;
    let _ = writeln!(s, "Built {} from {}", out.display(), r.sources.join(", "));
    let _ = writeln!(s, "  lines read      {:>12}", thousands(r.lines));
    let _ = writeln!(s, "  words kept      {:>12}", thousands(r.words));
    let _ = writeln!(s, "  duplicates      {:>12}", thousands(r.duplicates));
    let _ = writeln!(s, "  alphabet        {:>12}   {}", r.alphabet.chars().count(), alphabet_text(r));
    if let Some(p) = &r.proper_nouns {
        let why = if p.auto {
            format!("{} of {} words have no capital", percent(p.words - p.capitalised, p.words), thousands(p.words))
        } else {
            "--proper-nouns".into()
        };
        let (done, other) = if p.skipped { ("skipped as proper nouns", "keep") } else { ("kept as words", "skip") };
        let _ = writeln!(
            s,
            "  capitalised     {:>12}   {done} ({why}; --proper-nouns {other} to change)",
            thousands(p.capitalised)
        );
    }
    let k = &r.skipped;
    let _ = writeln!(s, "  lines skipped   {:>12}", thousands(k.total()));
    let e = &k.examples;
    let kinds = [
        ("not letters", k.not_in_alphabet - k.letter_outside_alphabet, &e.not_in_alphabet),
        ("other letters", k.letter_outside_alphabet, &e.letter_outside_alphabet),
        ("proper nouns", k.proper_noun, &e.proper_noun),
        ("empty", k.empty, &None),
        ("not UTF-8", k.not_utf8, &e.not_utf8),
        ("too long", k.too_long, &e.too_long),
    ];
    for (kind, count, example) in kinds.into_iter().filter(|(_, count, _)| *count > 0) {
        let example = example.as_ref().map_or(String::new(), |x| format!("   e.g. {}", shown(x)));
        let _ = writeln!(s, "    {kind:<13} {:>12}{example}", thousands(count));
    }
    if let Some(c) = &r.common {
        let _ = writeln!(
            s,
            "  common words    {:>12}   from {} ({} not in the list)",
            thousands(c.flagged),
            c.source,
            thousands(c.not_in_index)
        );
    }
    if let Some(e) = &r.excluded {
        let _ = writeln!(
            s,
            "  words excluded  {:>12}   by {} ({} listed)",
            thousands(e.removed),
            e.sources.join(", "),
            thousands(e.listed)
        );
    }
    let _ = writeln!(s, "  anagram terms   {:>12}", thousands(r.terms));
    let _ = writeln!(s, "Sections ({}):", r.sections.len());
    for (name, bytes) in &r.sections {
        let _ = writeln!(s, "  {name:<14}  {:>12} bytes", thousands(*bytes));
    }
    let _ = writeln!(s, "  {:<14}  {:>12} bytes", "file", thousands(r.bytes));
    if let Some(kb) = peak_rss_kb() {
        let _ = writeln!(s, "Peak memory {:.1} MB.", kb as f64 / 1024.0);
    }
    let phases: Vec<String> = r.phases.iter().map(|(n, t)| format!("{n} {:.1}", t * 1000.0)).collect();
    let _ = writeln!(s, "Took {:.1} ms ({}); {}.", secs * 1000.0, phases.join(", "), plural(r.words, "word"));
}

/// How the alphabet was chosen, in words.
fn alphabet_text(r: &BuildReport) -> String {
    let letters = shown(&r.alphabet);
    match r.alphabet_rule {
        AlphabetRule::Given => format!("{letters} (--alphabet)"),
        AlphabetRule::AllPlain => format!("{letters} (every word is plain a-z)"),
        AlphabetRule::MostlyPlain { plain, words } => {
            format!("{letters} ({} of {} words are plain a-z: 99% or more)", percent(plain, words), thousands(words))
        }
        AlphabetRule::LettersUsed { plain, words } => format!(
            "{letters} (every letter used: {} of {} words are plain a-z, under 99%)",
            percent(plain, words),
            thousands(words)
        ),
    }
}

/// `part` of `whole` as a percentage, one decimal, never rounded up to 100.
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".into();
    }
    let tenths = part * 1000 / whole;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

/// A build error, with what to type about it: the flags that fix it.
fn flagged(e: BuildError) -> anyhow::Error {
    let hint = match e.kind() {
        BuildErrorKind::Output { problem: OutputProblem::NotAnIndex, .. } => "; give --force to replace it".into(),
        BuildErrorKind::Output { problem: OutputProblem::IsFolder | OutputProblem::NotRegularFile, .. } => {
            "; give a file path with -o".into()
        }
        BuildErrorKind::Output { problem: OutputProblem::NoFolder(dir), .. } => {
            format!(" (mkdir -p {})", dir.display())
        }
        BuildErrorKind::Alphabet(_) => " (--fold accents, or --alphabet LETTERS)".into(),
        BuildErrorKind::InvalidInput { param, problem } => return super::usage(super::input_message(*param, problem)),
        _ => String::new(),
    };
    anyhow::anyhow!("{e}{hint}")
}

/// This process's peak resident memory, where the system says (Linux).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
