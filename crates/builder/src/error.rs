//! The builder's error type: a kind to match on, a path where there is one,
//! the `io::Error` as its source, and one line of `Display`.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// An error while building or publishing an index.
#[derive(Debug, Clone)]
pub struct BuildError {
    kind: BuildErrorKind,
}

/// Which of a build's lists an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListRole {
    /// A list of the index's words.
    Words,
    /// The list of common words.
    Common,
    /// A list of words to leave out.
    Exclusion,
}

impl fmt::Display for ListRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ListRole::Words => "word list",
            ListRole::Common => "common list",
            ListRole::Exclusion => "exclusion list",
        })
    }
}

/// What went wrong in a build. Messages name the builder's parameters
/// (`force`), not any program's flags; a CLI words them its own way.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// No word list was given.
    NoSources,
    /// A word list could not be opened or read.
    ReadList {
        /// Which list it is: the words, the common list, an exclusion list.
        role: ListRole,
        /// The list's name (its path, or `-`).
        list: String,
        /// The line being read, when the failure came mid-list.
        line: Option<u64>,
        /// The system's error.
        source: Arc<std::io::Error>,
    },
    /// A word list path names a folder.
    ListIsFolder {
        /// Which list it is.
        role: ListRole,
        /// The path.
        path: PathBuf,
    },
    /// Keys reached a writer out of order (a bug, or sorting went wrong).
    OutOfOrder {
        /// What was being written (`words`, `terms`).
        what: &'static str,
        /// The key that came too late.
        key: Vec<u8>,
        /// The key before it.
        previous: Vec<u8>,
    },
    /// The lists hold more than the format can count: over 4 GiB of words,
    /// over 2^32 words, game counts past 64 bits.
    TooLarge(String),
    /// The alphabet cannot be made: too many letters, or bad ones.
    Alphabet(String),
    /// The output path cannot take an index.
    Output {
        /// The path.
        path: PathBuf,
        /// Why not.
        problem: OutputProblem,
    },
    /// Creating, writing, syncing or renaming the output failed.
    Write {
        /// The file being written.
        path: PathBuf,
        /// What was being done: `create`, `write`, `sync`, `rename`, `inspect`.
        action: &'static str,
        /// The system's error.
        source: Arc<std::io::Error>,
    },
    /// The file just written does not read back as written.
    Verify(String),
    /// A build option is wrong (the CLI's exit 2). Shown as
    /// `` `param` problem ``, or the problem alone.
    InvalidInput {
        /// The option at fault, by its name in [`BuildFlags`](crate::BuildFlags)
        /// (`proper_nouns`), when one is.
        param: Option<&'static str>,
        /// What is wrong, worded to follow the option's name; it names no
        /// other option.
        problem: String,
    },
}

/// Why an output path cannot take an index.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputProblem {
    /// The folder it would go in does not exist.
    NoFolder(PathBuf),
    /// It is a folder.
    IsFolder,
    /// It is a device, FIFO or socket.
    NotRegularFile,
    /// It is a symbolic link that does not resolve.
    BrokenLink,
    /// It is one of the word lists being read.
    IsInput(PathBuf),
    /// It holds something other than an index, and `force` was not given.
    NotAnIndex,
}

impl BuildError {
    /// An error of the given kind.
    pub fn new(kind: BuildErrorKind) -> BuildError {
        BuildError { kind }
    }

    /// The kind of this error.
    pub fn kind(&self) -> &BuildErrorKind {
        &self.kind
    }

    pub(crate) fn too_large(what: impl Into<String>) -> BuildError {
        BuildError::new(BuildErrorKind::TooLarge(what.into()))
    }

    pub(crate) fn output(path: &std::path::Path, problem: OutputProblem) -> BuildError {
        BuildError::new(BuildErrorKind::Output { path: path.to_path_buf(), problem })
    }

    pub(crate) fn write(path: &std::path::Path, action: &'static str, source: std::io::Error) -> BuildError {
        BuildError::new(BuildErrorKind::Write { path: path.to_path_buf(), action, source: Arc::new(source) })
    }

    pub(crate) fn read_list(list: String, line: Option<u64>, source: std::io::Error) -> BuildError {
        BuildError::new(BuildErrorKind::ReadList { role: ListRole::Words, list, line, source: Arc::new(source) })
    }

    pub(crate) fn list_is_folder(path: PathBuf) -> BuildError {
        BuildError::new(BuildErrorKind::ListIsFolder { role: ListRole::Words, path })
    }

    /// The same error about a list of another role (lists are read alike,
    /// and only the caller knows which one it asked for).
    pub(crate) fn for_role(mut self, new: ListRole) -> BuildError {
        if let BuildErrorKind::ReadList { role, .. } | BuildErrorKind::ListIsFolder { role, .. } = &mut self.kind {
            *role = new;
        }
        self
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            BuildErrorKind::NoSources => f.write_str("no word list given; name at least one file, or - for stdin"),
            BuildErrorKind::ReadList { role, list, line: None, source } => {
                write!(f, "cannot read {role} {list}: {source}")
            }
            BuildErrorKind::ReadList { role, list, line: Some(line), source } => {
                write!(f, "{role} {list}: line {line}: cannot read: {source}")
            }
            BuildErrorKind::ListIsFolder { role, path } => {
                write!(f, "{}: is a directory, not a {role}", path.display())
            }
            BuildErrorKind::OutOfOrder { what, key, previous } => write!(
                f,
                "cannot build the {what} FST: {:?} does not sort after {:?}",
                String::from_utf8_lossy(key),
                String::from_utf8_lossy(previous)
            ),
            BuildErrorKind::TooLarge(what) | BuildErrorKind::Alphabet(what) => f.write_str(what),
            BuildErrorKind::InvalidInput { param: Some(param), problem } => write!(f, "`{param}` {problem}"),
            BuildErrorKind::InvalidInput { param: None, problem } => f.write_str(problem),
            BuildErrorKind::Output { path, problem } => {
                let path = path.display();
                match problem {
                    OutputProblem::NoFolder(dir) => {
                        write!(f, "the folder {} does not exist; create it first", dir.display())
                    }
                    OutputProblem::IsFolder => write!(f, "{path} is a folder, not an index file"),
                    OutputProblem::NotRegularFile => {
                        write!(f, "{path} is not a regular file (a device, FIFO or socket)")
                    }
                    OutputProblem::BrokenLink => write!(f, "{path} is a symbolic link that does not resolve"),
                    OutputProblem::IsInput(input) => {
                        write!(f, "{path} is also an input ({}); write the index somewhere else", input.display())
                    }
                    OutputProblem::NotAnIndex => write!(f, "{path} exists and is not a wordhoard index"),
                }
            }
            BuildErrorKind::Write { path, action: "rename", source } => {
                write!(f, "cannot move the index into place at {}: {source}", path.display())
            }
            BuildErrorKind::Write { path, action, source } => write!(f, "cannot {action} {}: {source}", path.display()),
            BuildErrorKind::Verify(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            BuildErrorKind::ReadList { source, .. } | BuildErrorKind::Write { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}
