//! `wordhoard boxed ...`: the NYT Letter Boxed.

use std::fmt::Write;

use anyhow::Result;
use clap::Subcommand;
use serde_json::json;
use wordhoard_query::boxed::{self, LetterBox, SolveOptions, DEFAULT_MIN_LEN};

use super::{query_err, Context};
use crate::output::{emit, plural, thousands};

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

/// Runs a boxed command.
pub fn run(ctx: &Context, command: Command) -> Result<()> {
    let Command::Solve { sides, max_words, min_len, limit } = command;
    let index = ctx.open()?;
    let letter_box = LetterBox::parse(index.alphabet(), &sides).map_err(query_err)?;
    let answer = boxed::solve(&index, &letter_box, &SolveOptions { max_words, min_len, limit }).map_err(query_err)?;
    let json = || {
        json!({
            "sides": letter_box.sides,
            "playable": answer.playable,
            "count": answer.count as u64,
            "count_by_words": answer.by_words.iter().enumerate().map(|(i, n)| ((i + 1).to_string(), *n as u64)).collect::<std::collections::BTreeMap<_, _>>(),
            "min_words": answer.min_words,
            "max_words": max_words,
            "solutions": answer.solutions,
        })
    };
    emit(ctx.json, json, |out| {
        draw_box(out, &letter_box.sides);
        let _ = writeln!(
            out,
            "\n{} playable words; {} of at most {}",
            thousands(answer.playable as u64),
            plural(answer.count, "solution"),
            plural(max_words as u64, "word")
        );
        let breakdown: Vec<String> = answer
            .by_words
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(i, n)| format!("{}: {}", plural(i as u64 + 1, "word"), thousands(*n)))
            .collect();
        if !breakdown.is_empty() {
            let _ = writeln!(out, "({})", breakdown.join(", "));
        }
        if !answer.solutions.is_empty() {
            let shown = if answer.solutions.len() as u128 == answer.count {
                "All".to_string()
            } else {
                format!("Best {}", answer.solutions.len())
            };
            let _ = writeln!(out, "\n{shown}:");
            let widths: Vec<usize> = (0..max_words)
                .map(|i| answer.solutions.iter().filter_map(|s| s.get(i)).map(String::len).max().unwrap_or(0))
                .collect();
            for (n, s) in answer.solutions.iter().enumerate() {
                let cells: Vec<String> =
                    s.iter().enumerate().map(|(i, w)| format!("{w:<width$}", width = widths[i])).collect();
                let _ = writeln!(out, "  {:>3}. {}", n + 1, cells.join("  ").trim_end());
            }
        }
    })
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
