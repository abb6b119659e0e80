//! `wordhoard anigram ...`: nested anagram chains.

use std::fmt::Write;

use anyhow::Result;
use clap::Subcommand;
use wordhoard_query::anigram::{ChainVerdict, Step, GOAL_LEN, START_LEN};
use wordhoard_query::request;

use super::{answer, Context};
use crate::output::{plural, thousands, upper};

/// The Anigrams commands.
#[derive(Subcommand)]
pub enum Command {
    /// Every word that is an anagram of LETTERS
    #[command(after_help = "Example: wordhoard anigram unscramble deir")]
    Unscramble {
        /// The letters, in any order
        letters: String,
    },
    /// The longest chain, each term one letter longer than the last
    #[command(after_help = "Example: wordhoard anigram longest --from ride\n\n\
        Exit 2 when --from has letters no word has; a start length with no terms prints an empty chain.")]
    Longest {
        /// Start from this word or term (`ride` and `deir` mean the same)
        #[arg(long, value_name = "TERM")]
        from: Option<String>,
        /// Start from the best term of this many letters
        #[arg(long, default_value_t = START_LEN, value_name = "L")]
        start_len: usize,
    },
    /// The number of games: chains from --start-len to --goal-len letters
    #[command(after_help = "Example: wordhoard anigram count --from beep\n\n\
        Exit 2 when --goal-len is not above the start length or --from has letters no word has;\n\
        exit 0 with 0 games when that is the true answer (no chain reaches the goal).")]
    Count {
        /// Count only games from this word or term
        #[arg(long, value_name = "TERM")]
        from: Option<String>,
        /// Letters in a game's first term
        #[arg(long, default_value_t = START_LEN, value_name = "L")]
        start_len: usize,
        /// Letters in a game's last term
        #[arg(long, default_value_t = GOAL_LEN, value_name = "G")]
        goal_len: usize,
    },
    /// The starting terms with the most games
    #[command(after_help = "Example: wordhoard anigram top --top 5")]
    Top {
        /// How many terms to list (0: all)
        #[arg(long, short = 'n', alias = "n", default_value_t = 10, value_name = "N")]
        top: usize,
        /// Letters in a game's first term
        #[arg(long, default_value_t = START_LEN, value_name = "L")]
        start_len: usize,
        /// Letters in a game's last term
        #[arg(long, default_value_t = GOAL_LEN, value_name = "G")]
        goal_len: usize,
    },
    /// Check a chain as played: each word one letter more than the one before
    #[command(after_help = "Example: wordhoard anigram check ride dried riddle\n\n\
        A word is accepted, or refused as not in the word list or as not the word before plus one letter.")]
    Check {
        /// The words played, in order
        #[arg(value_name = "WORD", required = true)]
        words: Vec<String>,
    },
    /// A random game (4 -> 9 letters), reproducible by seed
    #[command(after_help = "Example: wordhoard anigram generate --seed 42")]
    Generate {
        /// The seed; the same seed and index give the same game [default: from the clock]
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// Show each step's words too (text; JSON always has them)
        #[arg(long)]
        answers: bool,
        /// A game every step of which has a word of the common list (and shows only those)
        #[arg(long)]
        common_only: bool,
    },
}

/// Runs an anigram command.
pub fn run(ctx: &Context, command: Command) -> Result<()> {
    let index = ctx.open()?;
    let index = &index;
    match command {
        Command::Unscramble { letters } => answer(ctx, index, &request::AnigramUnscramble { letters }, |out, step| {
            if step.words.is_empty() {
                let _ = writeln!(out, "{}: no words", step.term);
            } else {
                let _ = writeln!(out, "{}: {}", step.term, step.words.join(" "));
            }
        }),
        Command::Longest { from, start_len } => {
            answer(ctx, index, &request::AnigramLongest { from, start_len }, |out, chain| {
                let _ = writeln!(out, "Longest chain: {}", plural(chain.len() as u64, "term"));
                chain_text(out, chain);
            })
        }
        Command::Count { from, start_len, goal_len } => {
            answer(ctx, index, &request::AnigramCount { from, start_len, goal_len }, |out, c| {
                let what = match &c.from_term {
                    Some(t) => format!("from {t}"),
                    None => format!("from {} letters", c.start_len),
                };
                let _ = writeln!(out, "{} {what} to {goal_len} letters", plural(c.games, "game"));
            })
        }
        Command::Top { top, start_len, goal_len } => {
            answer(ctx, index, &request::AnigramTop { top, start_len, goal_len }, |out, top| {
                let _ = writeln!(out, "Starting terms with the most games ({start_len} -> {goal_len} letters):");
                for (i, t) in top.iter().enumerate() {
                    let _ = writeln!(
                        out,
                        "  {:>3}. {:<8} {:>10}  {}",
                        i + 1,
                        t.term,
                        thousands(t.games),
                        t.words.join(" ")
                    );
                }
            })
        }
        Command::Check { words } => answer(ctx, index, &request::AnigramCheck { words }, |out, play| {
            let width = play.words.iter().map(|w| w.word.chars().count()).max().unwrap_or(0);
            for w in &play.words {
                let verdict = match (w.verdict, w.added) {
                    (ChainVerdict::Ok, Some(c)) => format!("+{}", upper(c)),
                    (ChainVerdict::Ok, None) => "the first word".into(),
                    (ChainVerdict::NotInList, _) => "not in the word list".into(),
                    (ChainVerdict::NotOneMore, _) => "not the word before plus one letter".into(),
                };
                let mark = if w.verdict == ChainVerdict::Ok { "+" } else { "-" };
                let _ = writeln!(out, "  {mark} {:<width$}  {verdict}", w.word.to_uppercase());
            }
            let _ = write!(out, "\nA chain of {}", plural(play.length as u64, "word"));
            match play.longest_from_last {
                Some(n) => {
                    let _ =
                        writeln!(out, "; the longest chain from its last word adds {}.", plural(n as u64, "more word"));
                }
                None => {
                    let _ = writeln!(out, ".");
                }
            }
        }),
        Command::Generate { seed, answers, common_only } => {
            answer(ctx, index, &request::AnigramGenerate { seed, answers, common_only }, |out, (seed, chain)| {
                let _ = writeln!(out, "Game for seed {seed} ({START_LEN} -> {GOAL_LEN} letters):");
                if answers {
                    chain_text(out, chain);
                } else {
                    puzzle_text(out, chain);
                }
            })
        }
    }
}

/// Each step: its term, the letter it adds, and its words.
fn chain_text(out: &mut String, chain: &[Step]) {
    let width = chain.iter().map(|s| s.term.chars().count()).max().unwrap_or(0);
    let mut previous: Option<&str> = None;
    for s in chain {
        let added = previous.map_or(String::new(), |p| format!("+{}", added_letter(p, &s.term)));
        let _ = writeln!(out, "  {:<width$}  {added:<2}  {}", s.term, s.words.join(" "));
        previous = Some(&s.term);
    }
}

/// The game without its answers: the first word, then each step's added
/// letter and a blank for the word it makes.
fn puzzle_text(out: &mut String, chain: &[Step]) {
    let mut previous: Option<&str> = None;
    for (i, s) in chain.iter().enumerate() {
        match previous {
            None => {
                let first = s.words.first().map_or(s.term.as_str(), String::as_str);
                let _ = writeln!(out, "  {:>2}.      {}", i + 1, first.to_uppercase());
            }
            Some(p) => {
                let blanks = vec!["_"; s.term.chars().count()].join(" ");
                let _ = writeln!(
                    out,
                    "  {:>2}.  +{}  {blanks}   ({})",
                    i + 1,
                    upper(added_letter(p, &s.term)),
                    plural(s.words.len() as u64, "answer")
                );
            }
        }
        previous = Some(&s.term);
    }
    let _ = writeln!(out, "\n(answers hidden: add --answers to see them)");
}

/// The letter a term has one more of than its predecessor.
fn added_letter(shorter: &str, longer: &str) -> char {
    let mut s = shorter.chars().peekable();
    for c in longer.chars() {
        if s.peek() == Some(&c) {
            s.next();
        } else {
            return c;
        }
    }
    '?'
}
