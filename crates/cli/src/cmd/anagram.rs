//! `wordhoard anagram LETTERS`: anagrams with blanks, and multi-word
//! anagrams of a phrase.

use std::fmt::Write;

use anyhow::Result;
use wordhoard_query::request::{self, Anagrams};

use super::{answer, Context};
use crate::output::{columns, paint, plural, thousands, Paint};

/// Arguments of `anagram`.
#[derive(clap::Args)]
#[command(after_help = "Examples: wordhoard anagram listen          enlist inlets listen silent tinsel\n\
                  \x20         wordhoard anagram 'retain?'       the blank stands for any letter: retinae, ...\n\
                  \x20         wordhoard anagram orchestra --sub --min-len 6\n\
                  \x20         wordhoard anagram --words 'clint eastwood' --max-words 2")]
pub struct Args {
    /// The letters (`?` is a blank that stands for any letter); with --words, the phrase
    #[arg(value_name = "LETTERS")]
    letters: String,
    /// Words made of some of the letters, not all of them
    #[arg(long, conflicts_with = "words")]
    sub: bool,
    /// Sets of words whose letters are exactly the phrase's (spaces and punctuation ignored)
    #[arg(long)]
    words: bool,
    /// The shortest word
    #[arg(long, default_value_t = 3, value_name = "L")]
    min_len: usize,
    /// With --words: the most words in an anagram
    #[arg(long, default_value_t = 3, value_name = "N", requires = "words")]
    max_words: usize,
    /// With --words: a word every anagram contains
    #[arg(long, value_name = "WORD", requires = "words")]
    include: Option<String>,
    #[command(flatten)]
    list: super::WordListing,
}

/// Answers `anagram`.
pub fn run(ctx: &Context, args: Args) -> Result<()> {
    let index = ctx.open()?;
    let q = request::Anagram {
        letters: args.letters,
        sub: args.sub,
        words: args.words,
        min_len: args.min_len,
        max_words: args.words.then_some(args.max_words),
        include: args.include,
        limit: args.list.limit,
        common_only: args.list.common_only,
    };
    // `+` (and colour) marks common words when the index has a list.
    let mark_common = index.has_common_list() && !q.common_only;
    answer(ctx, &index, &q, |out, found| match found {
        Anagrams::Phrases(found) => {
            for words in &found.anagrams {
                out.push_str(&words.join(" "));
                out.push('\n');
            }
            summary(out, found.anagrams.len(), found.count, "anagram");
        }
        Anagrams::Words(words, count) => {
            // By length, longest first, as listed.
            let mut at = 0;
            while at < words.len() {
                let len = words[at].word.chars().count();
                let run: Vec<String> = words[at..]
                    .iter()
                    .take_while(|a| a.word.chars().count() == len)
                    .map(|a| {
                        let plus = if mark_common && a.common { "+" } else { "" };
                        let word = if a.blanks.is_empty() {
                            format!("{}{plus}", a.word)
                        } else {
                            format!("{}{plus} (?={})", a.word, a.blanks)
                        };
                        if plus.is_empty() {
                            word
                        } else {
                            paint(Paint::Common, word)
                        }
                    })
                    .collect();
                let _ = writeln!(out, "{len} letters:");
                columns(out, &run, 2, crate::output::width());
                at += run.len();
            }
            summary(out, words.len(), *count, "word");
            if mark_common && words.iter().any(|a| a.common) {
                out.push_str("+ common word\n");
            }
        }
    })
}

fn summary(out: &mut String, shown: usize, count: u64, what: &str) {
    let _ = if shown as u64 == count {
        writeln!(out, "({})", plural(count, what))
    } else {
        writeln!(out, "(the first {} of {} {what}s; --limit 0 lists all)", thousands(shown as u64), thousands(count))
    };
}
