//! `wordhoard bee ...`: the NYT Spelling Bee.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write;

use anyhow::Result;
use clap::Subcommand;
use wordhoard_query::bee::{self, Hints, HoneycombScore, ReportGroup, Solution, Stats};
use wordhoard_query::request::{self, BeeHints, BeeReport, BeeSolve, Honeycomb, Query};
use wordhoard_query::LetterSet;

use super::{answer, query_err, usage, Context, Idx};
use crate::output::emit;
use crate::output::{columns, paint, plural, thousands, upper, width, Paint};

/// The Spelling Bee commands.
#[derive(Subcommand)]
pub enum Command {
    /// Every word of a honeycomb, with scores and pangrams
    #[command(after_help = "Example: wordhoard bee solve aeginrt r   (or: bee solve raeginT, the centre first)")]
    Solve {
        #[command(flatten)]
        honeycomb: HoneycombArgs,
        /// Count only words of the common list the index was built with
        #[arg(long)]
        common_only: bool,
    },
    /// Words grouped by letter set, pangrams first (Norvig's report)
    #[command(after_help = "Example: wordhoard bee report aeginrt --center r")]
    Report {
        #[command(flatten)]
        honeycomb: HoneycombArgs,
        /// Count only words of the common list the index was built with
        #[arg(long)]
        common_only: bool,
    },
    /// The highest-scoring honeycombs
    #[command(after_help = "Example: wordhoard bee best --top 5 --exclude ''")]
    Best {
        /// How many to list (0: all)
        #[arg(long, default_value_t = 10, value_name = "N")]
        top: usize,
        /// Letters no honeycomb may have ('' allows all) [default: s on an a-z index, none elsewhere]
        #[arg(long, value_name = "LETTERS")]
        exclude: Option<String>,
        /// Score only words of the common list (a honeycomb needs a common pangram)
        #[arg(long)]
        common_only: bool,
    },
    /// Counts of valid words, pangrams and candidate honeycombs
    #[command(after_help = "Example: wordhoard bee stats")]
    Stats {
        /// Letters no honeycomb may have ('' allows all) [default: s on an a-z index, none elsewhere]
        #[arg(long, value_name = "LETTERS")]
        exclude: Option<String>,
    },
    /// A random valid puzzle (it has a pangram), reproducible by seed
    #[command(after_help = "Example: wordhoard bee generate --seed 7 --min-score 100 --max-score 300")]
    Generate(GenerateArgs),
    /// Check guesses: a verdict each, the score and rank reached, hints for what is left
    #[command(after_help = "Example: wordhoard bee check aeginrt r granite tearing rain   (r: the centre)\n\
                            \x20        wordhoard bee check aeginrt --center r --found found.txt   (one word a line; - reads stdin)\n\n\
                            A guess is accepted, or rejected for the first of: too short, a letter not in the\n\
                            honeycomb, missing the centre, not in the word list, found already. Punctuation\n\
                            around a guess (`lucid,`) is not part of it.")]
    Check {
        #[command(flatten)]
        honeycomb: HoneycombArgs,
        /// Guesses, in order
        #[arg(value_name = "WORD")]
        words: Vec<String>,
        /// Words found so far, one a line (or separated by spaces); `-` reads stdin. Checked before WORD...;
        /// the WORDs accepted are added to the end of FILE
        #[arg(long, value_name = "FILE")]
        found: Option<String>,
        /// Count only words of the common list the index was built with
        #[arg(long)]
        common_only: bool,
    },
    /// NYT-style hints: grid, two-letter list, pangrams, ranks
    #[command(after_help = "Example: wordhoard bee hints aeginrt --center r")]
    Hints {
        #[command(flatten)]
        honeycomb: HoneycombArgs,
        /// Count only words of the common list the index was built with
        #[arg(long)]
        common_only: bool,
    },
}

/// A honeycomb as typed.
#[derive(clap::Args)]
pub struct HoneycombArgs {
    /// The honeycomb's distinct letters (the NYT uses 7)
    letters: String,
    /// The centre letter, as a second argument (`aeginrt r`) or with --center [default: the first letter given]
    #[arg(value_name = "CENTER")]
    center_arg: Option<String>,
    /// The centre letter [default: the first letter given]
    #[arg(long, short = 'c', alias = "centre", value_name = "C")]
    center: Option<String>,
}

/// Arguments of `bee generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// The seed; the same seed and index give the same puzzle [default: from the clock]
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Letters the honeycomb may not have ('' allows all) [default: s on an a-z index, none elsewhere]
    #[arg(long, value_name = "LETTERS")]
    exclude: Option<String>,
    /// Lowest total score
    #[arg(long, value_name = "A")]
    min_score: Option<u32>,
    /// Highest total score
    #[arg(long, value_name = "B")]
    max_score: Option<u32>,
    /// Fewest words
    #[arg(long, value_name = "A")]
    min_words: Option<u32>,
    /// Most words
    #[arg(long, value_name = "B")]
    max_words: Option<u32>,
    /// Count only words of the common list
    #[arg(long)]
    common_only: bool,
    /// Show the answers too (text; JSON always has them)
    #[arg(long)]
    answers: bool,
}

/// Runs a bee command.
pub fn run(ctx: &Context, command: Command) -> Result<()> {
    let index = ctx.open()?;
    let index = &index;
    match command {
        Command::Solve { honeycomb, common_only } => {
            let q = BeeSolve(honeycomb.request(index, common_only)?);
            answer(ctx, index, &q, solution_text)
        }
        Command::Report { honeycomb, common_only } => {
            let q = BeeReport(honeycomb.request(index, common_only)?);
            answer(ctx, index, &q, |out, (solution, groups)| report_text(out, index, solution, groups))
        }
        Command::Best { top, exclude, common_only } => {
            let q = request::BeeBest { top, exclude, common_only };
            answer(ctx, index, &q, |out, (excluded, combs)| best_text(out, index, *excluded, combs))
        }
        Command::Stats { exclude } => {
            let q = request::BeeStats { exclude };
            answer(ctx, index, &q, |out, (excluded, st)| stats_text(out, index, *excluded, st))
        }
        Command::Generate(a) => {
            let q = request::BeeGenerate {
                seed: a.seed,
                exclude: a.exclude,
                min_score: a.min_score,
                max_score: a.max_score,
                min_words: a.min_words,
                max_words: a.max_words,
                common_only: a.common_only,
                answers: a.answers,
            };
            answer(ctx, index, &q, |out, (seed, solution)| {
                let _ = writeln!(out, "Puzzle for seed {seed} (again: wordhoard bee generate --seed {seed} ...)\n");
                if q.answers {
                    solution_text(out, solution);
                } else {
                    puzzle_text(out, solution);
                }
            })
        }
        Command::Check { honeycomb, words, found, common_only } => {
            run_check(ctx, index, honeycomb, words, found, common_only)
        }
        Command::Hints { honeycomb, common_only } => {
            let q = BeeHints(honeycomb.request(index, common_only)?);
            answer(ctx, index, &q, hints_text)
        }
    }
}

/// `bee check`: the guesses judged in order, the accepted ones added to
/// `--found FILE`.
fn run_check(
    ctx: &Context,
    index: &Idx,
    mut honeycomb: HoneycombArgs,
    mut words: Vec<String>,
    found: Option<String>,
    common_only: bool,
) -> Result<()> {
    // After the letters, one letter is the centre (no guess is one
    // letter long); anything else is the first guess.
    if let Some(arg) = honeycomb.center_arg.take_if(|a| a.chars().count() != 1 || honeycomb.center.is_some()) {
        words.insert(0, arg);
    }
    let comb = honeycomb.request(index, common_only)?;
    let found_words = found.as_deref().map(read_found).transpose()?.unwrap_or_default();
    let before = found_words.len();
    let q = request::BeeCheck { letters: comb.letters, center: comb.center, words, found: found_words, common_only };
    let progress = q.run(index).map_err(query_err)?;
    // Keep your words in a file as you go: the guesses accepted now
    // are added to the end of --found FILE.
    if let Some(path) = found.as_deref().filter(|p| *p != "-") {
        let new: Vec<&str> =
            progress.guesses[before..].iter().filter(|v| v.reason.is_none()).map(|v| v.word.as_str()).collect();
        append_found(path, &new)?;
    }
    if ctx.json {
        let json = request::answer_json(&q, index, &progress).map_err(query_err)?;
        return emit(true, || json, |_| {});
    }
    let spelled = super::spellings_in(&request::answer_json(&q, index, &progress).map_err(query_err)?);
    emit(false, serde_json::Value::default, |out| {
        let mut plain = String::new();
        progress_text(&mut plain, &progress);
        out.push_str(&super::respell_text(&plain, &spelled));
    })
}

/// Excluded letters as a reader says them: `E, S`.
fn spelled(index: &Idx, letters: LetterSet) -> String {
    index.alphabet().letters_of(letters).chars().map(upper).collect::<Vec<_>>().join(", ")
}

impl HoneycombArgs {
    /// The honeycomb as the request layer takes it, with a notice on
    /// stderr (not an error) when the centre was taken by default, and
    /// when it is not the NYT's 7 letters.
    fn request(self, index: &Idx, common_only: bool) -> Result<Honeycomb> {
        let center = match (self.center, self.center_arg) {
            (Some(flag), Some(arg)) if flag.to_lowercase() != arg.to_lowercase() => {
                return Err(usage(format!("the centre is given twice: {arg} and --center {flag}")));
            }
            (flag, arg) => flag.or(arg),
        };
        let comb = Honeycomb { letters: self.letters, center, common_only };
        let puzzle = comb.puzzle(index).map_err(query_err)?;
        let letters = puzzle.letters.len();
        if letters != bee::HONEYCOMB_LETTERS {
            eprintln!(
                "note: {} in this honeycomb; the NYT's have {}",
                plural(letters as u64, "letter"),
                bee::HONEYCOMB_LETTERS
            );
        }
        if comb.center.is_none() {
            let center = index.alphabet().char_at(puzzle.center);
            eprintln!("note: centre {}, the first letter given (--center picks another)", upper(center));
        }
        Ok(comb)
    }
}

/// Draws a 7-letter honeycomb with its centre in brackets; other sizes as a row.
fn honeycomb_picture(out: &mut String, letters: &str, center: char) {
    let up = upper;
    let outer: Vec<String> = letters.chars().filter(|&c| c != center).map(up).collect();
    if outer.len() == 6 {
        let _ = writeln!(out, "       {}   {}", outer[0], outer[1]);
        let _ = writeln!(out, "     {}  {}  {}", outer[2], paint(Paint::Center, format!("[{}]", up(center))), outer[3]);
        let _ = writeln!(out, "       {}   {}", outer[4], outer[5]);
    } else {
        let row: Vec<String> = letters
            .chars()
            .map(|c| if c == center { paint(Paint::Center, format!("[{}]", up(c))) } else { up(c) })
            .collect();
        let _ = writeln!(out, "     {}", row.join(" "));
    }
}

/// The honeycomb drawn, and its totals.
fn solution_heading(out: &mut String, s: &Solution) {
    honeycomb_picture(out, &s.letters, s.center);
    let _ = writeln!(
        out,
        "\n{}, centre {}: {}, {}, {}",
        s.letters.to_uppercase(),
        upper(s.center),
        plural(s.words.len() as u64, "word"),
        plural(s.score, "point"),
        plural(s.pangrams, "pangram")
    );
    if let Some(problem) = s.problem() {
        let _ = writeln!(out, "{}", problem.message());
    }
}

fn solution_text(out: &mut String, s: &Solution) {
    solution_heading(out, s);
    let pangrams: Vec<String> = s
        .words
        .iter()
        .filter(|w| w.pangram)
        .map(|w| paint(Paint::Pangram, format!("{} ({})", w.word, w.score)))
        .collect();
    if !pangrams.is_empty() {
        let _ = writeln!(out, "\nPangrams");
        columns(out, &pangrams, 2, width());
    }
    // `+` (and colour) marks common words, unless every word is (--common-only).
    let mark_common = s.words.iter().any(|w| !w.common);
    let plus = |w: &bee::Scored| if mark_common && w.common { "+" } else { "" };
    // The words by length (a-z within each), each length counted once.
    let mut by_len: BTreeMap<usize, Vec<bee::Scored>> = BTreeMap::new();
    for w in &s.words {
        by_len.entry(w.word.chars().count()).or_default().push(w);
    }
    for (&len, group) in by_len.range(bee::MIN_WORD_LEN..) {
        // A word with no mark is borrowed, not copied: most of them.
        let words: Vec<Cow<str>> = group
            .iter()
            .map(|w| match (w.pangram, w.common) {
                (true, _) => Cow::Owned(paint(Paint::Pangram, marked(w.word, &["*", plus(w)]))),
                (false, true) if mark_common => Cow::Owned(paint(Paint::Common, marked(w.word, &["+"]))),
                _ => Cow::Borrowed(w.word),
            })
            .collect();
        let points: u32 = group.iter().map(|w| w.score).sum();
        let _ = writeln!(out, "\n{len} letters: {}, {}", plural(words.len() as u64, "word"), plural(points, "point"));
        columns(out, &words, 2, width());
    }
    let mut legend = Vec::new();
    if s.words.iter().any(|w| w.pangram) {
        legend.push(format!("* pangram (+{} points)", bee::PANGRAM_BONUS));
    }
    if s.words.iter().any(|w| mark_common && w.common) {
        legend.push("+ common word".to_string());
    }
    if !legend.is_empty() {
        let _ = writeln!(out, "\n{}", legend.join("; "));
    }
}

/// `word` and its marks, as one string built in place (a `format!` a
/// word cost a bee solve's text a tenth of its process's instructions).
fn marked(word: &str, marks: &[&str]) -> String {
    let mut text = String::with_capacity(word.len() + 2);
    text.push_str(word);
    marks.iter().for_each(|m| text.push_str(m));
    text
}

/// A generated honeycomb without its answers: the letters, the totals and
/// the points each rank needs.
fn puzzle_text(out: &mut String, s: &Solution) {
    solution_heading(out, s);
    let ranks: Vec<String> = bee::ranks(s.score).iter().map(|r| format!("{} {}", r.name, thousands(r.score))).collect();
    let _ = writeln!(out, "Ranks: {}", ranks.join(", "));
    let _ = writeln!(out, "\n(answers hidden: add --answers to see them, or check guesses with `bee check`)");
}

fn report_text(out: &mut String, index: &Idx, solution: &Solution, groups: &[ReportGroup]) {
    let _ = writeln!(out, "For this list of {}:", plural(index.word_count() as u64, "word"));
    let _ = writeln!(
        out,
        "The honeycomb {} (centre {}) forms {} for {}.",
        solution.letters.to_uppercase(),
        upper(solution.center),
        plural(solution.words.len() as u64, "word"),
        plural(solution.score, "point")
    );
    let _ = writeln!(out, "Here are the words formed by each subset, with pangrams first:");
    for g in groups {
        let _ = writeln!(
            out,
            "\n{} forms {} for {}:",
            g.letters.to_uppercase(),
            plural(g.words.len() as u64, "word"),
            plural(g.score, "point")
        );
        let items: Vec<String> = g.words.iter().map(|w| format!("{}({})", w.word, w.score)).collect();
        fill(out, &items, width());
    }
}

/// Fills words into lines like Python's textwrap.fill, one-space indent.
fn fill(out: &mut String, items: &[String], width: usize) {
    let mut line = String::new();
    for item in items {
        if !line.is_empty() && line.len() + 1 + item.len() > width {
            let _ = writeln!(out, "{line}");
            line.clear();
        }
        line.push(' ');
        line.push_str(item);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{line}");
    }
}

fn best_text(out: &mut String, index: &Idx, excluded: LetterSet, combs: &[HoneycombScore]) {
    let without =
        if excluded.is_empty() { "any letters".to_string() } else { format!("without {}", spelled(index, excluded)) };
    let _ = writeln!(out, "Best honeycombs ({without}):");
    // Columns as wide as their widest value (an index's numbers can be
    // large), and never narrower than their heading.
    let rows: Vec<[String; 6]> = combs
        .iter()
        .enumerate()
        .map(|(i, h)| {
            [
                thousands(i as u64 + 1),
                h.letters.to_uppercase(),
                upper(h.center).to_string(),
                thousands(h.score),
                thousands(h.count),
                thousands(h.pangrams),
            ]
        })
        .collect();
    let head = ["rank", "letters", "centre", "score", "words", "pangrams"].map(String::from);
    let least = [4, 8, 6, 7, 6, 9];
    let w: Vec<usize> =
        (0..6).map(|c| rows.iter().chain([&head]).map(|r| r[c].chars().count()).fold(least[c], usize::max)).collect();
    for r in std::iter::once(&head).chain(&rows) {
        let _ = writeln!(
            out,
            "  {:>w0$}  {:<w1$} {:<w2$} {:>w3$} {:>w4$} {:>w5$}",
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            r[5],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3],
            w4 = w[4],
            w5 = w[5]
        );
    }
}

fn stats_text(out: &mut String, index: &Idx, excluded: LetterSet, st: &Stats) {
    let without = if excluded.is_empty() { String::new() } else { format!(", without {}", spelled(index, excluded)) };
    let rows = [
        ("words", st.words),
        (
            &*format!("valid (>= {} letters, <= {} distinct{without})", bee::MIN_WORD_LEN, bee::HONEYCOMB_LETTERS),
            st.valid,
        ),
        ("pangram words", st.pangram_words),
        ("pangram letter sets", st.pangram_lettersets),
        ("candidate honeycombs", st.candidate_honeycombs),
    ];
    let label = rows.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0);
    for (k, v) in rows {
        let _ = writeln!(out, "{k:<label$}  {:>9}", thousands(v));
    }
}

/// The NYT's hint grid (counts by first letter and length, with totals)
/// and two-letter list.
fn grid_text(
    out: &mut String,
    grid: &std::collections::BTreeMap<char, std::collections::BTreeMap<usize, u32>>,
    two_letter: &std::collections::BTreeMap<String, u32>,
    total: usize,
) {
    let lens: Vec<usize> = {
        let mut l: Vec<usize> = grid.values().flat_map(|r| r.keys().copied()).collect();
        l.sort_unstable();
        l.dedup();
        l
    };
    let _ = write!(out, "\n    ");
    for l in &lens {
        let _ = write!(out, "{l:>4}");
    }
    let _ = writeln!(out, "{:>5}", "Σ");
    for (c, row) in grid {
        let _ = write!(out, "{}:  ", upper(*c));
        for l in &lens {
            let n = row.get(l).copied().unwrap_or(0);
            let _ = write!(out, "{:>4}", if n == 0 { "-".to_string() } else { n.to_string() });
        }
        let _ = writeln!(out, "{:>5}", row.values().sum::<u32>());
    }
    let _ = write!(out, "Σ:  ");
    for l in &lens {
        let _ = write!(out, "{:>4}", grid.values().filter_map(|r| r.get(l)).sum::<u32>());
    }
    let _ = writeln!(out, "{:>5}", total);
    let _ = writeln!(out, "\nTwo letter list:");
    let pairs: Vec<String> = two_letter.iter().map(|(k, n)| format!("{}-{n}", k.to_uppercase())).collect();
    columns(out, &pairs, 2, width());
}

/// The words of a `--found` file (or stdin): whitespace-separated.
fn read_found(path: &str) -> Result<Vec<String>> {
    use anyhow::Context as _;
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin().lock()).context("cannot read the found words from stdin")?
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read the found words from {path}"))?
    };
    Ok(text.split_whitespace().map(str::to_string).collect())
}

/// Adds `words` to the end of the found-words file, one a line; what the
/// file holds is never rewritten.
fn append_found(path: &str, words: &[&str]) -> Result<()> {
    use anyhow::Context as _;
    use std::io::Write as _;
    if words.is_empty() {
        return Ok(());
    }
    let ends_open = std::fs::read(path).is_ok_and(|b| !b.is_empty() && !b.ends_with(b"\n"));
    let mut text = if ends_open { "\n".to_string() } else { String::new() };
    for w in words {
        text.push_str(w);
        text.push('\n');
    }
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .with_context(|| format!("cannot add the words found to {path}"))
}

fn progress_text(out: &mut String, p: &bee::Progress) {
    honeycomb_picture(out, &p.letters, p.center);
    if !p.guesses.is_empty() {
        let _ = writeln!(out);
        let width = p.guesses.iter().map(|v| v.word.chars().count()).max().unwrap_or(0);
        for v in &p.guesses {
            let verdict = match v.reason {
                None => format!("{}{}", plural(v.score, "point"), if v.pangram { ", pangram!" } else { "" }),
                Some(bee::Reason::TooShort) => "too short".into(),
                Some(bee::Reason::MissingCenter) => {
                    format!("missing the centre letter {}", upper(p.center))
                }
                Some(bee::Reason::BadLetter) => "bad letters".into(),
                Some(bee::Reason::NotInList) => "not in the word list".into(),
                Some(bee::Reason::Repeat) => "already found".into(),
            };
            let (mark, paint_as) = if v.reason.is_none() { ("+", Paint::Good) } else { ("-", Paint::Bad) };
            let verdict = if v.pangram { paint(Paint::Pangram, verdict) } else { paint(paint_as, verdict) };
            let _ = writeln!(out, "  {mark} {:<width$}  {verdict}", v.word.to_uppercase());
        }
    }
    match p.problem() {
        Some(bee::Problem::NoWords) => {
            let _ = writeln!(out, "\n{}", bee::Problem::NoWords.message());
            return;
        }
        Some(problem) => {
            let _ = writeln!(out, "\n{}", problem.message());
        }
        None => {}
    }
    let _ = writeln!(
        out,
        "\nFound {} for {}: {} ({}).",
        plural(p.found_count as u64, "word"),
        plural(p.found_score, "point"),
        paint(Paint::Rank, p.rank.name),
        thousands(p.rank.score)
    );
    match &p.next {
        Some(next) => {
            let _ = writeln!(out, "{} to {}.", plural(next.score - p.found_score, "point"), next.name);
        }
        None => {
            let _ = writeln!(out, "Every word found.");
        }
    }
    let _ = writeln!(out, "Genius at {}, Queen Bee at {}.", thousands(p.genius), thousands(p.queen_bee));
    if p.left.count > 0 {
        let _ = writeln!(
            out,
            "\nLEFT: {}, {}, {}",
            plural(p.left.count as u64, "word"),
            plural(p.left.score, "point"),
            plural(p.left.pangrams, "pangram")
        );
        grid_text(out, &p.left.grid, &p.left.two_letter, p.left.count as usize);
    }
}

fn hints_text(out: &mut String, h: &Hints) {
    let s = &h.solution;
    honeycomb_picture(out, &s.letters, s.center);
    let _ = writeln!(
        out,
        "\nWORDS: {}, POINTS: {}, PANGRAMS: {} ({} perfect){}",
        s.words.len(),
        s.score,
        s.pangrams,
        h.perfect_pangrams,
        if h.bingo { ", BINGO" } else { "" }
    );
    if let Some(problem) = s.problem() {
        let _ = writeln!(out, "{}", problem.message());
        if problem == bee::Problem::NoWords {
            return;
        }
    }
    grid_text(out, &h.grid, &h.two_letter, s.words.len());
    let _ = writeln!(out, "\nRanks:");
    for r in &h.ranks {
        let _ = writeln!(out, "  {} {:>6}", paint(Paint::Rank, format!("{:<11}", r.name)), thousands(r.score));
    }
}
