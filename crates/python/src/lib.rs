//! wordhoard for Python: `wordhoard._native`, the extension module under
//! the `wordhoard` package (`python/wordhoard/__init__.py` gives it its
//! Pythonic face: namespaces, keyword arguments, docstrings).
//!
//! Every question goes through the query library's request layer
//! ([`wordhoard_query::request`]), the same one the CLI and the web page
//! call: keyword arguments become the request's JSON object, and the answer
//! is the JSON value `wordhoard --json` prints, turned into Python objects.
//! This module adds nothing to the rules; it only converts values, releases
//! the GIL while a query runs, and turns errors (and panics, which should
//! never happen) into Python exceptions.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};

use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyRuntimeError, PyTypeError,
};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple, PyType};
use serde_json::{Map, Value};
use wordhoard_builder::{BuildError, BuildErrorKind, BuildFlags, OutputProblem, WordSource};
use wordhoard_query::request::{self, Request};
use wordhoard_query::{folder, Error, ErrorKind, FileBytes, Index};

/// The exception classes, defined in Python (`wordhoard/__init__.py`) so
/// that `UsageError` can also be a `ValueError`; registered at import.
struct Errors {
    usage: Py<PyType>,
    bad_index: Py<PyType>,
    limit: Py<PyType>,
    error: Py<PyType>,
}

static ERRORS: PyOnceLock<Errors> = PyOnceLock::new();

/// A failure on the Rust side, turned into an exception once the GIL is held.
enum Failure {
    Query(Error),
    Build(BuildError),
    Panic(String),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Query(e)
    }
}

impl From<BuildError> for Failure {
    fn from(e: BuildError) -> Failure {
        Failure::Build(e)
    }
}

fn raise(py: Python<'_>, class: impl Fn(&Errors) -> &Py<PyType>, msg: String) -> PyErr {
    match ERRORS.get(py) {
        Some(errors) => PyErr::from_type(class(errors).bind(py).clone(), msg),
        None => PyRuntimeError::new_err(msg),
    }
}

/// A usage error with the parameter at fault as its `param` attribute
/// (the keyword argument's name, `max_words`), as the library names it.
fn with_param(py: Python<'_>, err: PyErr, param: Option<&'static str>) -> PyErr {
    if let Some(param) = param {
        // Setting an attribute on a fresh exception fails only on memory.
        let _ = err.value(py).setattr("param", param);
    }
    err
}

fn os_error(kind: std::io::ErrorKind, msg: String) -> PyErr {
    match kind {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(msg),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(msg),
        std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(msg),
        _ => PyOSError::new_err(msg),
    }
}

impl Failure {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Query(e) => {
                let msg = e.to_string();
                match e.kind() {
                    ErrorKind::InvalidInput { param, .. } => with_param(py, raise(py, |e| &e.usage, msg), *param),
                    ErrorKind::Limit(_) => raise(py, |e| &e.limit, msg),
                    ErrorKind::Io { source, .. } => os_error(source.kind(), msg),
                    ErrorKind::NoIndex(_) => PyFileNotFoundError::new_err(msg),
                    _ if e.is_bad_index() => raise(py, |e| &e.bad_index, msg),
                    _ => raise(py, |e| &e.error, msg),
                }
            }
            Failure::Build(e) => {
                let msg = e.to_string();
                match e.kind() {
                    BuildErrorKind::InvalidInput { param, .. } => with_param(py, raise(py, |e| &e.usage, msg), *param),
                    BuildErrorKind::Alphabet(_) | BuildErrorKind::NoSources => raise(py, |e| &e.usage, msg),
                    BuildErrorKind::ReadList { source, .. } => os_error(source.kind(), msg),
                    BuildErrorKind::Write { source, .. } => os_error(source.kind(), msg),
                    BuildErrorKind::ListIsFolder { .. } => PyIsADirectoryError::new_err(msg),
                    BuildErrorKind::Output { problem: OutputProblem::IsFolder, .. } => {
                        PyIsADirectoryError::new_err(msg)
                    }
                    BuildErrorKind::Output { .. } => PyOSError::new_err(msg),
                    BuildErrorKind::TooLarge(_) => raise(py, |e| &e.limit, msg),
                    _ => raise(py, |e| &e.error, msg),
                }
            }
            Failure::Panic(msg) => {
                raise(py, |e| &e.error, format!("internal error in wordhoard: {msg}; please report it"))
            }
        }
    }
}

/// Runs `f` without the GIL, a panic caught and returned as a failure.
fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> Result<T, Failure> + Send) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| Err(Failure::Panic(panic_text(p.as_ref())))))
        .map_err(|f| f.into_py(py))
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default()
}

/// A Python value (keyword arguments) as JSON. Sets and tuples are lists.
fn to_json(v: &Bound<'_, PyAny>) -> PyResult<Value> {
    nested_json(v, 0)
}

/// How deep arguments may nest: every request is an object of strings,
/// numbers and lists of strings; a list a thousand lists deep would
/// otherwise recurse until the stack ran out.
const MAX_ARG_DEPTH: usize = 8;

fn nested_json(v: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > MAX_ARG_DEPTH {
        return Err(PyErr::from_type(
            usage_class(v.py()),
            "arguments nest too deeply: give strings, numbers or lists of strings",
        ));
    }
    if v.is_none() {
        Ok(Value::Null)
    } else if v.is_instance_of::<PyBool>() {
        Ok(Value::Bool(v.extract()?))
    } else if v.is_instance_of::<PyInt>() {
        if let Ok(n) = v.extract::<i64>() {
            Ok(n.into())
        } else if let Ok(n) = v.extract::<u64>() {
            Ok(n.into())
        } else {
            Err(PyErr::from_type(usage_class(v.py()), format!("{} is too large a number here", v.str()?)))
        }
    } else if v.is_instance_of::<PyFloat>() {
        Ok(serde_json::Number::from_f64(v.extract()?).map_or(Value::Null, Value::Number))
    } else if let Ok(s) = v.cast::<PyString>() {
        Ok(Value::String(s.extract::<String>()?))
    } else if let Ok(d) = v.cast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            if !v.is_none() {
                m.insert(k.str()?.extract::<String>()?, nested_json(&v, depth + 1)?);
            }
        }
        Ok(Value::Object(m))
    } else if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        v.try_iter()?.map(|item| nested_json(&item?, depth + 1)).collect::<PyResult<Vec<_>>>().map(Value::Array)
    } else {
        Err(PyTypeError::new_err(format!("wordhoard cannot take a {} here", v.get_type().name()?)))
    }
}

fn usage_class(py: Python<'_>) -> Bound<'_, PyType> {
    match ERRORS.get(py) {
        Some(e) => e.usage.bind(py).clone(),
        None => py.get_type::<pyo3::exceptions::PyValueError>(),
    }
}

/// An answer made Python objects straight from its JSON shape, the GIL
/// taken for the making only (the question is answered without it).
struct ToPython;

impl request::AnswerSink for ToPython {
    type Out = PyResult<Py<PyAny>>;
    fn take<S: serde::Serialize + ?Sized>(self, shape: &S) -> wordhoard_query::Result<Self::Out> {
        Ok(Python::attach(|py| pythonize::pythonize(py, shape).map(Bound::unbind).map_err(PyErr::from)))
    }
}

/// Drops an answer's shape unmade: what [`NativeIndex::time_ask`] times
/// is the question alone.
struct Discard;

impl request::AnswerSink for Discard {
    type Out = ();
    fn take<S: serde::Serialize + ?Sized>(self, shape: &S) -> wordhoard_query::Result<()> {
        std::hint::black_box(shape);
        Ok(())
    }
}

/// A JSON answer as Python objects: numbers past 64 bits (Letter Boxed
/// counts) become Python ints exactly.
fn to_py(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    Converter { py, keys: HashMap::new() }.convert(v)
}

/// Makes Python objects of a JSON value, each distinct object key made
/// once: an answer repeats a few keys (`word`, `score`) hundreds of times,
/// and making them is most of the cost under the GIL.
struct Converter<'py, 'v> {
    py: Python<'py>,
    keys: HashMap<&'v str, Bound<'py, PyString>>,
}

impl<'py, 'v> Converter<'py, 'v> {
    fn convert(&mut self, v: &'v Value) -> PyResult<Py<PyAny>> {
        let py = self.py;
        Ok(match v {
            Value::Null => py.None(),
            Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    i.into_pyobject(py)?.into_any().unbind()
                } else if let Some(u) = n.as_u64() {
                    u.into_pyobject(py)?.into_any().unbind()
                } else {
                    let text = n.to_string();
                    if text.contains(['.', 'e', 'E']) {
                        n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any().unbind()
                    } else {
                        py.get_type::<PyInt>().call1((text,))?.unbind()
                    }
                }
            }
            Value::String(s) => PyString::new(py, s).into_any().unbind(),
            Value::Array(items) => {
                let items = items.iter().map(|item| self.convert(item)).collect::<PyResult<Vec<_>>>()?;
                PyList::new(py, items)?.into_any().unbind()
            }
            Value::Object(m) => {
                let dict = PyDict::new(py);
                for (k, v) in m {
                    let key = self.keys.entry(k.as_str()).or_insert_with(|| PyString::new(py, k)).clone();
                    dict.set_item(key, self.convert(v)?)?;
                }
                dict.into_any().unbind()
            }
        })
    }
}

/// An open index: a memory map of the file, or bytes in memory. Shared
/// freely between threads; the map lives as long as any object using it.
#[pyclass(module = "wordhoard._native", frozen)]
struct NativeIndex {
    index: Arc<Index<FileBytes>>,
    /// The file it was read from (`info` and `verify` name it).
    path: Option<String>,
}

#[pymethods]
impl NativeIndex {
    /// Opens NAME (an index in the index folder) or a path; `None`:
    /// `$WORDHOARD_INDEX`, else `enable1`. The CLI's lookup.
    #[staticmethod]
    #[pyo3(signature = (name_or_path=None, mmap=true))]
    fn open(py: Python<'_>, name_or_path: Option<PathBuf>, mmap: bool) -> PyResult<NativeIndex> {
        detached(py, move || {
            let choice = folder::choose(name_or_path.as_deref().map(|p| p.as_os_str()))?;
            if !choice.path.exists() {
                return Err(choice.missing().into());
            }
            let index = if mmap { Index::open(&choice.path)? } else { Index::read(&choice.path)? };
            Ok(NativeIndex { index: Arc::new(index), path: Some(choice.path.display().to_string()) })
        })
    }

    /// An index from the bytes of an index file (copied).
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: Vec<u8>) -> PyResult<NativeIndex> {
        detached(py, move || Ok(NativeIndex { index: Arc::new(Index::from_bytes(FileBytes::Read(data))?), path: None }))
    }

    /// The file the index was read from, or `None` for bytes.
    #[getter]
    fn path(&self) -> Option<String> {
        self.path.clone()
    }

    /// Answers `command` (`"bee solve"`, ...) with `args` (a dict by long
    /// flag name): the dict `wordhoard --json` prints, made from the
    /// answer's shape with no JSON value between (a `bee solve` of 537
    /// words: 173 us, against 290 through a `serde_json::Value`).
    fn ask(&self, py: Python<'_>, command: &str, args: &Bound<'_, PyDict>) -> PyResult<Py<PyAny>> {
        let args = to_json(args.as_any())?;
        let (index, path, command) = (Arc::clone(&self.index), self.path.clone(), command.to_string());
        detached(py, move || {
            Ok(Request::parse(&command, &args)?.answer_into(index.as_ref(), path.as_deref(), ToPython)?)
        })?
    }

    /// `verify --json`, with `deep`: every table rebuilt and compared too.
    fn verify(&self, py: Python<'_>, deep: bool) -> PyResult<Py<PyAny>> {
        let (index, path) = (Arc::clone(&self.index), self.path.clone());
        let answer = detached(py, move || {
            let (checks, deep) = wordhoard_builder::verify_all(index.as_ref(), deep)?;
            Ok(wordhoard_builder::verify_json(&checks, deep.as_deref(), path.as_deref()))
        })?;
        to_py(py, &answer)
    }

    /// Seconds that `times` answers to `command` take in Rust alone (the
    /// request parsed and answered, no Python objects made): what the
    /// benchmark sets the package's per-call cost against.
    fn time_ask(&self, py: Python<'_>, command: &str, args: &Bound<'_, PyDict>, times: u32) -> PyResult<f64> {
        let args = to_json(args.as_any())?;
        let (index, command) = (Arc::clone(&self.index), command.to_string());
        detached(py, move || {
            let start = std::time::Instant::now();
            for _ in 0..times {
                std::hint::black_box(Request::parse(&command, &args)?.answer_into(index.as_ref(), None, Discard)?);
            }
            Ok(start.elapsed().as_secs_f64())
        })
    }

    /// Streams the items of a listing command: `"boxed solve"` (solutions),
    /// `"find"` (words), `"anagram"` (the answer's listed items), under the
    /// same bounds as the CLI; a thread answers ahead by a few items.
    fn stream(&self, py: Python<'_>, command: &str, args: &Bound<'_, PyDict>) -> PyResult<Stream> {
        let args = to_json(args.as_any())?;
        // Bad arguments raise here, not at the first item.
        let request = detached(py, || Ok(Request::parse(command, &args)?))?;
        let index = Arc::clone(&self.index);
        let (send, receive) = mpsc::sync_channel::<Result<Value, Failure>>(STREAM_AHEAD);
        std::thread::Builder::new()
            .name("wordhoard-stream".into())
            .spawn(move || {
                let fed = catch_unwind(AssertUnwindSafe(|| feed(&index, &request, &send)))
                    .unwrap_or_else(|p| Err(Failure::Panic(panic_text(p.as_ref()))));
                if let Err(f) = fed {
                    let _ = send.send(Err(f));
                }
            })
            .map_err(|e| PyOSError::new_err(format!("cannot start a thread: {e}")))?;
        // The first item is awaited here, so that an error in the
        // arguments (a bad pattern, a box too large) raises at the call.
        let (receive, first) = py.detach(move || {
            let first = receive.recv();
            (receive, first)
        });
        let first = match first {
            Ok(Ok(v)) => Some(v),
            Ok(Err(f)) => return Err(f.into_py(py)),
            Err(_) => None,
        };
        Ok(Stream { receive: std::sync::Mutex::new(first.is_some().then_some(receive)), first: Mutex::new(first) })
    }
}

/// Items a stream's thread may answer ahead of the reader.
const STREAM_AHEAD: usize = 64;

/// Sends each item of `request`'s listing until it ends or the reader
/// goes away (a send fails: the thread stops).
fn feed(
    index: &Index<FileBytes>,
    request: &Request,
    send: &mpsc::SyncSender<Result<Value, Failure>>,
) -> Result<(), Failure> {
    use std::ops::ControlFlow;
    let mut gone = false;
    match request {
        Request::BoxedSolve(q) => {
            let (counts, mut solver) = q.start(index)?;
            let mut n = 0u128;
            if counts.listed > 0 {
                let _ = solver.each_solution(|words| {
                    n += 1;
                    let item = Value::from(words.iter().map(|w| Value::from(w.word)).collect::<Vec<_>>());
                    gone = send.send(Ok(item)).is_err();
                    if gone || n == counts.listed {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })?;
            }
        }
        Request::Find(q) => {
            // The walk stops at the limit, or when the reader is gone: a
            // stream need not count what it will not list.
            let limit = request::all_if_zero(q.limit);
            let mut n = 0usize;
            q.each_while(index, |word, _| {
                n += 1;
                gone = send.send(Ok(Value::from(word))).is_err();
                if gone || n == limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })?;
        }
        Request::Anagram(_) => {
            let answer = request.answer(index, None)?;
            let items = answer.get("words").or_else(|| answer.get("anagrams")).cloned().unwrap_or_default();
            for item in items.as_array().into_iter().flatten() {
                if send.send(Ok(item.clone())).is_err() {
                    break;
                }
            }
        }
        _ => {
            let msg = "only `boxed solve`, `find` and `anagram` can be streamed";
            return Err(Failure::Query(Error::invalid(msg)));
        }
    }
    Ok(())
}

/// The items of a listing, read lazily: an iterator.
#[pyclass(module = "wordhoard._native")]
struct Stream {
    receive: Mutex<Option<mpsc::Receiver<Result<Value, Failure>>>>,
    /// The first item, received when the stream was made.
    first: Mutex<Option<Value>>,
}

#[pymethods]
impl Stream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        if let Some(first) = self.first.lock().ok().and_then(|mut f| f.take()) {
            return to_py(py, &first).map(Some);
        }
        // The receiver is taken out while this thread waits without the
        // GIL, and put back after: a stream is read by one thread at a time.
        let taken = self.receive.lock().map_err(|_| PyRuntimeError::new_err("a wordhoard stream was poisoned"))?.take();
        let Some(receive) = taken else { return Ok(None) };
        let (receive, next) = py.detach(move || {
            let next = receive.recv();
            (receive, next)
        });
        let item = match next {
            Ok(Ok(v)) => v,
            Ok(Err(f)) => return Err(f.into_py(py)),
            Err(_) => return Ok(None),
        };
        if let Ok(mut guard) = self.receive.lock() {
            *guard = Some(receive);
        }
        to_py(py, &item).map(Some)
    }

    /// Stops the stream's thread (it stops by itself when the stream is
    /// dropped, too).
    fn close(&self) {
        if let Ok(mut guard) = self.receive.lock() {
            *guard = None;
        }
        if let Ok(mut first) = self.first.lock() {
            *first = None;
        }
    }
}

/// Builds an index: `lists` are paths, `words` (when given) the words of
/// one more list named `words_name`. Returns the report `wordhoard build
/// --json` prints.
#[pyfunction]
#[pyo3(signature = (lists, words=None, words_name=None, name=None, output=None, common=None, exclude=Vec::new(),
                    alphabet="auto".to_string(), fold="none".to_string(), keep=None, force=false,
                    proper_nouns="auto".to_string(), endings=true, letter_groups=None))]
#[allow(clippy::too_many_arguments)]
fn build(
    py: Python<'_>,
    lists: Vec<PathBuf>,
    words: Option<Vec<String>>,
    words_name: Option<String>,
    name: Option<String>,
    output: Option<PathBuf>,
    common: Option<PathBuf>,
    exclude: Vec<PathBuf>,
    alphabet: String,
    fold: String,
    keep: Option<String>,
    force: bool,
    proper_nouns: String,
    endings: bool,
    letter_groups: Option<bool>,
) -> PyResult<Py<PyAny>> {
    let report = detached(py, move || {
        let started = std::time::Instant::now();
        let mut sources: Vec<WordSource> = lists.into_iter().map(WordSource::File).collect();
        if let Some(words) = words {
            let list_name = words_name.or_else(|| name.clone()).unwrap_or_else(|| "words".into());
            sources.push(WordSource::from_text(&list_name, &words.join("\n")));
        }
        let flags = BuildFlags {
            lists: sources,
            name,
            common: common.map(WordSource::File),
            exclude: exclude.into_iter().map(WordSource::File).collect(),
            alphabet,
            fold,
            keep,
            proper_nouns,
            endings,
            letter_groups,
        };
        let opts = flags.options()?;
        let out = match output {
            Some(out) => out,
            None => flags.in_index_folder()?.0,
        };
        let out = wordhoard_builder::check_output(&out, &flags.inputs(), force)?;
        let built = wordhoard_builder::build_index(&flags.lists, &opts)?;
        wordhoard_builder::write_atomically(&out, built.file, &wordhoard_builder::PublishOptions::default())?;
        Ok(wordhoard_builder::report_json(&built.report, &out, started.elapsed().as_secs_f64()))
    })?;
    to_py(py, &report)
}

/// Registers the exception classes the package defines.
#[pyfunction]
fn _register_errors(
    py: Python<'_>,
    error: Py<PyType>,
    usage: Py<PyType>,
    bad_index: Py<PyType>,
    limit: Py<PyType>,
) -> PyResult<()> {
    let _ = ERRORS.set(py, Errors { usage, bad_index, limit, error });
    Ok(())
}

/// The request layer's commands, as the CLI spells them.
#[pyfunction]
fn commands() -> Vec<&'static str> {
    request::COMMANDS.to_vec()
}

/// The folder named indexes live in (`$WORDHOARD_HOME`, else the
/// platform's data folder).
#[pyfunction]
fn index_folder(py: Python<'_>) -> PyResult<String> {
    detached(py, || Ok(folder::IndexFolder::find()?.path.display().to_string()))
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeIndex>()?;
    m.add_class::<Stream>()?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    m.add_function(wrap_pyfunction!(_register_errors, m)?)?;
    m.add_function(wrap_pyfunction!(commands, m)?)?;
    m.add_function(wrap_pyfunction!(index_folder, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
