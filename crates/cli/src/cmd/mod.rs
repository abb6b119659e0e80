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
use serde_json::Value;
use wordhoard_query::request::{self, Query};
use wordhoard_query::{Error, ErrorKind, FileBytes, Index};

use crate::locate::{self, How, IndexChoice, DEFAULT_NAME};

/// The index a command reads.
pub type Idx = Index<FileBytes>;

/// An error that is the user's input: exit status 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Context on an error whose command already printed its JSON answer
/// (`verify --json` with `"ok": false`): no error document follows it.
#[derive(Debug)]
pub struct AnswerShown;

impl std::fmt::Display for AnswerShown {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

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
            let missing = choice.missing();
            let build = match &choice.how {
                How::Path(_) => format!("wordhoard build WORDLIST -o {}", choice.path.display()),
                How::Named { name, .. } if name == DEFAULT_NAME => {
                    format!("wordhoard build WORDLIST --name {name} (or `make demo` in a wordhoard checkout)")
                }
                How::Named { name, .. } => format!("wordhoard build WORDLIST --name {name}"),
            };
            return Err(anyhow::Error::new(missing.clone()).context(format!("{missing}; build it with: {build}")));
        }
        let opened = if self.no_mmap { Index::read(&choice.path) } else { Index::open(&choice.path) };
        // The path as context, the library's error kept as the cause (so
        // `--json` can name its kind).
        opened.map_err(|e| match e.kind() {
            ErrorKind::Io { .. } => anyhow!(e),
            _ => anyhow::Error::new(e).context(choice.path.display().to_string()),
        })
    }
}

/// The CLI's name for a parameter the libraries name in an input error:
/// its flag (`max_words` is `--max-words`), or for an argument its plain
/// name. The one place the libraries' API names meet the CLI's flags.
pub fn flag_of(param: &str) -> String {
    match param {
        "score.min" => "--min-score".into(),
        "words.min" => "--min-words".into(),
        "side_count" => "--sides".into(),
        "output" => "-o".into(),
        // Arguments, not flags.
        "letters" | "sides" | "word" | "k" => param.into(),
        flag => format!("--{}", flag.replace('_', "-")),
    }
}

/// An input error's message as the CLI says it: the parameter as its flag.
pub fn input_message(param: Option<&str>, problem: &str) -> String {
    match param {
        Some(param) => format!("{} {problem}", flag_of(param)),
        None => problem.to_string(),
    }
}

/// Turns a query error into an anyhow error: an input error becomes a
/// usage error (exit 2) naming the flag; the rest keep their kind.
pub fn query_err(e: Error) -> anyhow::Error {
    match e.kind() {
        ErrorKind::InvalidInput { param, problem } => anyhow::Error::new(UsageError(input_message(*param, problem))),
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
    if ctx.json {
        return crate::output::emit_json_text(request::answer_text(q, index, &out).map_err(query_err)?);
    }
    if index.has_spellings() {
        // The words of the text as the lists spelled them: the same
        // spellings the JSON shows, put in place of their folded words.
        let json = request::answer_json(q, index, &out).map_err(query_err)?;
        let spelled = spellings_in(&json);
        return crate::output::emit(false, Value::default, |s| {
            let mut plain = String::new();
            text(&mut plain, &out);
            s.push_str(&respell_text(&plain, &spelled));
        });
    }
    crate::output::emit(false, Value::default, |s| text(s, &out))
}

/// The spellings an answer's JSON shows ([`request::respell`]): folded
/// word to spelling, from its `"folded"` object and its respelled `"word"`s.
pub fn spellings_in(json: &Value) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    if let Some(folded) = json.get("folded").and_then(Value::as_object) {
        for (spelled, word) in folded {
            if let Some(word) = word.as_str() {
                out.insert(word.to_string(), spelled.clone());
            }
        }
    }
    // Objects with a "word" and its "folded" form, at any depth.
    let mut stack = vec![json];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                if let (Some(Value::String(spelled)), Some(Value::String(word))) = (o.get("word"), o.get("folded")) {
                    out.insert(word.clone(), spelled.clone());
                }
                stack.extend(o.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    out
}

/// `text` with each run of letters that is a folded word (or one in
/// capitals, as `bee check` prints guesses) replaced by its spelling.
/// Spellings have as many letters as their words, so columns stay.
pub fn respell_text(text: &str, spelled: &std::collections::HashMap<String, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if let Some(s) = spelled.get(run.as_str()) {
            out.push_str(s);
        } else if let Some(s) = spelled.get(&run.to_lowercase()).filter(|_| run.chars().all(char::is_uppercase)) {
            out.push_str(&s.to_uppercase());
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_alphabetic() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// A usage error (exit 2).
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(msg.into()))
}
