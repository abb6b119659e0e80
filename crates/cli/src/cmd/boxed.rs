//! `wordhoard boxed ...`: the NYT Letter Boxed.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;

use anyhow::{anyhow, Result};
use clap::Subcommand;
use wordhoard_query::boxed::{self, DEFAULT_MIN_LEN, MAX_WORDS_LIMIT};
use wordhoard_query::request::{self, BoxedCounts};

use super::{query_err, Context, Idx};
use crate::output::{pad, paint, plural, thousands, upper, visible_len, Paint};

/// `boxed`: a subcommand, or the sides of a box to solve.
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Examples: wordhoard boxed riu pgh lcs yao   (the same as `boxed solve riu pgh lcs yao`)\n\
                  \x20         wordhoard boxed riu-pgh-lcs-yao\n\
                  \x20         wordhoard boxed generate --seed 7"
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

/// The Letter Boxed commands.
#[derive(Subcommand)]
pub enum Command {
    /// Solutions with the fewest words, common words first
    #[command(after_help = "Example: wordhoard boxed solve riu pgh lcs yao\n\n\
        Order: fewest words, then fewest words not on the common list, then fewest letters, then a-z.\n\
        A solution ends on the word that uses the last letter of the box. Common words are marked +.")]
    Solve(SolveArgs),
    /// A random box with a solution of at most 2 words, reproducible by seed
    #[command(after_help = "Example: wordhoard boxed generate --seed 7 --common-only --answers")]
    Generate(GenerateArgs),
    /// Check the words you played, in order: a verdict each, the letters left, par
    #[command(after_help = "Example: wordhoard boxed check riu-pgh-lcs-yao gracious sharply\n\n\
        A word is accepted, or refused for the first of: too short, a letter not on the box, two letters\n\
        in a row from one side, not starting with the last letter of the word before, not in the word list.")]
    Check(CheckArgs),
}

/// Arguments of `boxed check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The box, one argument: `riu-pgh-lcs-yao`, `riu,pgh,lcs,yao`, "riu pgh lcs yao" or `riupghlcsyao`
    #[arg(value_name = "BOX")]
    sides: String,
    /// The words played, in order
    #[arg(value_name = "WORD")]
    words: Vec<String>,
    /// Sides of a box typed as one word (`riupghlcsyao`) [default: 4]
    #[arg(long = "sides", value_name = "N")]
    side_count: Option<usize>,
    /// Letters on each side of a box typed as one word
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Shortest playable word
    #[arg(long, default_value_t = DEFAULT_MIN_LEN, value_name = "L")]
    min_len: usize,
    /// Play only words of the common list the index was built with
    #[arg(long)]
    common_only: bool,
}

/// A box to solve.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The sides, each a group of distinct letters (the NYT uses 4 sides of 3);
    /// also `riu-pgh-lcs-yao`, `riu,pgh,lcs,yao`, `riu/pgh/lcs/yao`, one quoted "riu pgh lcs yao",
    /// or `riupghlcsyao` (cut by --sides or --size)
    #[arg(required = true, value_name = "SIDE")]
    sides: Vec<String>,
    /// Sides of a box typed as one word (`riupghlcsyao`) [default: 4]
    #[arg(long = "sides", value_name = "N")]
    side_count: Option<usize>,
    /// Letters on each side of a box typed as one word
    #[arg(long, value_name = "N")]
    size: Option<usize>,
    /// Most words in a solution
    #[arg(long, default_value_t = 2, value_name = "N")]
    max_words: usize,
    /// Shortest playable word
    #[arg(long, default_value_t = DEFAULT_MIN_LEN, value_name = "L")]
    min_len: usize,
    /// How many solutions to list (0: all); the count is always complete
    #[arg(long, default_value_t = 20, value_name = "K")]
    limit: usize,
    /// Play only words of the common list the index was built with
    #[arg(long)]
    common_only: bool,
    /// Stop at the fewest words that solve the box (up to --max-words): count and list only those
    #[arg(long)]
    fewest: bool,
}

/// Arguments of `boxed generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// The seed; the same seed and index give the same box [default: from the clock]
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Sides of the box
    #[arg(long, default_value_t = 4, value_name = "N")]
    sides: usize,
    /// Letters on each side
    #[arg(long, default_value_t = 3, value_name = "N")]
    size: usize,
    /// Play only words of the common list
    #[arg(long)]
    common_only: bool,
    /// Fewest solutions of 1 and 2 words
    #[arg(long, value_name = "A")]
    min_solutions: Option<u64>,
    /// Most solutions of 1 and 2 words
    #[arg(long, value_name = "B")]
    max_solutions: Option<u64>,
    /// Show the solutions too (text; JSON always has them)
    #[arg(long)]
    answers: bool,
    /// How many solutions to list with --answers (0: all)
    #[arg(long, default_value_t = 20, value_name = "K")]
    limit: usize,
}

/// Runs `boxed`: a subcommand, or `solve` on the sides given.
pub fn run(ctx: &Context, args: Args) -> Result<()> {
    match args.command {
        Some(Command::Solve(solve)) => run_solve(ctx, solve),
        Some(Command::Generate(generate)) => run_generate(ctx, generate),
        Some(Command::Check(check)) => run_check(ctx, check),
        None => run_solve(ctx, args.solve),
    }
}

/// Solutions whose widths set the text columns; later ones stream in them.
const ALIGNED: usize = 1000;

/// Solves a box: the counts first, then the solutions as the search finds
/// them, in order, in constant memory (`| head` stops it).
fn run_solve(ctx: &Context, args: SolveArgs) -> Result<()> {
    let SolveArgs { sides, side_count, size, max_words, min_len, limit, common_only, fewest } = args;
    let index = ctx.open()?;
    let q = request::BoxedSolve { sides, side_count, size, max_words, min_len, limit, common_only, fewest };
    let (counts, mut solver) = q.start(&index).map_err(query_err)?;
    let mark_common = index.has_common_list() && !common_only;
    let head = if ctx.json { json_head(&q, &counts) } else { text_head(&counts, mark_common) };
    let stdout = std::io::stdout();
    let terminal = stdout.is_terminal();
    if terminal {
        crate::stop::writing_to_terminal();
    }
    let mut out = Solutions {
        out: std::io::BufWriter::new(stdout.lock()),
        json: ctx.json,
        terminal,
        mark_common,
        listed: counts.listed,
        max_words,
        n: 0,
        pending: Vec::new(),
        widths: None,
        folded: serde_json::Map::new(),
        damaged: None,
    };
    out.out.write_all(head.as_bytes())?;
    let mut failed = None;
    let flow = solver
        .each_solution(|words| match out.write(&index, words) {
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
            Ok(()) if out.n == out.listed => ControlFlow::Break(()),
            Ok(()) => ControlFlow::Continue(()),
        })
        .map_err(query_err)?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    if let Some(e) = out.damaged.take() {
        return Err(query_err(e));
    }
    if flow.is_continue() && out.n != out.listed {
        return Err(anyhow!("the search listed {} solutions but counted {}; please report it", out.n, out.listed));
    }
    out.finish()
}

/// The request layer's JSON object up to its last key, `solutions`, whose
/// items stream after it: each key and value serialised on its own.
fn json_head(q: &request::BoxedSolve, counts: &BoxedCounts) -> String {
    let mut head = String::from("{");
    for (key, value) in q.summary(counts) {
        head.push_str(&format!("{}:{value},", serde_json::Value::String(key)));
    }
    head.push_str("\"solutions\":[");
    head
}

/// The box, its counts and, with no solution, the fewest words one takes.
fn text_head(counts: &BoxedCounts, mark_common: bool) -> String {
    let mut head = String::new();
    let legend = if mark_common { " (+ common word)" } else { "" };
    let summary = Summary {
        sides: &counts.letter_box.sides,
        playable: counts.playable,
        count: counts.count,
        by_words: &counts.counts,
        max_words: counts.max_words,
        listed: counts.listed,
        legend,
    };
    summary_text(&mut head, &summary);
    match counts.shortest {
        Some((words, n)) => {
            let _ = writeln!(head, "The shortest solutions take {}: {}.", plural(words as u64, "word"), thousands(n));
        }
        None if counts.count == 0 => {
            let _ = writeln!(head, "No solution of up to {MAX_WORDS_LIMIT} words was found.");
        }
        None => {}
    }
    head
}

/// Writes solutions as they come: JSON arrays, or numbered text rows whose
/// columns the first [`ALIGNED`] set.
struct Solutions<W: Write> {
    out: W,
    json: bool,
    terminal: bool,
    mark_common: bool,
    listed: u128,
    max_words: usize,
    /// Solutions written so far.
    n: u128,
    /// Text rows held until the columns are set.
    pending: Vec<Vec<String>>,
    widths: Option<Vec<usize>>,
    /// Words spelled otherwise in the lists (an index that folds accents).
    folded: serde_json::Map<String, serde_json::Value>,
    /// The first damage found while spelling words.
    damaged: Option<wordhoard_query::Error>,
}

impl<W: Write> Solutions<W> {
    fn write(&mut self, index: &Idx, words: &[boxed::Word<'_>]) -> std::io::Result<()> {
        self.n += 1;
        crate::stop::tick();
        let names = self.spelled(index, words);
        if self.json {
            let sep = if self.n == 1 { "" } else { "," };
            write!(self.out, "{sep}{}", serde_json::to_string(&names)?)?;
        } else {
            let names: Vec<String> = words
                .iter()
                .zip(names)
                .map(
                    |(w, name)| {
                        if self.mark_common && w.common {
                            paint(Paint::Common, format!("{name}+"))
                        } else {
                            name
                        }
                    },
                )
                .collect();
            match &self.widths {
                Some(widths) => write_row(&mut self.out, self.n, &names, widths)?,
                None => self.pending.push(names),
            }
            if self.widths.is_none() && (self.pending.len() == ALIGNED || self.n == self.listed) {
                let widths = column_widths(&self.pending, self.max_words);
                for (i, row) in self.pending.drain(..).enumerate() {
                    write_row(&mut self.out, i as u128 + 1, &row, &widths)?;
                }
                self.widths = Some(widths);
            }
        }
        if self.terminal {
            self.out.flush()?;
        }
        Ok(())
    }

    /// The words as the lists spelled them, noting each folded one.
    fn spelled(&mut self, index: &Idx, words: &[boxed::Word<'_>]) -> Vec<String> {
        words
            .iter()
            .map(|w| match index.spelling_of(w.word) {
                Ok(Some(spelled)) => {
                    self.folded.insert(spelled.clone(), serde_json::Value::String(w.word.to_string()));
                    spelled
                }
                Ok(None) => w.word.to_string(),
                Err(e) => {
                    self.damaged.get_or_insert(e);
                    w.word.to_string()
                }
            })
            .collect()
    }

    /// Closes the JSON object (with `folded` when a word was).
    fn finish(mut self) -> Result<()> {
        if self.json && self.folded.is_empty() {
            writeln!(self.out, "]}}")?;
        } else if self.json {
            writeln!(self.out, "],\"folded\":{}}}", serde_json::Value::Object(std::mem::take(&mut self.folded)))?;
        }
        self.out.flush()?;
        Ok(())
    }
}

/// Generates a box; the answers in text only with `--answers`.
fn run_generate(ctx: &Context, a: GenerateArgs) -> Result<()> {
    let index = ctx.open()?;
    let q = request::BoxedGenerate {
        seed: a.seed,
        sides: a.sides,
        size: a.size,
        common_only: a.common_only,
        min_solutions: a.min_solutions,
        max_solutions: a.max_solutions,
        limit: a.limit,
        answers: a.answers,
    };
    super::answer(ctx, &index, &q, |out, (seed, generated)| {
        let answer = &generated.answer;
        let _ = writeln!(out, "Puzzle for seed {seed} (again: wordhoard boxed generate --seed {seed} ...)\n");
        let listed = if q.answers { answer.solutions.len() as u128 } else { 0 };
        let summary = Summary {
            sides: &generated.letter_box.sides,
            playable: answer.playable,
            count: answer.count,
            by_words: &answer.by_words,
            max_words: 2,
            listed,
            legend: "",
        };
        summary_text(out, &summary);
        if q.answers {
            let widths = column_widths(&answer.solutions, 2);
            let mut rows = Vec::new();
            for (i, row) in answer.solutions.iter().enumerate() {
                let _ = write_row(&mut rows, i as u128 + 1, row, &widths);
            }
            out.push_str(&String::from_utf8_lossy(&rows));
        } else {
            let _ = writeln!(out, "\n(solutions hidden: add --answers to see them)");
        }
    })
}

/// Checks a play: a line a word, then where it leaves the player.
fn run_check(ctx: &Context, a: CheckArgs) -> Result<()> {
    let index = ctx.open()?;
    let q = request::BoxedCheck {
        sides: vec![a.sides],
        side_count: a.side_count,
        size: a.size,
        words: a.words,
        min_len: a.min_len,
        common_only: a.common_only,
    };
    super::answer(ctx, &index, &q, |out, (letter_box, play)| {
        draw_box(out, &letter_box.sides);
        let width = play.words.iter().map(|(w, _)| w.chars().count()).max().unwrap_or(0);
        if !play.words.is_empty() {
            let _ = writeln!(out);
        }
        let mut before: Option<&str> = None;
        for (word, verdict) in &play.words {
            let why = match verdict {
                boxed::Verdict::Ok => "ok".to_string(),
                boxed::Verdict::TooShort => format!("too short (at least {} letters)", q.min_len),
                boxed::Verdict::BadLetter => "a letter that is not on the box".into(),
                boxed::Verdict::SameSide { position } => {
                    format!("letters {} and {} are on one side", position - 1, position)
                }
                boxed::Verdict::WrongStart => format!(
                    "does not start with {}, the last letter of {}",
                    before.and_then(|b| b.chars().last()).map_or(String::new(), upper),
                    before.unwrap_or("").to_uppercase()
                ),
                boxed::Verdict::NotInList => "not in the word list".into(),
            };
            let (mark, look) = if *verdict == boxed::Verdict::Ok { ("+", Paint::Good) } else { ("-", Paint::Bad) };
            let _ = writeln!(out, "  {mark} {:<width$}  {}", word.to_uppercase(), paint(look, why));
            if *verdict == boxed::Verdict::Ok {
                before = Some(word);
            }
        }
        let par = play.par.map_or("none within 8 words".to_string(), |p| plural(p as u64, "word"));
        if play.solved() {
            let _ = writeln!(out, "\nSolved in {} (par {par}).", plural(play.played as u64, "word"));
        } else {
            let left: Vec<String> = play.left.chars().map(upper).collect();
            let _ = writeln!(
                out,
                "\n{} played; {} left: {}. Par {par}.",
                plural(play.played as u64, "word"),
                plural(left.len() as u64, "letter"),
                left.join(" ")
            );
            let from = before.map_or("to start".to_string(), |b| format!("from {}", b.to_uppercase()));
            let _ = writeln!(out, "{} would finish the box {from}.", plural(play.finishes, "word"));
        }
    })
}

/// What the text summary of a box shows.
struct Summary<'a> {
    sides: &'a [String],
    playable: usize,
    count: u128,
    by_words: &'a [u128],
    max_words: usize,
    /// Solutions about to be listed.
    listed: u128,
    /// Said after "Best N" (what marks mean).
    legend: &'a str,
}

fn summary_text(out: &mut String, summary: &Summary) {
    let Summary { sides, playable, count, by_words, max_words, listed, legend } = *summary;
    draw_box(out, sides);
    let _ = writeln!(
        out,
        "\n{} playable words; {} of at most {}",
        thousands(playable as u64),
        plural(count, "solution"),
        plural(max_words as u64, "word")
    );
    let breakdown: Vec<String> = by_words
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(i, n)| format!("{}: {}", plural(i as u64 + 1, "word"), thousands(*n)))
        .collect();
    if !breakdown.is_empty() {
        let _ = writeln!(out, "({})", breakdown.join(", "));
    }
    if listed > 0 {
        let shown = if listed == count { "All".to_string() } else { format!("Best {}", thousands(listed)) };
        let _ = writeln!(out, "\n{shown}{legend}:");
    }
}

/// Each word position's width over `rows`.
fn column_widths(rows: &[Vec<String>], max_words: usize) -> Vec<usize> {
    (0..max_words).map(|i| rows.iter().filter_map(|s| s.get(i)).map(|w| visible_len(w)).max().unwrap_or(0)).collect()
}

fn write_row(out: &mut impl Write, n: u128, row: &[String], widths: &[usize]) -> std::io::Result<()> {
    let cells: Vec<String> = row.iter().enumerate().map(|(i, w)| pad(w, widths.get(i).copied().unwrap_or(0))).collect();
    writeln!(out, "  {n:>3}. {}", cells.join("  ").trim_end())
}

/// Draws an NYT box when it has four sides; otherwise lists the sides.
fn draw_box(out: &mut String, sides: &[String]) {
    let up = |s: &str| s.chars().map(upper).collect::<Vec<_>>().join(" ");
    let width = |s: &String| s.chars().count();
    if sides.len() == 4 && sides.iter().all(|s| width(s) == width(&sides[0])) {
        let n = width(&sides[0]);
        let inner = 2 * n + 1;
        let _ = writeln!(out, "     {}", up(&sides[0]));
        let _ = writeln!(out, "   +{}+", "-".repeat(inner));
        let (left, right): (Vec<String>, Vec<String>) =
            (sides[3].chars().map(upper).collect(), sides[1].chars().map(upper).collect());
        for i in 0..n {
            let _ = writeln!(out, " {} |{}| {}", left[i], " ".repeat(inner), right[i]);
        }
        let _ = writeln!(out, "   +{}+", "-".repeat(inner));
        let _ = writeln!(out, "     {}", up(&sides[2]));
    } else {
        for (i, s) in sides.iter().enumerate() {
            let _ = writeln!(out, "  side {}: {}", i + 1, up(s));
        }
    }
}
