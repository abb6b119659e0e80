//! The one error type of the query crate.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// An error from opening or querying an index.
///
/// Every error carries what a caller needs to act on it: its [`kind`]
/// (match on it), the section a damaged index is damaged in, the path and
/// the `io::Error` (as [`source`](std::error::Error::source)) of a failed
/// read. `Display` is one line suitable for `error: ...` output. An error
/// in the caller's input names the parameter at fault as a field
/// ([`ErrorKind::InvalidInput`]'s `param`, this library's name for it,
/// `max_words`), so a CLI can say its flag instead (`--max-words`).
///
/// [`kind`]: Error::kind
#[derive(Debug, Clone)]
pub struct Error {
    /// Boxed: a `Result` of a small value stays two registers wide, as
    /// every checked read in a query's inner loops returns one.
    kind: Box<ErrorKind>,
}

/// The kinds of [`Error`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file does not start with wordhoard's magic bytes.
    NotAnIndex,
    /// The index was written by a newer wordhoard than this one.
    NewerVersion {
        /// The format version found in the file.
        found: u32,
        /// The format version this build reads.
        supported: u32,
    },
    /// The index was written in an older format, which this build no
    /// longer reads: rebuild it.
    OlderVersion {
        /// The format version found in the file.
        found: u32,
        /// The format version this build reads.
        supported: u32,
    },
    /// The file's structure is damaged: bad bounds, truncated, a value
    /// out of range.
    Corrupt {
        /// The section where the damage is; `None` for the header and
        /// section table.
        section: Option<&'static str>,
        /// What is wrong (`column 2 is not u32s`).
        problem: String,
    },
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
    /// The caller gave input the query cannot accept (bad letters,
    /// ranges). Shown as `` `param` problem ``, or the problem alone.
    InvalidInput {
        /// The parameter at fault, by its name in this library's API and
        /// the request layer (`max_words`, `score.min`), when one is.
        param: Option<&'static str>,
        /// What is wrong, worded to follow the parameter's name
        /// (`must be 1 to 8`); it names no other parameter.
        problem: String,
    },
    /// Reading or mapping the index file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done: `open`, `read`, `map`.
        action: &'static str,
        /// The system's error (shared, so errors stay `Clone`).
        source: Arc<std::io::Error>,
    },
    /// A question would take more memory or time than a query may (a
    /// Letter Boxed search over too many states, say); the message says
    /// how to narrow it.
    Limit(String),
    /// No index file where one was looked for (a name in the index
    /// folder, or a path); the message says where it looked and how to
    /// build one.
    NoIndex(String),
}

impl Error {
    /// Creates an error of the given kind.
    pub fn new(kind: ErrorKind) -> Error {
        Error { kind: Box::new(kind) }
    }

    /// The kind of this error.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The kind as a short stable name, for machine-readable output
    /// (`wordhoard --json` prints `{"error": {"kind", "message"}}`):
    /// `not_an_index`, `newer_version`, `older_version`, `corrupt`,
    /// `checksum`, `missing_section`, `invalid_input`, `io`, `limit`,
    /// `no_index`.
    pub fn kind_name(&self) -> &'static str {
        match *self.kind {
            ErrorKind::NotAnIndex => "not_an_index",
            ErrorKind::NewerVersion { .. } => "newer_version",
            ErrorKind::OlderVersion { .. } => "older_version",
            ErrorKind::Corrupt { .. } => "corrupt",
            ErrorKind::Checksum { .. } => "checksum",
            ErrorKind::MissingSection { .. } => "missing_section",
            ErrorKind::InvalidInput { .. } => "invalid_input",
            ErrorKind::Io { .. } => "io",
            ErrorKind::Limit(_) => "limit",
            ErrorKind::NoIndex(_) => "no_index",
        }
    }

    /// True when the error is the caller's input rather than the index or
    /// the system (a CLI maps this to exit status 2).
    pub fn is_usage(&self) -> bool {
        matches!(*self.kind, ErrorKind::InvalidInput { .. })
    }

    /// True when the index file is damaged or unreadable as an index
    /// (corrupt, failed checksum, wrong magic, missing section, another
    /// format version): rebuilding it is the cure.
    pub fn is_bad_index(&self) -> bool {
        matches!(
            *self.kind,
            ErrorKind::NotAnIndex
                | ErrorKind::NewerVersion { .. }
                | ErrorKind::OlderVersion { .. }
                | ErrorKind::Corrupt { .. }
                | ErrorKind::Checksum { .. }
                | ErrorKind::MissingSection { .. }
        )
    }

    /// Damage in the header or section table.
    pub(crate) fn corrupt(problem: impl Into<String>) -> Error {
        Error::new(ErrorKind::Corrupt { section: None, problem: problem.into() })
    }

    /// Damage inside the named section (see `SectionId::corrupt`).
    pub(crate) fn corrupt_in(section: &'static str, problem: impl Into<String>) -> Error {
        Error::new(ErrorKind::Corrupt { section: Some(section), problem: problem.into() })
    }

    /// Input the query cannot accept, no one parameter at fault.
    pub fn invalid(problem: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidInput { param: None, problem: problem.into() })
    }

    /// Input the query cannot accept, in `param` (`problem` follows its
    /// name: "must be 1 to 8").
    pub fn invalid_param(param: &'static str, problem: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidInput { param: Some(param), problem: problem.into() })
    }

    /// The parameter an input error is in, by its API name.
    pub fn param(&self) -> Option<&'static str> {
        match *self.kind {
            ErrorKind::InvalidInput { param, .. } => param,
            _ => None,
        }
    }

    pub(crate) fn io(path: &std::path::Path, action: &'static str, source: std::io::Error) -> Error {
        Error::new(ErrorKind::Io { path: path.to_path_buf(), action, source: Arc::new(source) })
    }

    /// The error for an index path that names a folder (some platforms
    /// open folders, and reading one says only "is a directory").
    pub(crate) fn is_a_directory(path: &std::path::Path, action: &'static str) -> Error {
        let source = std::io::Error::new(std::io::ErrorKind::IsADirectory, "it is a directory, not an index file");
        Error::io(path, action, source)
    }

    /// An index path that is not a regular file: a FIFO (which would block
    /// a reader forever), a device (`/dev/zero` never ends), a socket.
    pub(crate) fn not_a_file(path: &std::path::Path, action: &'static str) -> Error {
        let source = std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "it is not a regular file (a FIFO, a device or a socket), not an index file",
        );
        Error::io(path, action, source)
    }

    /// Refuses what is not a regular file before it is opened (opening a
    /// FIFO blocks), by what the path names.
    pub(crate) fn check_regular(path: &std::path::Path, action: &'static str) -> Result<()> {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Err(Error::is_a_directory(path, action)),
            Ok(m) if !m.is_file() => Err(Error::not_a_file(path, action)),
            // Missing or unreadable: opening it says so.
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const REBUILD: &str = "rebuild it";
        match &*self.kind {
            ErrorKind::NotAnIndex => {
                write!(f, "not a wordhoard index (wrong magic bytes)")
            }
            ErrorKind::NewerVersion { found, supported } => write!(
                f,
                "index format {found} is newer than this wordhoard reads ({supported}); {REBUILD}, or read it with a newer wordhoard"
            ),
            ErrorKind::OlderVersion { found, supported } => {
                write!(f, "index format {found} is older than this wordhoard reads ({supported}); {REBUILD}")
            }
            ErrorKind::Corrupt { section: None, problem } => write!(f, "index is corrupt: {problem}; {REBUILD}"),
            ErrorKind::Corrupt { section: Some(section), problem } => {
                write!(f, "index is corrupt in section `{section}`: {problem}; {REBUILD}")
            }
            ErrorKind::Checksum { section } => {
                write!(f, "index is corrupt: section `{section}` fails its checksum; {REBUILD}")
            }
            ErrorKind::MissingSection { section } => {
                write!(f, "index has no `{section}` section (built by an older wordhoard?); {REBUILD}")
            }
            ErrorKind::Io { path, action, source } => write!(f, "cannot {action} index {}: {source}", path.display()),
            ErrorKind::InvalidInput { param: Some(param), problem } => write!(f, "`{param}` {problem}"),
            ErrorKind::InvalidInput { param: None, problem } => f.write_str(problem),
            ErrorKind::Limit(msg) | ErrorKind::NoIndex(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.kind {
            ErrorKind::Io { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_keep_their_path_and_source() {
        let path = std::path::Path::new("/no/such/index.hoard");
        let err = Error::io(path, "open", std::io::Error::from(std::io::ErrorKind::NotFound));
        assert!(matches!(err.kind(), ErrorKind::Io { path: p, .. } if p == path));
        let source = std::error::Error::source(&err).expect("the io::Error");
        assert_eq!(source.downcast_ref::<std::io::Error>().unwrap().kind(), std::io::ErrorKind::NotFound);
        assert!(err.to_string().starts_with("cannot open index /no/such/index.hoard: "), "{err}");
        assert!(!err.is_bad_index() && !err.is_usage());
    }

    #[test]
    fn input_errors_name_their_parameter_as_a_field() {
        let err = Error::invalid_param("max_words", "must be 1 to 8");
        assert_eq!(err.param(), Some("max_words"));
        assert_eq!(err.to_string(), "`max_words` must be 1 to 8");
        assert!(err.is_usage() && !err.is_bad_index() && err.kind_name() == "invalid_input");
        let err = Error::invalid("the pattern is empty");
        assert_eq!((err.param(), err.to_string().as_str()), (None, "the pattern is empty"));
        assert_eq!(Error::corrupt("x").param(), None);
    }

    #[test]
    fn corruption_names_its_section() {
        let err = Error::corrupt_in("chains", "a table index is out of bounds");
        assert!(matches!(err.kind(), ErrorKind::Corrupt { section: Some("chains"), .. }));
        assert!(err.to_string().starts_with("index is corrupt in section `chains`: a table index"), "{err}");
        assert!(err.is_bad_index());
    }
}
