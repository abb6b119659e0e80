//! Where indexes live. `--index PATH|NAME`, else `$WORDHOARD_INDEX` (the
//! same forms), else `enable1`; a NAME (no path separator, no `.hoard`) is
//! `NAME.hoard` in the index folder: `$WORDHOARD_HOME`, else the
//! platform's data folder (`$XDG_DATA_HOME/wordhoard` or
//! `~/.local/share/wordhoard` on Linux, `~/Library/Application
//! Support/wordhoard` on macOS, `%APPDATA%\wordhoard` on Windows).

use std::ffi::OsStr;
use std::path::PathBuf;

use crate::{Error, ErrorKind, Result};

/// The index used when none is named.
pub const DEFAULT_NAME: &str = "enable1";

/// An index file's extension.
pub const EXTENSION: &str = "hoard";

/// The folder that holds named indexes, and what chose it.
#[derive(Clone, Debug)]
pub struct IndexFolder {
    /// The folder (it may not exist yet).
    pub path: PathBuf,
    /// `$WORDHOARD_HOME`, or the data folder.
    pub from: &'static str,
}

impl IndexFolder {
    /// `$WORDHOARD_HOME`, else the platform's data folder.
    pub fn find() -> Result<IndexFolder> {
        if let Some(home) = std::env::var_os("WORDHOARD_HOME").filter(|v| !v.is_empty()) {
            return Ok(IndexFolder { path: PathBuf::from(home), from: "$WORDHOARD_HOME" });
        }
        match dirs::data_dir() {
            Some(data) => Ok(IndexFolder { path: data.join("wordhoard"), from: "the data folder; $WORDHOARD_HOME is not set" }),
            None => Err(Error::new(ErrorKind::NoIndex("there is no index folder: this system names no data folder for the user; set $WORDHOARD_HOME to a folder".into()))),
        }
    }

    /// The file of the index called `name`.
    pub fn index(&self, name: &str) -> PathBuf {
        self.path.join(format!("{name}.{EXTENSION}"))
    }

    /// The names of the indexes in the folder, sorted (none when the folder
    /// does not exist). Only regular files: opening a FIFO would wait for
    /// a writer forever.
    pub fn names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.path) else { return Vec::new() };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let path = e.path();
                let stem = path.file_stem()?.to_str()?;
                let listed =
                    path.extension() == Some(OsStr::new(EXTENSION)) && !stem.starts_with('.') && path.is_file();
                listed.then(|| stem.to_string())
            })
            .collect();
        names.sort();
        names
    }
}

/// An index to read, and how it was chosen (for messages).
#[derive(Clone, Debug)]
pub struct IndexChoice {
    /// The file.
    pub path: PathBuf,
    /// How `path` was chosen.
    pub how: How,
}

/// How an index was chosen.
#[derive(Clone, Debug)]
pub enum How {
    /// A path given by `--index` or `$WORDHOARD_INDEX` (the source named).
    Path(&'static str),
    /// A name in the index folder; `given` is `--index` or
    /// `$WORDHOARD_INDEX`, or `None` for the default.
    Named {
        /// The name.
        name: String,
        /// `--index` or `$WORDHOARD_INDEX`; `None` for the default.
        given: Option<&'static str>,
        /// The folder it is in.
        folder: IndexFolder,
    },
}

/// True when `arg` names an index in the index folder rather than a path:
/// no path separator and no `.hoard` ending.
pub fn is_name(arg: &str) -> bool {
    !arg.is_empty()
        && arg != "."
        && arg != ".."
        && !arg.contains(['/', '\\'])
        && !arg.ends_with(&format!(".{EXTENSION}"))
}

/// Resolves `--index` (given as `flag`; a binding's argument), else
/// `$WORDHOARD_INDEX`, else the default name.
pub fn choose(flag: Option<&OsStr>) -> Result<IndexChoice> {
    let env = std::env::var_os("WORDHOARD_INDEX").filter(|v| !v.is_empty());
    let (arg, given) = match (flag, &env) {
        (Some(f), _) => (Some(f), Some("--index")),
        (None, Some(e)) => (Some(e.as_os_str()), Some("$WORDHOARD_INDEX")),
        (None, None) => (None, None),
    };
    let name = match arg {
        None => DEFAULT_NAME.to_string(),
        Some(a) => match a.to_str().filter(|s| is_name(s)) {
            Some(name) => name.to_string(),
            None => return Ok(IndexChoice { path: PathBuf::from(a), how: How::Path(given.unwrap_or("--index")) }),
        },
    };
    let folder = IndexFolder::find()?;
    Ok(IndexChoice { path: folder.index(&name), how: How::Named { name, given, folder } })
}

impl IndexChoice {
    /// The error for an index that is not there: where it looked, why
    /// there and what the folder holds. (How to build one is the
    /// caller's to say: the CLI names its `build` command.)
    pub fn missing(&self) -> Error {
        let path = self.path.display();
        match &self.how {
            How::Path(given) => Error::new(ErrorKind::NoIndex(format!("no index at {path} (from {given})"))),
            How::Named { name, given, folder } => {
                let why = match given {
                    Some(g) => format!("{g} {name}"),
                    None => "the default: no --index, $WORDHOARD_INDEX not set".to_string(),
                };
                let others = folder.names();
                let holds = if others.is_empty() {
                    format!("{} holds no index", folder.path.display())
                } else {
                    format!("it holds {}", others.join(", "))
                };
                Error::new(ErrorKind::NoIndex(format!(
                    "no index {name} at {path} ({why}; index folder from {}; {holds})",
                    folder.from
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_words_without_the_extension() {
        for name in ["enable1", "words", "de-DE", "my.list"] {
            assert!(is_name(name), "{name}");
        }
        for path in ["", ".", "..", "./enable1", "indexes/enable1", "enable1.hoard", "c:\\x", "/tmp/x"] {
            assert!(!is_name(path), "{path}");
        }
    }
}
