//! `wordhoard build`: word lists in, index file out.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context as _, Result};
use serde_json::json;
use wordhoard_builder::{
    build_index, check_output, write_atomically, AlphabetChoice, BuildError, BuildErrorKind, BuildOptions, BuildReport,
    OutputProblem, PublishOptions, WordSource,
};
use wordhoard_query::alphabet::Folding;
use wordhoard_query::Alphabet;

use super::Context;
use crate::locate::{self, IndexFolder};
use crate::output::{emit, plural, thousands};

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
    /// The letters: `auto` (a-z for lists that are ASCII, else the letters they use) or the letters themselves
    #[arg(long, default_value = "auto", value_name = "auto|LETTERS")]
    alphabet: String,
    /// Fold words before their letters are taken: `accents` strips diacritics (é -> e), `none` keeps them
    #[arg(long, default_value = "none", value_name = "none|accents", value_parser = ["none", "accents"])]
    fold: String,
    /// Letters kept as they are when folding accents (e.g. ñ)
    #[arg(long, value_name = "LETTERS", requires = "fold")]
    keep: Option<String>,
    /// The index's name [default: the first word list's file stem]
    #[arg(long, value_name = "N")]
    name: Option<String>,
    /// Replace OUT even if it is a file that is not a wordhoard index
    #[arg(long)]
    force: bool,
}

/// Builds and publishes the index, then reports what it did.
pub fn run(ctx: &Context, args: Args) -> Result<()> {
    let started = Instant::now();
    crate::malloc::tune_allocator_for_build();
    let sources: Vec<WordSource> = args.wordlists.iter().map(|a| WordSource::from_arg(a)).collect();
    if args.wordlists.iter().chain(&args.common).chain(&args.exclude).filter(|a| *a == "-").count() > 1 {
        return Err(super::usage("`-` (stdin) can be given only once"));
    }
    let folding = Folding {
        accents: args.fold == "accents",
        keep: args.keep.as_deref().map_or(String::new(), |k| Folding::default().normalise(k)),
    };
    if !folding.accents && !folding.keep.is_empty() {
        return Err(super::usage("--keep names letters that --fold accents would strip; give --fold accents too"));
    }
    let alphabet = if args.alphabet == "auto" {
        AlphabetChoice::Auto(folding)
    } else {
        let mut letters: Vec<char> = folding.normalise(&args.alphabet).chars().collect();
        letters.sort_unstable();
        letters.dedup();
        let letters: String = letters.into_iter().collect();
        AlphabetChoice::Fixed(Box::new(
            Alphabet::with_folding(&letters, folding)
                .map_err(|e| super::usage(format!("--alphabet {:?}: {e}", args.alphabet)))?,
        ))
    };
    let opts = BuildOptions {
        alphabet,
        name: args.name,
        common: args.common.as_deref().map(WordSource::from_arg),
        exclude: args.exclude.iter().map(|a| WordSource::from_arg(a)).collect(),
        ..Default::default()
    };
    // Where a named index goes is settled before the work, so a system
    // without a data folder fails at once.
    let folder = match (&args.output, &ctx.index) {
        (None, None) => Some(IndexFolder::find()?),
        _ => None,
    };
    let out = match (args.output, &folder) {
        (Some(out), _) => out,
        (None, Some(folder)) => in_index_folder(folder, opts.name.as_deref(), &sources[0])?,
        (None, None) => ctx.index_path()?,
    };
    // Settled before reading a word: never an input, a device, a FIFO or
    // someone's file that is not an index.
    let inputs: Vec<PathBuf> = args
        .wordlists
        .iter()
        .chain(&args.common)
        .chain(&args.exclude)
        .filter(|a| *a != "-")
        .map(PathBuf::from)
        .collect();
    let out = check_output(&out, &inputs, args.force).map_err(flagged)?;
    crate::stop::partial_index(&out);
    let mut built = build_index(&sources, &opts).map_err(flagged)?;
    let publish_started = Instant::now();
    // The page cache is left alone: dropping it saved 0.2 MB of a first
    // query's 6 MB and cost it 40 ms of reading back (README, Speed).
    write_atomically(&out, &built.file, &PublishOptions::default()).map_err(flagged)?;
    built.report.phases.push(("publish", publish_started.elapsed().as_secs_f64()));
    let elapsed = started.elapsed();
    let r = &built.report;
    emit(ctx.json, || report_json(r, &out, elapsed.as_secs_f64()), |s| report_text(s, r, &out, elapsed.as_secs_f64()))
}

fn report_json(r: &BuildReport, out: &std::path::Path, secs: f64) -> serde_json::Value {
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
        "peak_rss_kb": peak_rss_kb(),
        "phases": r.phases.iter().map(|(n, t)| (n.to_string(), *t)).collect::<std::collections::BTreeMap<_, _>>(),
    })
}

fn report_text(s: &mut String, r: &BuildReport, out: &std::path::Path, secs: f64) {
    use std::fmt::Write;
    let _ = writeln!(s, "Built {} from {}", out.display(), r.sources.join(", "));
    let _ = writeln!(s, "  lines read      {:>12}", thousands(r.lines));
    let _ = writeln!(s, "  words kept      {:>12}", thousands(r.words));
    let _ = writeln!(s, "  duplicates      {:>12}", thousands(r.duplicates));
    let k = &r.skipped;
    let _ = writeln!(
        s,
        "  lines skipped   {:>12}   (empty {}, other characters {}, not UTF-8 {}, too long {})",
        thousands(k.total()),
        thousands(k.empty),
        thousands(k.not_in_alphabet),
        thousands(k.not_utf8),
        thousands(k.too_long)
    );
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
        _ => String::new(),
    };
    anyhow::anyhow!("{e}{hint}")
}

/// `NAME.hoard` in the index folder (NAME from --name or the first list),
/// which is made, and said so, if it is missing.
fn in_index_folder(folder: &IndexFolder, name: Option<&str>, first: &WordSource) -> Result<PathBuf> {
    let name = name.map_or_else(|| wordhoard_builder::default_name(first), str::to_string);
    if !locate::is_name(&name) {
        return Err(super::usage(format!(
            "`{name}` cannot name an index file in the index folder; give --name NAME (no `/`, no `.hoard`) or -o PATH"
        )));
    }
    if !folder.path.is_dir() {
        std::fs::create_dir_all(&folder.path).with_context(|| {
            format!("cannot create the index folder {} (from {})", folder.path.display(), folder.from)
        })?;
        eprintln!("Created the index folder {} (from {}).", folder.path.display(), folder.from);
    }
    Ok(folder.index(&name))
}

/// This process's peak resident memory, where the system says (Linux).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
