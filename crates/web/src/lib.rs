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
//! counts) come as strings of digits ([`exact_in_js`]).
//!
//! The questions are plain Rust in [`Hoard`]'s inherent methods, tested
//! natively; the `#[wasm_bindgen]` block only renames them for JavaScript
//! and turns errors into exceptions whose message is a JSON object
//! `{"kind", "message"}`, from which the package throws `UsageError`,
//! `BadIndexError` or `LimitError`. An index is untrusted input here as
//! anywhere: its header and sections are checked on open and a damaged file
//! is an error, never a trap.

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

/// `value` with every integer past [`MAX_SAFE_INTEGER`] (either sign) as a
/// string of its digits, so that `JSON.parse` loses nothing.
pub fn exact_in_js(value: Value) -> Value {
    match value {
        Value::Number(n) => {
            let safe = n.as_u64().is_some_and(|u| u <= MAX_SAFE_INTEGER)
                || n.as_i64().is_some_and(|i| i.unsigned_abs() <= MAX_SAFE_INTEGER);
            let text = n.to_string();
            if safe || text.contains(['.', 'e', 'E']) {
                Value::Number(n)
            } else {
                Value::String(text)
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(exact_in_js).collect()),
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, exact_in_js(v))).collect()),
        other => other,
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
        self.answer(command, &args).map(|v| exact_in_js(v).to_string()).map_err(thrown)
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

    #[test]
    fn big_integers_become_strings_and_small_ones_stay() {
        let big: u128 = 1 << 60;
        let v = exact_in_js(json!({"count": big, "n": 12, "neg": -5, "f": 1.5, "list": [MAX_SAFE_INTEGER + 1]}));
        assert_eq!(v, json!({"count": big.to_string(), "n": 12, "neg": -5, "f": 1.5, "list": ["9007199254740992"]}));
    }
}
