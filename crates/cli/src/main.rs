//! `wordhoard`: compile a word list once, answer word puzzles instantly.
//!
//! The binary is glue: clap parses, a `cmd` module turns arguments into a
//! query on `wordhoard-query`, and `output` prints text or JSON. Exit
//! status: 0 success, 2 usage error, 1 anything else. A usage error that
//! clap finds is clap's whole message (what is missing, "a similar
//! argument exists"); every other error is one line on stderr starting
//! `error:`.

// `unsafe` only in `malloc` (the allocator, and its tuning for a build and a
// query) and `stop` (a query's signal handler).
#![deny(unsafe_code)]

mod cmd;
mod locate;
mod malloc;
mod output;
mod stop;

/// The system's allocator, advising huge pages for a build's large blocks.
#[global_allocator]
static ALLOCATOR: malloc::Allocator = malloc::Allocator;

use std::ffi::OsString;
use std::io::ErrorKind as IoKind;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use cmd::UsageError;

/// Compile a word list once into an index file, then answer Spelling Bee,
/// Letter Boxed and Anigrams questions from it instantly.
#[derive(Parser)]
#[command(name = "wordhoard", version, propagate_version = true, max_term_width = 100)]
#[command(after_help = "Start with: wordhoard build enable1.txt --common popular.txt (writes enable1, the default \
                         index, into the index folder), or `make demo` in a wordhoard checkout.\n\
                         The index folder is $WORDHOARD_HOME, else the platform's data folder \
                         (~/.local/share/wordhoard on Linux); `wordhoard list` shows what it holds.\n\
                         --top N and --limit N count what is listed; 0 lists all. \
                         Exit status: 0 success, 1 error, 2 usage error.")]
pub struct Cli {
    /// The index to read (for build: to write, unless -o): a path, or a NAME
    /// (no `/`, no `.hoard`) in the index folder [default: $WORDHOARD_INDEX, else enable1]
    #[arg(long, global = true, help_heading = "Global options", value_name = "PATH|NAME")]
    index: Option<OsString>,
    /// Print one JSON document on stdout instead of text
    #[arg(long, global = true, help_heading = "Global options")]
    json: bool,
    /// Stop the command after SECS seconds, with an error (exit 1)
    #[arg(long, global = true, help_heading = "Global options", value_name = "SECS", value_parser = parse_timeout)]
    timeout: Option<f64>,
    /// Read the index into memory instead of mapping it (for a file that
    /// another program may change while it is read)
    #[arg(long, global = true, help_heading = "Global options")]
    no_mmap: bool,
    /// Colour text output: auto (on a terminal, unless NO_COLOR is set), always, never
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_name = "WHEN",
        default_value = "auto",
        hide_possible_values = true
    )]
    color: output::ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile word lists into an index file
    Build(cmd::build::Args),
    /// List the indexes in the index folder
    List(cmd::info::ListArgs),
    /// Show the index's header, metadata and statistics
    Info,
    /// Check every section's checksum and structure (`--deep`: and rebuild every table to compare)
    Verify(cmd::info::VerifyArgs),
    /// NYT Spelling Bee: solve, report, best, stats, generate, hints
    #[command(subcommand)]
    Bee(cmd::bee::Command),
    /// NYT Letter Boxed: solutions with the fewest words (`boxed SIDE...` solves)
    Boxed(cmd::boxed::Args),
    /// Anigrams: unscramble, longest chain, count games, top, generate
    #[command(subcommand)]
    Anigram(cmd::anigram::Command),
    /// Words matching a crossword pattern: `c?t`, `*ing`, `[aeiou]?[^s]`
    Find(cmd::find::Args),
    /// Anagrams of letters (`?` a blank), of some of them (--sub), or of a phrase in words (--words)
    Anagram(cmd::anagram::Args),
    /// Print a shell's completion script
    #[command(
        after_help = "Example: wordhoard completions bash > ~/.local/share/bash-completion/completions/wordhoard\n\
                            \x20        wordhoard completions zsh > ~/.zfunc/_wordhoard   (a folder on $fpath)\n\
                            `make install` installs them for bash, zsh and fish."
    )]
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
    /// Print the man page, or write every page (one per command) into a folder
    #[command(after_help = "Example: wordhoard man | man -l -\n\
                            \x20        wordhoard man --dir ~/.local/share/man/man1   (wordhoard.1, wordhoard-bee.1, ...)")]
    Man {
        /// Write wordhoard.1 and a page per command into DIR instead
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    // A panic is a bug; still, the user gets one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let at = info.location().map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        eprintln!("error: internal error{at}; please report it (wordhoard {})", env!("CARGO_PKG_VERSION"));
    }));
    let parsed =
        Cli::command().color(clap_color(std::env::args_os())).try_get_matches().and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return clap_error(e, std::env::args_os().any(|a| a == "--json")),
    };
    output::set_look(output::Look::for_stdout(cli.color));
    let json = cli.json;
    let result = run(cli);
    stop::clear_progress();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => report(e, json),
    }
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs <= 1e9 => Ok(secs),
        _ => Err(format!("`{text}` is not a number of seconds above 0, like 2.5")),
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let ctx = cmd::Context { index: cli.index, json: cli.json, no_mmap: cli.no_mmap };
    if !matches!(cli.command, Command::Build(_)) {
        malloc::tune_allocator_for_query();
    }
    stop::on_signals(matches!(cli.command, Command::Build(_)));
    if let Some(secs) = cli.timeout {
        stop::after(secs);
    }
    let (label, unit) = match &cli.command {
        Command::Build(_) => ("building", "words"),
        Command::Boxed(_) => ("searching the box", "solutions listed"),
        _ => ("working", "steps"),
    };
    stop::show_progress(label, unit);
    match cli.command {
        Command::Build(args) => cmd::build::run(&ctx, args),
        Command::List(args) => cmd::info::list(&ctx, args),
        Command::Info => cmd::info::info(&ctx),
        Command::Verify(args) => cmd::info::verify(&ctx, args),
        Command::Bee(c) => cmd::bee::run(&ctx, c),
        Command::Boxed(args) => cmd::boxed::run(&ctx, args),
        Command::Anigram(c) => cmd::anigram::run(&ctx, c),
        Command::Find(args) => cmd::find::run(&ctx, args),
        Command::Anagram(args) => cmd::anagram::run(&ctx, args),
        Command::Completions { shell } => cmd::shell::completions(Cli::command(), shell),
        Command::Man { dir } => cmd::shell::man(Cli::command(), dir.as_deref()),
    }
}

/// `--color` as clap's own choice, for its help and errors: read from the
/// arguments before clap parses them, as an error may come first.
fn clap_color(args: impl Iterator<Item = OsString>) -> clap::ColorChoice {
    let mut choice = clap::ColorChoice::Auto;
    let mut args = args.skip(1);
    while let Some(arg) = args.next() {
        let arg = arg.to_string_lossy().into_owned();
        if arg == "--" {
            break;
        }
        let value = match arg.strip_prefix("--color") {
            Some("") => args.next().map(|v| v.to_string_lossy().into_owned()),
            Some(v) => v.strip_prefix('=').map(str::to_string),
            None => None,
        };
        choice = match value.as_deref() {
            Some("always") => clap::ColorChoice::Always,
            Some("never") => clap::ColorChoice::Never,
            Some("auto") => clap::ColorChoice::Auto,
            _ => choice,
        };
    }
    choice
}

/// Prints an error as one line and picks the exit status; with `--json`,
/// also as `{"error": {"kind", "message"}}` on stdout, for tools.
fn report(e: anyhow::Error, json: bool) -> ExitCode {
    if e.chain().any(|c| c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == IoKind::BrokenPipe)) {
        return ExitCode::SUCCESS; // `wordhoard ... | head` stopped reading: not an error.
    }
    let usage = e.chain().any(|c| {
        c.downcast_ref::<UsageError>().is_some()
            || c.downcast_ref::<wordhoard_query::Error>().is_some_and(|q| q.is_usage())
    });
    // Each cause once: an error whose message already holds its source's
    // (wordhoard_query's do) is not followed by it again.
    let mut message = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if text.is_empty() || message.contains(&text) {
            continue;
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&text);
    }
    // One line, and nothing in it (a path, a name from an index) can drive the terminal.
    eprintln!("error: {}", output::shown(&message.replace('\n', " ")));
    if json && e.downcast_ref::<cmd::AnswerShown>().is_none() {
        let kind = e.chain().find_map(|c| {
            if c.downcast_ref::<UsageError>().is_some() {
                Some("usage")
            } else if let Some(q) = c.downcast_ref::<wordhoard_query::Error>() {
                Some(if q.is_usage() { "usage" } else { q.kind_name() })
            } else {
                c.downcast_ref::<wordhoard_builder::BuildError>().map(|_| "build")
            }
        });
        print_json_error(kind.unwrap_or("other"), &message);
    }
    ExitCode::from(if usage { 2 } else { 1 })
}

/// `{"error": {"kind": ..., "message": ...}}` on stdout, one line.
fn print_json_error(kind: &str, message: &str) {
    println!("{}", serde_json::json!({"error": {"kind": kind, "message": message}}));
}

/// clap's help and version go to stdout (exit 0); its errors are printed
/// whole, with what is missing and clap's "similar argument" tip (exit 2).
fn clap_error(e: clap::Error, json: bool) -> ExitCode {
    use clap::error::ErrorKind;
    let _ = e.print();
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => ExitCode::SUCCESS,
        _ => {
            if json {
                let text = e.render().to_string();
                let first = text.lines().next().unwrap_or_default().trim_start_matches("error: ");
                print_json_error("usage", first);
            }
            ExitCode::from(2)
        }
    }
}
