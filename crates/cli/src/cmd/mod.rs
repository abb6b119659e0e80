//! One module per command group; each parses its arguments, runs one query
//! and prints the answer.

pub mod anagram;
pub mod anigram;
pub mod bee;
pub mod boxed;
pub mod build;
pub mod find;
pub mod info;
pub mod shell;

use std::ffi::OsString;
use std::path::PathBuf;

use anyhow::{anyhow, Result};
use wordhoard_query::request::Query;
use wordhoard_query::{Error, ErrorKind, FileBytes, Index};

use crate::locate::{self, IndexChoice};
use crate::UsageError;

/// How the word tools list words: `--limit K` and `--common-only`.
#[derive(clap::Args)]
pub struct WordListing {
    /// How many to list (0: all); the count is always exact
    #[arg(long, default_value_t = 50, value_name = "K")]
    pub limit: usize,
    /// Only words of the common list the index was built with
    #[arg(long)]
    pub common_only: bool,
}

/// What every command shares: the global flags.
pub struct Context {
    /// `--index`, if given.
    pub index: Option<OsString>,
    /// `--json`.
    pub json: bool,
    /// `--no-mmap`: read the index into memory instead of mapping it.
    pub no_mmap: bool,
}

impl Context {
    /// The index to read: `--index`, `$WORDHOARD_INDEX`, or the default
    /// (see [`locate`]).
    pub fn choice(&self) -> Result<IndexChoice> {
        Ok(locate::choose(self.index.as_deref())?)
    }

    /// The index file's path.
    pub fn index_path(&self) -> Result<PathBuf> {
        Ok(self.choice()?.path)
    }

    /// Opens the index, with where it looked and how to build it when it
    /// is missing, and the path when it is damaged.
    pub fn open(&self) -> Result<Index<FileBytes>> {
        let choice = self.choice()?;
        if !choice.path.exists() {
            return Err(choice.missing().into());
        }
        let opened = if self.no_mmap { Index::read(&choice.path) } else { Index::open(&choice.path) };
        opened.map_err(|e| match e.kind() {
            ErrorKind::Io { .. } => anyhow!(e),
            _ => anyhow!("{}: {e}", choice.path.display()),
        })
    }
}

/// The flag for each library parameter an error message names in
/// backticks: the library speaks of its API, the CLI of its flags.
const FLAGS: [(&str, &str); 23] = [
    ("`keep`", "--keep"),
    ("`fold` accents", "--fold accents"),
    ("`fold`", "--fold"),
    ("`alphabet`", "--alphabet"),
    ("`proper_nouns`", "--proper-nouns"),
    ("`name` NAME", "--name NAME"),
    ("`output` PATH", "-o PATH"),
    ("`min_solutions`", "--min-solutions"),
    ("`max_solutions`", "--max-solutions"),
    ("`sides`", "--sides"),
    ("`side_count`", "--sides"),
    ("`size`", "--size"),
    ("`common_only`", "--common-only"),
    ("`center`", "--center"),
    ("`max_words`", "--max-words"),
    ("`min_len`", "--min-len"),
    ("`goal_len`", "--goal-len"),
    ("`score.min`", "--min-score"),
    ("`score.max`", "--max-score"),
    ("`words.min`", "--min-words"),
    ("`words.max`", "--max-words"),
    ("`score`", "--min/--max-score"),
    ("`words`", "--min/--max-words"),
];

/// A query error's message with the library's parameter names as flags.
pub fn as_flags(message: String) -> String {
    FLAGS.iter().fold(message, |m, (param, flag)| m.replace(param, flag))
}

/// Turns a query error into an anyhow error, keeping its usage flag and
/// naming flags where the library names parameters.
pub fn query_err(e: Error) -> anyhow::Error {
    match e.kind() {
        ErrorKind::InvalidInput(_) => anyhow::Error::new(UsageError(as_flags(e.to_string()))),
        ErrorKind::Limit(_) => anyhow!(as_flags(e.to_string())),
        _ => anyhow::Error::new(e),
    }
}

/// Asks the request layer `q` and prints its answer: the request layer's
/// JSON with `--json`, else `text` of the typed answer.
pub fn answer<Q: Query>(
    ctx: &Context,
    index: &Index<FileBytes>,
    q: &Q,
    text: impl FnOnce(&mut String, &Q::Output),
) -> Result<()> {
    let out = q.run(index).map_err(query_err)?;
    crate::output::emit(ctx.json, || q.json(index, &out), |s| text(s, &out))
}

/// A usage error (exit 2).
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(msg.into()))
}
