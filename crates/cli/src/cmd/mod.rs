//! One module per command group; each parses its arguments, runs one query
//! and prints the answer.

pub mod anigram;
pub mod bee;
pub mod boxed;
pub mod build;
pub mod info;

use std::path::PathBuf;

use anyhow::{anyhow, Result};
use memmap2::Mmap;
use wordhoard_query::{Error, ErrorKind, Index};

use crate::UsageError;

/// The default index path, relative to the working folder.
pub const DEFAULT_INDEX: &str = "indexes/enable1.hoard";

/// The command to suggest when there is no index.
pub const BUILD_HINT: &str =
    "build one with `make demo` or `wordhoard build ../shared/wordlists/enable1.txt --common ../shared/wordlists/popular.txt`";

/// What every command shares: the global flags.
pub struct Context {
    /// `--index`, if given.
    pub index: Option<PathBuf>,
    /// `--json`.
    pub json: bool,
}

impl Context {
    /// The index path: `--index`, `$WORDHOARD_INDEX`, or the default.
    pub fn index_path(&self) -> PathBuf {
        self.index
            .clone()
            .or_else(|| std::env::var_os("WORDHOARD_INDEX").filter(|v| !v.is_empty()).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from(DEFAULT_INDEX))
    }

    /// Opens the index, with a hint when it is missing or damaged.
    pub fn open(&self) -> Result<Index<Mmap>> {
        let path = self.index_path();
        if !path.exists() {
            return Err(anyhow!(
                "no index at {}; {BUILD_HINT} (or point --index / $WORDHOARD_INDEX at one)",
                path.display()
            ));
        }
        Index::open(&path).map_err(|e| match e.kind() {
            ErrorKind::Io(_) => anyhow!(e),
            _ => anyhow!("{}: {e}", path.display()),
        })
    }
}

/// Turns a query error into an anyhow error, keeping its usage flag.
pub fn query_err(e: Error) -> anyhow::Error {
    if e.is_usage() {
        anyhow::Error::new(UsageError(e.to_string()))
    } else {
        anyhow::Error::new(e)
    }
}

/// A usage error (exit 2).
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(msg.into()))
}
