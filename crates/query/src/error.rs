//! The one error type of the query crate.

use std::fmt;

/// An error from opening or querying an index.
///
/// Every error carries what the user needs to act on it; `Display` is one
/// line suitable for `error: ...` output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
}

/// The kinds of [`Error`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file does not start with wordhoard's magic bytes.
    NotAnIndex,
    /// The index was written by a newer wordhoard than this one.
    NewerVersion {
        /// The format version found in the file.
        found: u32,
        /// The newest format version this build reads.
        supported: u32,
    },
    /// The file's structure is damaged (bad bounds, truncated, bad header).
    Corrupt(String),
    /// A section's bytes do not match the checksum recorded for it.
    Checksum {
        /// The name of the damaged section.
        section: &'static str,
    },
    /// A section a query needs is not in this index.
    MissingSection {
        /// The name of the missing section.
        section: &'static str,
    },
    /// The user gave input the query cannot accept (bad letters, ranges).
    InvalidInput(String),
    /// Reading or mapping the file failed.
    Io(String),
    /// A question would take more memory or time than a query may (a
    /// Letter Boxed search over too many states, say); the message says
    /// how to narrow it.
    Limit(String),
}

impl Error {
    /// Creates an error of the given kind.
    pub fn new(kind: ErrorKind) -> Error {
        Error { kind }
    }

    /// The kind of this error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// True when the error is the user's input rather than the index or the
    /// system (a CLI maps this to exit status 2).
    pub fn is_usage(&self) -> bool {
        matches!(self.kind, ErrorKind::InvalidInput(_))
    }

    pub(crate) fn corrupt(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Corrupt(msg.into()))
    }

    pub(crate) fn invalid(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidInput(msg.into()))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const REBUILD: &str = "rebuild it with `wordhoard build`";
        match &self.kind {
            ErrorKind::NotAnIndex => {
                write!(f, "not a wordhoard index (wrong magic bytes); build one with `wordhoard build`")
            }
            ErrorKind::NewerVersion { found, supported } => write!(
                f,
                "index format {found} is newer than this wordhoard reads ({supported}); {REBUILD} or upgrade wordhoard"
            ),
            ErrorKind::Corrupt(msg) => write!(f, "index is corrupt: {msg}; {REBUILD}"),
            ErrorKind::Checksum { section } => {
                write!(f, "index is corrupt: section `{section}` fails its checksum; {REBUILD}")
            }
            ErrorKind::MissingSection { section } => {
                write!(f, "index has no `{section}` section (built by an older wordhoard?); {REBUILD}")
            }
            ErrorKind::InvalidInput(msg) => f.write_str(msg),
            ErrorKind::Io(msg) | ErrorKind::Limit(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
