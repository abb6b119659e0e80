//! `wordhoard boxed ...`: the NYT Letter Boxed.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;

use anyhow::{anyhow, Result};
use clap::Subcommand;
use serde_json::json;
use wordhoard_query::boxed::{LetterBox, SolveOptions, Solver, DEFAULT_MIN_LEN};

use super::{query_err, Context};
use crate::output::{plural, thousands};

/// The Letter Boxed commands.
#[derive(Subcommand)]
pub enum Command {
    /// Solutions with the fewest words, common words first
    #[command(after_help = "Example: wordhoard boxed solve riu pgh lcs yao\n\n\
        Order: fewest words, then fewest words not on the common list, then fewest letters, then a-z.\n\
        A solution ends on the word that uses the last letter of the box.")]
    Solve {
        /// The sides, each a group of distinct letters (the NYT uses 4 sides of 3)
        #[arg(required = true, value_name = "SIDE")]
        sides: Vec<String>,
        /// Most words in a solution
        #[arg(long, default_value_t = 2, value_name = "N")]
        max_words: usize,
        /// Shortest playable word
        #[arg(long, default_value_t = DEFAULT_MIN_LEN, value_name = "L")]
        min_len: usize,
        /// How many solutions to list (0: all); the count is always complete
        #[arg(long, default_value_t = 20, value_name = "K")]
        limit: usize,
    },
}

/// Solutions whose widths set the text columns; later ones stream in them.
const ALIGNED: usize = 1000;

/// Runs a boxed command: the counts first, then the solutions as the
/// search finds them, in order, in constant memory (`| head` stops it).
pub fn run(ctx: &Context, command: Command) -> Result<()> {
    let Command::Solve { sides, max_words, min_len, limit } = command;
    let index = ctx.open()?;
    let letter_box = LetterBox::parse(index.alphabet(), &sides).map_err(query_err)?;
    let opts = SolveOptions { max_words, min_len, limit };
    let mut solver = Solver::new(&index, &letter_box, &opts).map_err(query_err)?;
    let by_words = solver.counts().map_err(query_err)?;
    let count = by_words
        .iter()
        .try_fold(0u128, |a, &b| a.checked_add(b))
        .ok_or_else(|| anyhow!("too many solutions to count"))?;
    let listed = if limit == 0 { count } else { count.min(limit as u128) };
    let stdout = std::io::stdout();
    let terminal = stdout.is_terminal();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut head = String::new();
    if ctx.json {
        // Keys in order, as every other command prints them; `solutions`
        // sorts last, so it can stream after the rest.
        let summary = json!({
            "sides": letter_box.sides,
            "playable": solver.playable().len(),
            // Exact at any size: JSON integers have no width.
            "count": count,
            "count_by_words": by_words.iter().enumerate().map(|(i, n)| ((i + 1).to_string(), *n)).collect::<std::collections::BTreeMap<_, _>>(),
            "min_words": by_words.iter().position(|&n| n > 0).map(|i| i + 1),
            "max_words": max_words,
        });
        let summary = serde_json::to_string(&summary)?;
        head.push_str(summary.strip_suffix('}').unwrap_or(&summary));
        head.push_str(",\"solutions\":[");
    } else {
        summary_text(&mut head, &letter_box.sides, solver.playable().len(), count, &by_words, max_words, listed);
    }
    if terminal {
        crate::stop::writing_to_terminal();
    }
    out.write_all(head.as_bytes())?;
    let mut pending: Vec<Vec<String>> = Vec::new();
    let mut widths: Option<Vec<usize>> = None;
    let (mut n, mut failed) = (0u128, None);
    let flow = solver
        .each_solution(|words| {
            n += 1;
            crate::stop::tick();
            let names: Vec<String> = words.iter().map(|w| w.word.clone()).collect();
            let written = if ctx.json {
                let sep = if n == 1 { "" } else { "," };
                serde_json::to_string(&names).map_err(std::io::Error::from).and_then(|s| write!(out, "{sep}{s}"))
            } else {
                match &widths {
                    Some(widths) => write_row(&mut out, n, &names, widths),
                    None => {
                        pending.push(names);
                        Ok(())
                    }
                }
            };
            let written = written.and_then(|()| {
                if !ctx.json && widths.is_none() && (pending.len() == ALIGNED || n == listed) {
                    let w = column_widths(&pending, max_words);
                    for (i, row) in pending.drain(..).enumerate() {
                        write_row(&mut out, i as u128 + 1, &row, &w)?;
                    }
                    widths = Some(w);
                }
                if terminal {
                    out.flush()
                } else {
                    Ok(())
                }
            });
            match written {
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
                Ok(()) if n == listed => ControlFlow::Break(()),
                Ok(()) => ControlFlow::Continue(()),
            }
        })
        .map_err(query_err)?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    if flow.is_continue() && n != listed {
        return Err(anyhow!("the search listed {n} solutions but counted {listed}; please report it"));
    }
    if ctx.json {
        writeln!(out, "]}}")?;
    }
    out.flush()?;
    Ok(())
}

fn summary_text(
    out: &mut String,
    sides: &[String],
    playable: usize,
    count: u128,
    by_words: &[u128],
    max_words: usize,
    listed: u128,
) {
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
        let _ = writeln!(out, "\n{shown}:");
    }
}

/// Each word position's width over `rows`.
fn column_widths(rows: &[Vec<String>], max_words: usize) -> Vec<usize> {
    (0..max_words).map(|i| rows.iter().filter_map(|s| s.get(i)).map(String::len).max().unwrap_or(0)).collect()
}

fn write_row(out: &mut impl Write, n: u128, row: &[String], widths: &[usize]) -> std::io::Result<()> {
    let cells: Vec<String> = row
        .iter()
        .enumerate()
        .map(|(i, w)| format!("{w:<width$}", width = widths.get(i).copied().unwrap_or(0)))
        .collect();
    writeln!(out, "  {n:>3}. {}", cells.join("  ").trim_end())
}

/// Draws an NYT box when it has four sides; otherwise lists the sides.
fn draw_box(out: &mut String, sides: &[String]) {
    let up = |s: &str| s.to_uppercase().chars().map(String::from).collect::<Vec<_>>().join(" ");
    if sides.len() == 4 && sides.iter().all(|s| s.len() == sides[0].len()) {
        let n = sides[0].len();
        let inner = 2 * n + 1;
        let _ = writeln!(out, "     {}", up(&sides[0]));
        let _ = writeln!(out, "   +{}+", "-".repeat(inner));
        let (left, right): (Vec<char>, Vec<char>) =
            (sides[3].to_uppercase().chars().collect(), sides[1].to_uppercase().chars().collect());
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
