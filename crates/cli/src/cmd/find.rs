//! `wordhoard find PATTERN`: words matching a crossword pattern.

use std::io::{IsTerminal, Write};

use anyhow::Result;
use wordhoard_query::request;

use super::{query_err, Context};
use crate::output::{paint, plural, thousands, Paint};

/// Arguments of `find`.
#[derive(clap::Args)]
#[command(after_help = "Examples: wordhoard find 'c?t'          cat cot cut\n\
                  \x20         wordhoard find 'qu*' --len 5   quack ... quoth\n\
                  \x20         wordhoard find '*[^aeiou][^aeiou][^aeiou][^aeiou][^aeiou]*'\n\n\
                  A letter stands for itself, ? for any one letter, * for any run of letters (also none),\n\
                  [abc] for one of those letters and [^abc] for one letter not among them. Results a-z.")]
pub struct Args {
    /// The pattern (quote it, so the shell leaves `*` and `?` alone)
    pattern: String,
    /// Only words of this many letters
    #[arg(long, value_name = "N")]
    len: Option<usize>,
    #[command(flatten)]
    list: super::WordListing,
}

/// Lists the matches a-z as they are found (text) and the exact count;
/// JSON is the request layer's answer.
pub fn run(ctx: &Context, args: Args) -> Result<()> {
    let index = ctx.open()?;
    let q = request::Find {
        pattern: args.pattern,
        len: args.len,
        limit: args.list.limit,
        common_only: args.list.common_only,
    };
    if ctx.json {
        return super::answer(ctx, &index, &q, |_, _| {});
    }
    let stdout = std::io::stdout();
    let terminal = stdout.is_terminal();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = None;
    let mut shown = 0usize;
    let mut marked = false;
    let mut damaged = None;
    // `+` and colour mark common words (when the index has a list and all words show).
    let mark_common = index.has_common_list() && !q.common_only;
    // Asked once, not a word (thousands of words on a pipe).
    let (folds, color) = (index.has_spellings(), crate::output::color());
    let count = q
        .each(&index, |word, common| {
            // The query gives only the first --limit words (and counts all).
            if failed.is_some() {
                return;
            }
            shown += 1;
            crate::stop::tick();
            // As the lists spelled it, on an index that folds accents.
            let spelled = if folds {
                index.spelling_of(word).unwrap_or_else(|e| {
                    damaged.get_or_insert(e);
                    None
                })
            } else {
                None
            };
            let word = spelled.as_deref().unwrap_or(word);
            let written = if mark_common && common {
                marked = true;
                if color {
                    writeln!(out, "{}", paint(Paint::Common, format!("{word}+")))
                } else {
                    out.write_all(word.as_bytes()).and_then(|()| out.write_all(b"+\n"))
                }
            } else {
                // Thousands of words on a pipe: bytes, not formatting.
                out.write_all(word.as_bytes()).and_then(|()| out.write_all(b"\n"))
            };
            let written = written.and_then(|()| if terminal { out.flush() } else { Ok(()) });
            failed = written.err();
        })
        .map_err(query_err)?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    if let Some(e) = damaged {
        return Err(query_err(e));
    }
    let legend = if marked { "; + common word" } else { "" };
    if shown as u64 == count {
        writeln!(out, "({}{legend})", plural(count, "word"))?;
    } else {
        let (shown, count) = (thousands(shown as u64), thousands(count));
        writeln!(out, "(the first {shown} of {count} words; --limit 0 lists all{legend})")?;
    }
    out.flush()?;
    Ok(())
}
