//! The CLI as a user meets it: clap's whole usage errors, shell
//! completions, man pages, colour and width on a terminal (through a
//! pseudo-terminal made by util-linux `script`), and the consistency rules
//! (0 lists all, `--top` everywhere, ISO dates, aligned tables, notices).

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{bin, query, run, stderr, Scratch};

const ESC: char = '\u{1b}';

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn on(index: &Path, args: &[&str]) -> Output {
    bin().arg("--index").arg(index).args(args).output().unwrap()
}

/// Runs the binary on a pseudo-terminal of `cols` columns and returns what
/// it printed there (line ends as the terminal sends them: `\r\n`).
fn on_terminal(index: &Path, args: &[&str], cols: u16, env: &[(&str, &str)]) -> String {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let command = format!(
        "stty cols {cols} rows 50; exec '{}' --index '{}' {}",
        env!("CARGO_BIN_EXE_wordhoard"),
        index.display(),
        quoted.join(" ")
    );
    let mut script = Command::new("script");
    script.args(["-qec", &command, "/dev/null"]).env("TERM", "xterm-256color").env_remove("NO_COLOR");
    for (k, v) in env {
        script.env(k, v);
    }
    let out = script.output().expect("util-linux `script` runs (it makes the pseudo-terminal)");
    assert!(out.status.success(), "{args:?} on a terminal: {}", stderr(&out));
    stdout(&out).replace("\r\n", "\n")
}

#[test]
fn usage_errors_are_clap_s_whole_message_with_exit_2() {
    // A missing argument: its name and the usage line.
    let out = run(&["bee", "solve"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: the following required arguments were not provided:"), "{err}");
    assert!(err.contains("<LETTERS>") && err.contains("Usage: wordhoard bee solve"), "{err}");
    assert!(out.stdout.is_empty());
    // A misspelt flag or command: clap's tip.
    let out = run(&["bee", "solve", "aeginrt", "--cetner", "r"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("tip: a similar argument exists: '--center'"), "{}", stderr(&out));
    let out = run(&["bee", "slove", "aeginrt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("tip: a similar subcommand exists: 'solve'"), "{}", stderr(&out));
    let out = run(&["boxed", "solve", "--max-words", "two", "riu"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("invalid value 'two' for '--max-words <N>'"), "{}", stderr(&out));
    // Colour in clap's errors follows --color (never into a pipe by default).
    assert!(!stderr(&run(&["bee", "slove"])).contains(ESC));
    assert!(stderr(&run(&["--color", "always", "bee", "slove"])).contains(ESC));
    assert!(!stderr(&run(&["--color=never", "bee", "slove"])).contains(ESC));
    // Help and version: stdout, exit 0.
    let out = run(&["bee", "solve", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("Usage: wordhoard bee solve"));
    let out = run(&["--version"]);
    assert_eq!((out.status.code(), stdout(&out).trim()), (Some(0), concat!("wordhoard ", env!("CARGO_PKG_VERSION"))));
}

#[test]
fn other_errors_stay_one_line() {
    let s = Scratch::new();
    let idx = s.golden_index();
    for (args, code) in [
        (vec!["bee", "solve", "aeg1nrt"], 2),
        (vec!["boxed", "abc", "abd"], 2),
        (vec!["anigram", "longest", "--from", "qqqq"], 2),
    ] {
        let out = on(&idx, &args);
        let err = stderr(&out);
        let errors: Vec<&str> = err.lines().filter(|l| !l.starts_with("note: ")).collect();
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(errors.len() == 1 && errors[0].starts_with("error: "), "{args:?}: {err}");
    }
    let out = run(&["--index", s.path("missing.hoard").to_str().unwrap(), "info"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
}

#[test]
#[cfg_attr(not(tool_zsh), ignore = "needs zsh: make deps installs it")]
fn completions_for_every_shell_load() {
    let s = Scratch::new();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        assert!(script.contains("wordhoard") && script.contains("anigram") && script.contains("center"), "{shell}");
        std::fs::write(s.path(&format!("wordhoard.{shell}")), &script).unwrap();
    }
    // bash sources it and registers the completion.
    let bash = Command::new("bash")
        .arg("-c")
        .arg(format!("set -e; source '{}'; complete -p wordhoard", s.path("wordhoard.bash").display()))
        .output()
        .unwrap();
    assert!(bash.status.success() && stderr(&bash).is_empty(), "{}", stderr(&bash));
    assert!(stdout(&bash).contains("wordhoard"), "{}", stdout(&bash));
    // zsh parses it (`make deps` installs zsh).
    let zsh = Command::new("zsh")
        .args(["-n", s.path("wordhoard.zsh").to_str().unwrap()])
        .output()
        .expect("zsh runs (make deps installs it)");
    assert!(zsh.status.success() && stderr(&zsh).is_empty(), "{}", stderr(&zsh));
    // An unknown shell is a usage error that lists the shells.
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("[possible values: bash, elvish, fish, powershell, zsh]"), "{}", stderr(&out));
}

/// `man -l` renders a page; its warnings (groff's included) on stderr.
fn render_man(page: &Path) -> Output {
    Command::new("man")
        .args(["--warnings", "-l"])
        .arg(page)
        .env("MANWIDTH", "80")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
        .expect("man runs (make deps installs it)")
}

#[test]
#[cfg_attr(not(tool_man), ignore = "needs man: make deps installs it")]
fn man_pages_render_without_warnings() {
    let s = Scratch::new();
    let out = run(&["man"]);
    assert_eq!(out.status.code(), Some(0));
    let page = s.write("wordhoard.1", &out.stdout);
    let shown = render_man(&page);
    assert!(shown.status.success() && stderr(&shown).is_empty(), "man -l: {}", stderr(&shown));
    let text = stdout(&shown);
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SUBCOMMANDS"] {
        assert!(text.contains(section), "{section} in {text}");
    }
    assert!(text.contains("wordhoard-bee(1)") && text.contains("--color"), "{text}");

    // --dir: a page per command, each rendering cleanly.
    let dir = s.path("man1");
    std::fs::create_dir(&dir).unwrap();
    let out = run(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut pages: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    pages.sort();
    for want in
        ["wordhoard.1", "wordhoard-bee.1", "wordhoard-bee-solve.1", "wordhoard-boxed.1", "wordhoard-completions.1"]
    {
        assert!(pages.iter().any(|p| p == want), "{want} in {pages:?}");
    }
    for page in &pages {
        let shown = render_man(&dir.join(page));
        assert!(shown.status.success() && stderr(&shown).is_empty(), "{page}: {}", stderr(&shown));
    }
    let out = run(&["man", "--dir", s.path("nowhere").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no such folder"), "{}", stderr(&out));
}

#[test]
#[cfg_attr(not(tool_script), ignore = "needs util-linux's `script`: make deps installs it")]
fn colour_only_on_a_terminal_or_when_asked() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let solve = ["bee", "solve", "aeginrt", "--center", "r"];
    // Into a pipe: never by default; always with --color always.
    assert!(!stdout(&on(&idx, &solve)).contains(ESC));
    let forced = stdout(&on(&idx, &[&solve[..], &["--color", "always"]].concat()));
    assert!(forced.contains(&format!("{ESC}[1m{ESC}[33m[R]{ESC}[0m")), "the centre letter: {forced}");
    assert!(forced.contains(&format!("{ESC}[35mgranite*")), "a pangram: {forced}");
    // Colour takes no room: without the codes, the same text.
    assert_eq!(strip(&forced), stdout(&on(&idx, &solve)));

    // On a terminal: colour unless NO_COLOR or --color never.
    assert!(on_terminal(&idx, &solve, 80, &[]).contains(ESC));
    assert!(!on_terminal(&idx, &solve, 80, &[("NO_COLOR", "1")]).contains(ESC));
    assert!(!on_terminal(&idx, &[&solve[..], &["--color", "never"]].concat(), 80, &[]).contains(ESC));
    assert!(on_terminal(&idx, &[&solve[..], &["--color", "always"]].concat(), 80, &[("NO_COLOR", "1")]).contains(ESC));
    // JSON is never coloured.
    assert!(!on_terminal(&idx, &[&solve[..], &["--json", "--color", "always"]].concat(), 80, &[]).contains(ESC));

    // Common words (bee solve, find, boxed), ranks and verdicts (check).
    // golden-common.txt holds `game`, not `glam`.
    let common = std::fs::read_to_string(common::repo().join("tests/data/golden-common.txt")).unwrap();
    assert!(common.lines().any(|w| w == "game") && !common.lines().any(|w| w == "glam"));
    let found = stdout(&on(&idx, &["find", "g*", "--color", "always"]));
    assert!(found.contains(&format!("{ESC}[32mgame+{ESC}[0m\n")) && found.contains("\nglam\n"), "{found}");
    let solved = stdout(&on(&idx, &["bee", "solve", "aeglmps", "-c", "g", "--color", "always"]));
    assert!(solved.contains(&format!("{ESC}[32mgame+{ESC}[0m")) && solved.contains(" glam"), "{solved}");
    // Without colour the marks stay: a pipe keeps which words are common.
    let piped = stdout(&on(&idx, &["find", "g*", "--color", "never"]));
    let lines: Vec<&str> = piped.lines().collect();
    assert!(lines.contains(&"game+") && lines.contains(&"glam") && piped.ends_with("; + common word)\n"), "{piped}");
    let piped = stdout(&on(&idx, &["bee", "solve", "aeglmps", "-c", "g", "--color", "never"]));
    assert!(piped.contains("game+") && piped.contains("+ common word"), "{piped}");
    let common_only = stdout(&on(&idx, &["bee", "solve", "aeglmps", "-c", "g", "--color", "always", "--common-only"]));
    assert!(!common_only.contains(&format!("{ESC}[32m")), "every word is common: none marked\n{common_only}");
    let boxed = stdout(&on(&idx, &["boxed", "riu", "pgh", "lcs", "yao", "--color", "always"]));
    assert!(boxed.contains(&format!("{ESC}[32mgracious+{ESC}[0m")), "{boxed}");
    let check = stdout(&on(&idx, &["bee", "check", "aeginrt", "-c", "r", "granite", "tine", "--color", "always"]));
    assert!(check.contains(&format!("{ESC}[31mmissing the centre letter R")), "{check}");
    let rank = query(&idx, &["bee", "check", "aeginrt", "-c", "r", "granite", "tine"])["rank"]["name"].clone();
    assert!(check.contains(&format!("{ESC}[36m{}{ESC}[0m", rank.as_str().unwrap())), "{check}");
}

/// Text without its colour codes.
fn strip(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == ESC {
            chars.by_ref().find(|c| c.is_ascii_alphabetic());
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
#[cfg_attr(not(tool_script), ignore = "needs util-linux's `script`: make deps installs it")]
fn text_fits_the_terminal_width_and_80_elsewhere() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let solve = ["bee", "solve", "aeginrt", "--center", "r", "--color", "never"];
    // The word columns (indented lines) fit; a sentence is one line.
    let widest =
        |text: &str| text.lines().filter(|l| l.starts_with("  ")).map(|l| l.chars().count()).max().unwrap_or(0);
    let piped = stdout(&on(&idx, &solve));
    let narrow = on_terminal(&idx, &solve, 50, &[]);
    let wide = on_terminal(&idx, &solve, 160, &[]);
    assert!(widest(&piped) <= 80 && widest(&narrow) <= 50 && widest(&wide) <= 160);
    assert!(narrow.lines().count() > piped.lines().count(), "narrower: more lines\n{narrow}");
    assert!(wide.lines().count() < piped.lines().count(), "wider: fewer lines\n{wide}");
    // The same words whatever the width.
    let words = |text: &str| {
        let mut w: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        w.sort();
        w
    };
    assert_eq!(words(&narrow), words(&piped));
    assert_eq!(words(&wide), words(&piped));
    // A terminal narrower than 40 columns is laid out in 40.
    let tiny = on_terminal(&idx, &solve, 20, &[]);
    assert_eq!(words(&tiny), words(&piped));
}

#[test]
fn zero_lists_all_and_top_is_top_everywhere() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let stats = query(&idx, &["bee", "stats"]);
    let all = query(&idx, &["bee", "best", "--top", "0"]);
    assert_eq!(all["honeycombs"].as_array().unwrap().len() as u64, stats["candidate_honeycombs"].as_u64().unwrap());
    assert!(all["honeycombs"].as_array().unwrap().len() > 10, "more than the default 10");
    let best = query(&idx, &["bee", "best", "--top", "3"]);
    assert_eq!(best["honeycombs"].as_array().unwrap()[..], all["honeycombs"].as_array().unwrap()[..3]);

    let every = query(&idx, &["anigram", "top", "--top", "0"]);
    let many = query(&idx, &["anigram", "top", "--top", "100000"]);
    assert_eq!(every, many);
    for spelling in [["--top", "2"], ["--n", "2"], ["-n", "2"]] {
        let two = query(&idx, &["anigram", "top", spelling[0], spelling[1]]);
        assert_eq!(two["terms"].as_array().unwrap()[..], every["terms"].as_array().unwrap()[..2], "{spelling:?}");
    }
    let help = stdout(&run(&["anigram", "top", "--help"]));
    assert!(help.contains("-n, --top <N>") && help.contains("(0: all)"), "{help}");
    // --limit 0 is all as well (find, anagram, boxed).
    let found = query(&idx, &["find", "*", "--limit", "0"]);
    assert_eq!(found["words"].as_array().unwrap().len() as u64, found["count"].as_u64().unwrap());
    let boxed = query(&idx, &["boxed", "riu", "pgh", "lcs", "yao", "--limit", "0"]);
    assert_eq!(boxed["solutions"].as_array().unwrap().len() as u64, boxed["count"].as_u64().unwrap());
}

#[test]
fn wording_dates_and_alignment() {
    let s = Scratch::new();
    let idx = s.golden_index();
    // --index is the index to write for build.
    let help = stdout(&run(&["build", "--help"]));
    assert!(help.contains("(for build: to write, unless -o)"), "{help}");
    // Exclusions named as letters, the same way in best and stats.
    let best = stdout(&on(&idx, &["bee", "best", "--exclude", "SE", "--top", "1"]));
    assert!(best.starts_with("Best honeycombs (without E, S):"), "{best}");
    let stats = stdout(&on(&idx, &["bee", "stats", "--exclude", "se"]));
    assert!(stats.contains("without E, S)"), "{stats}");
    // Aligned: every value of stats, info and its sections ends in one column.
    let ends = |text: &str| -> Vec<usize> { text.lines().map(|l| l.trim_end().chars().count()).collect() };
    let stats_ends = ends(&stats);
    assert!(stats_ends.windows(2).all(|w| w[0] == w[1]), "{stats}");
    let info = stdout(&on(&idx, &["info"]));
    let section_rows: Vec<&str> = info.lines().skip_while(|l| *l != "Sections:").skip(1).collect();
    let bytes_at = |l: &str| l.find(" bytes at ").unwrap();
    assert!(section_rows.windows(2).all(|w| bytes_at(w[0]) == bytes_at(w[1])), "{info}");
    // Where the value starts: after the first run of 2+ spaces past the label.
    let value_at = |l: &str| (3..l.len()).find(|&p| &l[p - 2..p] == "  " && !l[p..].starts_with(' '));
    let rows: Vec<&str> = info.lines().skip(1).take_while(|l| *l != "Sections:").collect();
    assert!(rows.iter().all(|l| value_at(l) == value_at(rows[0])), "{info}");
    // Dates: ISO 8601 UTC, in text and JSON, the instant of built_at_unix.
    let meta = query(&idx, &["info"]);
    let built = meta["built_at"].as_str().unwrap();
    assert!(info.contains(&format!(" on {built}")), "{info}");
    let secs = meta["built_at_unix"].as_u64().unwrap();
    assert_eq!(&built[10..], format!("T{:02}:{:02}:{:02}Z", secs % 86_400 / 3600, secs % 3600 / 60, secs % 60));
    // A missing common or exclusion list is called what it is.
    let list = s.write("w.txt", b"ride\ndire\n");
    let out =
        run(&["build", list.to_str().unwrap(), "--common", "/no/such.txt", "-o", s.path("x.hoard").to_str().unwrap()]);
    assert!(stderr(&out).starts_with("error: cannot read common list /no/such.txt"), "{}", stderr(&out));
    let out =
        run(&["build", list.to_str().unwrap(), "--exclude", "/no/such.txt", "-o", s.path("x.hoard").to_str().unwrap()]);
    assert!(stderr(&out).starts_with("error: cannot read exclusion list /no/such.txt"), "{}", stderr(&out));
    let out = run(&["build", "/no/words.txt", "-o", s.path("x.hoard").to_str().unwrap()]);
    assert!(stderr(&out).starts_with("error: cannot read word list /no/words.txt"), "{}", stderr(&out));
}

#[test]
fn notices_for_a_defaulted_centre_and_a_honeycomb_not_of_7() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let out = on(&idx, &["bee", "solve", "aeginrt", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "note: centre A, the first letter given (--center picks another)\n");
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is still one JSON document");
    assert_eq!(answer["center"], "a");
    let out = on(&idx, &["bee", "hints", "aeginr", "--center", "r"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "note: 6 letters in this honeycomb; the NYT's have 7\n");
    let out = on(&idx, &["bee", "solve", "aeginrt", "--center", "r"]);
    assert_eq!(stderr(&out), "", "nothing to say");
}

/// With `--json`, an error is also one JSON document on stdout, its kind
/// and its message, so a tool never parses stderr.
#[test]
fn json_errors_come_on_stdout_too() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let damaged = s.write("damaged.hoard", b"not an index at all");
    let cases: [(&[&str], &str, i32); 4] = [
        (&["bee", "solve", "aeginrt", "--center", "1"], "usage", 2),
        (&["bee", "solve", "--bogus"], "usage", 2),
        (&["--index", damaged.to_str().unwrap(), "info"], "not_an_index", 1),
        (&["--index", "/no/such/index.hoard", "info"], "no_index", 1),
    ];
    for (args, kind, code) in cases {
        let index = if args[0] == "--index" { vec![] } else { vec!["--index", idx.to_str().unwrap()] };
        let out = bin().args(index).args(args).arg("--json").output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(v["error"]["kind"], kind, "{args:?}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(!message.is_empty() && stderr(&out).contains(message), "{args:?}: {message}");
    }
}

/// `--index` completes the names of the index folder in bash (and is
/// offered the same command in zsh and fish), beside files.
#[test]
fn index_names_complete_in_bash() {
    let s = Scratch::new();
    let folder = s.path("indexes");
    std::fs::create_dir_all(&folder).unwrap();
    for name in ["enable1", "german"] {
        std::fs::copy(s.golden_index(), folder.join(format!("{name}.hoard"))).unwrap();
    }
    let out = run(&["completions", "bash"]);
    let script = s.write("wordhoard.bash", &out.stdout);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_wordhoard")).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let complete = |words: &str| {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "source '{}'; COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
                 COMP_LINE=\"${{COMP_WORDS[*]}}\"; \
                 _wordhoard wordhoard \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
                script.display()
            ))
            .current_dir(s.path(""))
            .env("PATH", &path)
            .env("WORDHOARD_HOME", &folder)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let all = complete("wordhoard --index ''");
    assert!(all.lines().any(|l| l == "enable1") && all.lines().any(|l| l == "german"), "{all}");
    assert_eq!(complete("wordhoard --index ge").lines().filter(|l| *l == "german").count(), 1);
    assert!(!complete("wordhoard --index ge").contains("enable1"));
    let names = run(&["list", "--names"]);
    assert!(names.status.success());
    for shell in ["zsh", "fish"] {
        let script = String::from_utf8(run(&["completions", shell]).stdout).unwrap();
        assert!(script.contains("wordhoard list --names"), "{shell}");
    }
}

/// Each command's help lists its own options first and the global ones
/// (--index, --json, ...) apart, under their own heading.
#[test]
fn global_flags_have_their_own_heading_in_help() {
    for args in [&["bee", "solve", "--help"][..], &["boxed", "solve", "--help"], &["--help"]] {
        let help = stdout(&run(args));
        let global = help.find("Global options:").unwrap_or_else(|| panic!("{args:?}: {help}"));
        for flag in ["--index", "--json", "--timeout", "--no-mmap", "--color"] {
            let at = help.find(&format!("  {flag}")).unwrap_or_else(|| panic!("{args:?} {flag}: {help}"));
            assert!(at > global, "{args:?}: {flag} is listed before the heading");
        }
        if args.len() > 1 {
            assert!(help.find("--common-only").unwrap() < global, "{args:?}: the command's own come first");
        }
    }
}
