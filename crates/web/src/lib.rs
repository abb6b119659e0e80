//! wordhoard in JavaScript: `wordhoard-query` compiled to WebAssembly, the
//! engine of the npm package `wordhoard` (`crates/web/js`, built by `make
//! npm`) and so of the web page.
//!
//! The package hands an index file's bytes to [`Hoard::open`] and then asks
//! questions by command name and options ([`Hoard::answer`]; `ask` in JavaScript): every question
//! goes through the query library's request layer
//! ([`wordhoard_query::request`]), the one the CLI and the Python package
//! call, so each answer is the JSON `wordhoard --json` prints. JavaScript
//! numbers are exact only up to 2^53, so larger integers (Letter Boxed
//! counts) come as strings of digits ([`ExactInJs`]).
//!
//! The questions are plain Rust in [`Hoard`]'s inherent methods, tested
//! natively; the `#[wasm_bindgen]` block only renames them for JavaScript
//! and turns errors into exceptions whose message is a JSON object
//! `{"kind", "message"}`, from which the package throws `UsageError`,
//! `BadIndexError` or `LimitError`. An index is untrusted input here as
//! anywhere: its header and sections are checked on open and a damaged file
//! is an error, never a trap.

use serde_json::ser::{CompactFormatter, Formatter};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wordhoard_query::format::SectionId;
use wordhoard_query::request::{self, Request};
use wordhoard_query::{Error, ErrorKind, Index};

/// An open index, held in the page's (or Node's) memory.
#[wasm_bindgen]
pub struct Hoard {
    index: Index<Vec<u8>>,
}

/// The largest integer a JavaScript number holds exactly (2^53 - 1).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// JSON as serde_json writes it, but with every integer past
/// [`MAX_SAFE_INTEGER`] (either sign) as a string of its digits, so that
/// `JSON.parse` loses nothing: the answers' text is written straight from
/// their shapes through this, with no tree of values to walk first.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExactInJs;

impl ExactInJs {
    /// An integer past 2^53, as a string of its digits.
    fn quoted<W: ?Sized + std::io::Write>(w: &mut W, digits: impl std::fmt::Display) -> std::io::Result<()> {
        write!(w, "\"{digits}\"")
    }
}

// Safe integers are written as serde_json writes them (no allocation a
// number: a bee solve writes one a word); only the rare big one is quoted.
impl Formatter for ExactInJs {
    fn write_i64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, value: i64) -> std::io::Result<()> {
        match value.unsigned_abs() <= MAX_SAFE_INTEGER {
            true => CompactFormatter.write_i64(w, value),
            false => ExactInJs::quoted(w, value),
        }
    }
    fn write_u64<W: ?Sized + std::io::Write>(&mut self, w: &mut W, value: u64) -> std::io::Result<()> {
        match value <= MAX_SAFE_INTEGER {
            true => CompactFormatter.write_u64(w, value),
            false => ExactInJs::quoted(w, value),
        }
    }
    fn write_i128<W: ?Sized + std::io::Write>(&mut self, w: &mut W, value: i128) -> std::io::Result<()> {
        match value.unsigned_abs() <= MAX_SAFE_INTEGER as u128 {
            true => CompactFormatter.write_i128(w, value),
            false => ExactInJs::quoted(w, value),
        }
    }
    fn write_u128<W: ?Sized + std::io::Write>(&mut self, w: &mut W, value: u128) -> std::io::Result<()> {
        match value <= MAX_SAFE_INTEGER as u128 {
            true => CompactFormatter.write_u128(w, value),
            false => ExactInJs::quoted(w, value),
        }
    }
    /// A number of a [`Value`] (kept as its digits): an integer past
    /// 2^53 as a string; a fraction as it is.
    fn write_number_str<W: ?Sized + std::io::Write>(&mut self, w: &mut W, value: &str) -> std::io::Result<()> {
        let integer = !value.contains(['.', 'e', 'E']);
        match !integer || value.parse::<i128>().is_ok_and(|n| n.unsigned_abs() <= MAX_SAFE_INTEGER as u128) {
            true => CompactFormatter.write_number_str(w, value),
            false => ExactInJs::quoted(w, value),
        }
    }
}

/// What kind of exception an error becomes in JavaScript.
pub fn error_kind(e: &Error) -> &'static str {
    match e.kind() {
        ErrorKind::InvalidInput { .. } => "usage",
        ErrorKind::Limit(_) => "limit",
        _ if e.is_bad_index() => "bad_index",
        _ => "error",
    }
}

impl Hoard {
    /// Opens an index from its bytes: checks the header, the section
    /// table and every section's checksum. A reader elsewhere checks each
    /// checksum on a section's first use; here they are all checked now,
    /// so a download that went wrong is one message at load, and no first
    /// query pays for a checksum.
    pub fn open(bytes: Vec<u8>) -> Result<Hoard, Error> {
        let index = Index::from_bytes(bytes)?;
        for id in SectionId::ALL {
            if index.has_section(id) {
                index.section(id)?;
            }
        }
        Ok(Hoard { index })
    }

    /// [`Hoard::answer`] as the JSON text JavaScript gets: big integers
    /// as strings ([`ExactInJs`]).
    pub fn answer_text(&self, command: &str, args: &Value) -> Result<String, Error> {
        Request::parse(command, args)?.answer_into(&self.index, None, request::Text(ExactInJs))
    }

    /// The request layer's answer to `command` with `args` (an object by
    /// long-flag name, `-` as `_`): what `wordhoard --json` prints.
    pub fn answer(&self, command: &str, args: &Value) -> Result<Value, Error> {
        Request::parse(command, args)?.answer(&self.index, None)
    }

    /// Which of `words` are on the index's common list.
    pub fn common_words(&self, words: &[String]) -> Result<Vec<String>, Error> {
        request::common_words(&self.index, words)
    }
}

/// An error as a JavaScript exception: its message is `{"kind", "message"}`.
fn thrown(e: Error) -> JsError {
    let (kind, message) = (error_kind(&e), e.to_string());
    let info = match e.kind() {
        // An input error's parameter apart, for the package to name as
        // its option (`max_words` is `maxWords` there).
        ErrorKind::InvalidInput { param: Some(param), problem } => {
            json!({"kind": kind, "message": message, "param": param, "problem": problem})
        }
        _ => json!({"kind": kind, "message": message}),
    };
    JsError::new(&info.to_string())
}

/// The JavaScript names: JSON text in and out (the package parses it).
#[wasm_bindgen]
impl Hoard {
    /// Opens an index from the bytes of an index file.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: Vec<u8>) -> Result<Hoard, JsError> {
        Hoard::open(bytes).map_err(thrown)
    }

    /// Answers `command` (`"bee solve"`, ...) with `args`, a JSON object by
    /// long-flag name; the answer as JSON text, big integers as strings.
    #[wasm_bindgen(js_name = ask)]
    pub fn js_ask(&self, command: &str, args: &str) -> Result<String, JsError> {
        let args: Value = serde_json::from_str(args).map_err(|e| thrown(Error::invalid(format!("{command}: {e}"))))?;
        self.answer_text(command, &args).map_err(thrown)
    }

    /// Which of `words` (a JSON array of strings) are common, as a JSON array.
    #[wasm_bindgen(js_name = commonWords)]
    pub fn js_common_words(&self, words: &str) -> Result<String, JsError> {
        let words: Vec<String> =
            serde_json::from_str(words).map_err(|e| thrown(Error::invalid(format!("words: {e}"))))?;
        self.common_words(&words).map(|w| json!(w).to_string()).map_err(thrown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_js(value: &impl serde::Serialize) -> Value {
        let mut text = Vec::new();
        value.serialize(&mut serde_json::Serializer::with_formatter(&mut text, ExactInJs)).unwrap();
        serde_json::from_slice(&text).unwrap()
    }

    #[test]
    fn big_integers_become_strings_and_small_ones_stay() {
        let big: u128 = 1 << 60;
        let safe = MAX_SAFE_INTEGER;
        // From a `Value` (numbers kept as digits) and from typed fields.
        let v =
            in_js(&json!({"count": big, "n": 12, "neg": -5, "f": 1.5, "list": [safe + 1, safe], "low": -(1i64 << 60)}));
        let want = json!({"count": big.to_string(), "n": 12, "neg": -5, "f": 1.5, "list": ["9007199254740992", safe],
                          "low": (-(1i64 << 60)).to_string()});
        assert_eq!(v, want);
        #[derive(serde::Serialize)]
        struct Typed {
            count: u128,
            n: u64,
            big: u64,
            neg: i64,
            wide: i128,
        }
        let typed = Typed { count: big, n: safe, big: safe + 1, neg: -(safe as i64) - 1, wide: -(big as i128) };
        let want = json!({"count": big.to_string(), "n": safe, "big": (safe + 1).to_string(),
                          "neg": (-(safe as i64) - 1).to_string(), "wide": (-(big as i128)).to_string()});
        assert_eq!(in_js(&typed), want);
    }
}
