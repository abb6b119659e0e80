//! End-to-end tests of the binary in temporary folders: build, info,
//! verify, every command's JSON, exit codes and one-line errors.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use common::{bin, json, query, run, stderr, Scratch};
use serde_json::json;

/// An error as the user sees it: clap's whole message for what clap finds
/// (exit 2, ending in its `--help` hint), else one `error:` line; notices
/// (`note:`) may come before it.
fn assert_one_line_error(out: &std::process::Output, code: i32) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
    let lines: Vec<&str> = err.lines().skip_while(|l| l.starts_with("note: ")).collect();
    assert!(lines[0].starts_with("error: "), "{err}");
    if err.trim_end().ends_with("For more information, try '--help'.") {
        assert_eq!(code, 2, "clap's errors are usage errors: {err}");
    } else {
        assert_eq!(lines.len(), 1, "one line: {err}");
    }
}

#[test]
fn build_reports_counts_and_publishes() {
    let s = Scratch::new();
    let list = s.write("list.txt", b"\xEF\xBB\xBFRide\r\ndire\nired\nride\n\n4x4\nice cream\n");
    let out = s.path("out/idx.hoard");
    std::fs::create_dir(s.path("out")).unwrap();
    let report = json(&["build", list.to_str().unwrap(), "-o", out.to_str().unwrap(), "--name", "tiny"]);
    assert_eq!(report["words"], 3);
    assert_eq!(report["lines"], 7);
    // `Ride` is a proper noun: 3 of the list's 4 words have no capital.
    assert_eq!(report["skipped"], 4);
    assert_eq!(report["skipped_by_reason"]["proper_noun"], 1);
    assert_eq!(report["skipped_examples"]["proper_noun"], "Ride");
    assert_eq!(report["skipped_examples"]["not_in_alphabet"], "4x4");
    assert_eq!(report["duplicates"], 0);
    let kept = s.path("out/kept.hoard");
    let kept = json(&["build", list.to_str().unwrap(), "-o", kept.to_str().unwrap(), "--proper-nouns", "keep"]);
    let counts = |r: &serde_json::Value| ["words", "skipped", "duplicates"].map(|k| r[k].as_u64().unwrap());
    assert_eq!(counts(&kept), [3, 3, 1]);
    assert_eq!(report["name"], "tiny");
    // The nine, and `proper_nouns`: this build skipped some.
    assert_eq!(report["sections"].as_array().unwrap().len(), 10);
    assert_eq!(kept["sections"].as_array().unwrap().len(), 9);
    assert!(out.is_file());
    let leftovers: Vec<_> = std::fs::read_dir(s.path("out")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 2, "no temporary files left: {leftovers:?}");
    let text = run(&["build", list.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("words kept") && text.contains("chains") && text.contains("Took"), "{text}");
}

#[test]
fn build_reads_stdin_and_several_files() {
    let s = Scratch::new();
    let a = s.write("a.txt", b"game\ngames\n");
    let out = s.path("x.hoard");
    let mut child = bin()
        .args(["build", a.to_str().unwrap(), "-", "-o", out.to_str().unwrap(), "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"glam\ngame\n").unwrap();
    let done = child.wait_with_output().unwrap();
    assert!(done.status.success());
    let report: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(report["words"], 3);
    assert_eq!(report["sources"], json!([a.to_str().unwrap(), "-"]));
}

#[test]
fn info_and_verify_on_a_fresh_index() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let info = query(&idx, &["info"]);
    assert_eq!(info["format_version"], 3);
    assert_eq!(info["words"], 66);
    assert_eq!(info["sources"][0]["name"], "golden-words.txt");
    assert_eq!(info["common_source"]["name"], "golden-common.txt");
    assert_eq!(info["alphabet"], "abcdefghijklmnopqrstuvwxyz");
    assert_eq!(info["common_words"], 11);
    let verify = query(&idx, &["verify"]);
    assert_eq!(verify["ok"], true);
    let text = run(&["--index", idx.to_str().unwrap(), "info"]);
    assert!(String::from_utf8(text.stdout).unwrap().contains("Sections:"));
}

/// A box in every form a person types it: the same box, the same answer,
/// in `boxed solve` and `boxed check`.
#[test]
fn a_box_is_read_in_every_form_it_is_typed() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let forms: &[&[&str]] = &[
        &["riu", "pgh", "lcs", "yao"],
        &["riu pgh lcs yao"],
        &["riu-pgh-lcs-yao"],
        &["riu,pgh,lcs,yao"],
        &["RIU/PGH/LCS/YAO"],
        &["riupghlcsyao"],
        &["riupghlcsyao", "--sides", "4"],
        &["riupghlcsyao", "--size", "3"],
        &["RIUPGHLCSYAO", "--sides", "4", "--size", "3"],
    ];
    let want = query(&idx, &["boxed", "solve", "riu", "pgh", "lcs", "yao"]);
    assert_eq!(want["sides"], json!(["riu", "pgh", "lcs", "yao"]));
    let played = query(&idx, &["boxed", "check", "riu-pgh-lcs-yao", "gracious", "sharply"]);
    for form in forms {
        assert_eq!(query(&idx, &[&["boxed", "solve"], *form].concat()), want, "{form:?}");
        if form.len() == 1 || form[1].starts_with("--") {
            let check = [&["boxed", "check", form[0]], &form[1..], &["gracious", "sharply"]].concat();
            assert_eq!(query(&idx, &check), played, "{form:?}");
        }
    }
    // Cut another way, the compact form is another box.
    let three = query(&idx, &["boxed", "solve", "riupghlcsyao", "--sides", "3"]);
    assert_eq!(three["sides"], json!(["riup", "ghlc", "syao"]));
    // Letters that make no equal sides: one line, saying what to give.
    let bad = run(&["--index", idx.to_str().unwrap(), "boxed", "solve", "riupghlcsya"]);
    assert_one_line_error(&bad, 2);
    assert!(
        stderr(&bad).contains("give the number of sides or their size") && stderr(&bad).contains("11 letters"),
        "{}",
        stderr(&bad)
    );
}

/// `build --letter-groups` writes the letter groups, which a list of
/// enable1's size leaves out unless told, `--no-letter-groups` leaves them
/// out; Letter Boxed answers the same from both (with them, from the
/// groups; without, by a walk of the words FST: enable1, with its common
/// list), and both indexes verify, deep too.
#[test]
fn an_index_with_letter_groups_solves_the_same_boxes() {
    let s = Scratch::new();
    let (full, lean) = (s.path("full.hoard"), s.path("lean.hoard"));
    let list = common::wordlist("enable1.txt");
    let popular = common::wordlist("popular.txt");
    let (list, popular) = (list.to_str().unwrap(), popular.to_str().unwrap());
    for (out, flag) in [(&full, "--letter-groups"), (&lean, "--no-letter-groups")] {
        let built = run(&["build", list, "--common", popular, flag, "-o", out.to_str().unwrap()]);
        assert!(built.status.success(), "{}", stderr(&built));
    }
    let both = run(&["build", list, "--letter-groups", "--no-letter-groups", "-o", lean.to_str().unwrap()]);
    assert_one_line_error(&both, 2);
    let sections = |idx: &std::path::Path| -> Vec<String> {
        let info = query(idx, &["info"]);
        info["sections"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
    };
    assert!(sections(&full).contains(&"letter_groups".to_string()));
    assert!(!sections(&lean).contains(&"letter_groups".to_string()), "{:?}", sections(&lean));
    let asks: &[&[&str]] = &[
        &["boxed", "solve", "riu", "pgh", "lcs", "yao", "--limit", "0"],
        &["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "3", "--limit", "50"],
        &["boxed", "solve", "rme", "wcl", "tdk", "aoi", "--common-only", "--min-len", "5"],
        &["boxed", "solve", "abc", "def", "ghi", "jkl", "mno", "--limit", "0"],
        &["boxed", "check", "riu-pgh-lcs-yao", "gracious", "sharply"],
        &["boxed", "generate", "--seed", "7"],
    ];
    for ask in asks {
        assert_eq!(query(&full, ask), query(&lean, ask), "{ask:?}");
    }
    for idx in [&full, &lean] {
        let deep = query(idx, &["verify", "--deep"]);
        assert_eq!(deep["ok"], true, "{deep}");
    }
    // A list of fewer than 500,000 words, built as it comes: no groups.
    assert!(!sections(&common::enable1()).contains(&"letter_groups".to_string()));
}

/// `boxed generate` that finds no box says why, naming options to change.
#[test]
fn boxed_generate_failures_name_their_cause() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let fails = |args: &[&str], wants: &[&str]| {
        let out = run(&[&["--index", idx.to_str().unwrap(), "boxed", "generate", "--seed", "1"], args].concat());
        assert_one_line_error(&out, 2);
        let err = stderr(&out);
        for want in wants {
            assert!(err.contains(want), "{args:?}: {err}");
        }
    };
    fails(&["--sides", "6", "--size", "3"], &["no 2 words", "18 letters", "fewer sides or fewer letters a side"]);
    fails(
        &["--sides", "3", "--size", "1"],
        &["could not start a box of 3 letters", "more sides or more letters a side"],
    );
    fails(&["--min-solutions", "1000000"], &["boxes made", "none at least 1000000, as asked"]);
}

#[test]
fn every_command_answers_in_json() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let cmds: &[&[&str]] = &[
        &["bee", "solve", "aeginrt", "--center", "r"],
        &["bee", "report", "aeginrt"],
        &["bee", "best", "--top", "3"],
        &["bee", "stats", "--exclude", ""],
        &["bee", "generate", "--seed", "1"],
        &["bee", "hints", "raeginT"],
        &["boxed", "solve", "riu", "pgh", "lcs", "yao"],
        &["anigram", "unscramble", "ride"],
        &["anigram", "longest", "--from", "ride"],
        &["anigram", "count"],
        &["anigram", "top", "--top", "2"],
        &["boxed", "check", "riu,pgh,lcs,yao", "gracious", "sharply"],
        &["anigram", "check", "ride", "dried"],
    ];
    for args in cmds {
        let v = query(&idx, args);
        assert!(v.is_object(), "{args:?}");
        let text = run(&[&["--index", idx.to_str().unwrap()], *args].concat());
        assert!(text.status.success() && !text.stdout.is_empty(), "{args:?}: {}", stderr(&text));
    }
    let solve = query(&idx, &["bee", "solve", "aeginrt", "--center", "r"]);
    assert_eq!(solve["letters"], "aeginrt");
    assert!(solve["words"].as_array().unwrap().iter().any(|w| w["word"] == "aerating" && w["pangram"] == true));
    let boxed = query(&idx, &["boxed", "solve", "riu", "pgh", "lcs", "yao"]);
    assert_eq!(boxed["solutions"][0], json!(["gracious", "sharply"]));
    // A box played to the end, and a chain: verdicts and where they leave the player.
    let play = query(&idx, &["boxed", "check", "RIU/PGH/LCS/YAO", "gracious", "yg", "sharp", "sharply", "sharply"]);
    let verdicts: Vec<&str> =
        play["words"].as_array().unwrap().iter().map(|w| w["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["ok", "too_short", "not_in_list", "ok", "wrong_start"]);
    assert_eq!(
        (play["solved"].clone(), play["par"].clone(), play["played"].clone()),
        (json!(true), json!(2), json!(2))
    );
    let text = run(&["--index", idx.to_str().unwrap(), "boxed", "check", "riu-pgh-lcs-yao", "gracious", "sharply"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("Solved in 2 words (par 2 words)."), "{text:?}");
    let chain = query(&idx, &["anigram", "check", "ride", "dried", "riddle", "riddle"]);
    assert_eq!(chain["words"][2], json!({"word": "riddle", "verdict": "ok", "added": "l"}));
    assert_eq!(chain["words"][3]["verdict"], "not_one_more");
    assert_eq!(chain["length"], 3);
}

#[test]
fn bad_index_files_are_one_line_errors() {
    let s = Scratch::new();
    let dir_as_index = run(&["--index", s.dir.path().to_str().unwrap(), "info"]);
    assert_one_line_error(&dir_as_index, 1);
    assert!(stderr(&dir_as_index).contains("directory"));
    let text = s.write("words.txt", b"hello\n");
    let not_index = run(&["--index", text.to_str().unwrap(), "bee", "stats"]);
    assert_one_line_error(&not_index, 1);
    assert!(stderr(&not_index).contains("not a wordhoard index"));
    let empty = s.write("empty.hoard", b"");
    assert_one_line_error(&run(&["--index", empty.to_str().unwrap(), "info"]), 1);

    let idx = s.golden_index();
    let mut bytes = std::fs::read(&idx).unwrap();
    bytes[8] = 4; // format version 4
    let newer = s.write("newer.hoard", &bytes);
    let out = run(&["--index", newer.to_str().unwrap(), "info"]);
    assert_one_line_error(&out, 1);
    assert!(stderr(&out).contains("newer than this wordhoard reads"));
    bytes[8] = 1; // format version 1: bincode metadata, no longer read (v2: tests/golden.rs)
    let older = s.write("older.hoard", &bytes);
    let out = run(&["--index", older.to_str().unwrap(), "info"]);
    assert_one_line_error(&out, 1);
    assert!(
        stderr(&out).contains("index format 1 is older than this wordhoard reads (3); rebuild it"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn verify_names_the_damaged_section() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let info = query(&idx, &["info"]);
    let chains = info["sections"].as_array().unwrap().iter().find(|x| x["name"] == "chains").unwrap().clone();
    let mut bytes = std::fs::read(&idx).unwrap();
    let at = chains["offset"].as_u64().unwrap() + chains["bytes"].as_u64().unwrap() / 2;
    bytes[at as usize] ^= 0x40;
    let bad = s.write("bad.hoard", &bytes);
    let out = run(&["--index", bad.to_str().unwrap(), "verify"]);
    assert_one_line_error(&out, 1);
    assert!(stderr(&out).contains("`chains`"), "{}", stderr(&out));
    let query_out = run(&["--index", bad.to_str().unwrap(), "anigram", "count"]);
    assert_one_line_error(&query_out, 1);
    assert!(stderr(&query_out).contains("chains"));
    // Queries that do not read the damaged section still answer.
    assert!(run(&["--index", bad.to_str().unwrap(), "bee", "stats"]).status.success());
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let i = idx.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["bee", "solve", "aaginrt"], "repeats"),
        (&["bee", "solve", "aeg1nrt"], "not a letter"),
        (&["bee", "solve", "aeginrt", "--center", "s"], "not one of the letters"),
        (&["bee", "solve", "aeginrt", "--center", "rt"], "exactly one letter"),
        (&["bee", "generate", "--min-score", "10", "--max-score", "5"], "--min-score 10 is above the upper bound 5"),
        (&["bee", "generate", "--min-words", "10", "--max-words", "5"], "--min-words 10 is above the upper bound 5"),
        (&["bee", "generate", "--min-score", "100000"], "no honeycomb"),
        (&["bee", "best", "--exclude", "s!"], "not a letter"),
        (&["bee", "best", "--top", "-1"], "unexpected argument"),
        (&["boxed", "solve", "riu"], "at least two sides"),
        (&["boxed", "solve", "riu", "rgh"], "two sides"),
        (&["boxed", "solve", "riu", "p9h"], "not a letter"),
        (&["boxed", "solve", "riu", "pgh", "--max-words", "0"], "--max-words"),
        (&["anigram", "count", "--goal-len", "4"], "above the start length"),
        (&["anigram", "count", "--from", "zzzz"], "no word"),
        (&["anigram", "longest", "--from", "ab-c"], "not a letter"),
        (&["anigram", "unscramble", "r1de"], "not a letter"),
        (&["boxed", "check", "riu"], "at least two sides"),
        (&["anigram", "check"], "required"),
        (&["bee", "solve"], "required"),
        (&["frobnicate"], "unrecognized subcommand"),
        (&["info", "--bogus"], "unexpected argument"),
    ];
    for (args, needle) in cases {
        let out = run(&[&["--index", i], *args].concat());
        assert_one_line_error(&out, 2);
        assert!(stderr(&out).contains(needle), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn missing_word_list_names_the_file() {
    let s = Scratch::new();
    let out = run(&["build", s.path("nope.txt").to_str().unwrap(), "-o", s.path("x.hoard").to_str().unwrap()]);
    assert_one_line_error(&out, 1);
    assert!(stderr(&out).contains("nope.txt"));
    assert!(!s.path("x.hoard").exists());
}

#[test]
fn failed_build_leaves_the_old_index_alone() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let before = std::fs::read(&idx).unwrap();
    let out = run(&["build", s.path("nope.txt").to_str().unwrap(), "-o", idx.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&idx).unwrap(), before);
}

#[test]
fn closed_pipe_exits_quietly() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let mut child = bin()
        .args(["--index", idx.to_str().unwrap(), "anigram", "top", "--top", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn help_lists_every_command_with_an_example() {
    let top = String::from_utf8(run(&["--help"]).stdout).unwrap();
    for c in ["build", "info", "verify", "bee", "boxed", "anigram"] {
        assert!(top.contains(c), "{c}");
    }
    let count = String::from_utf8(run(&["anigram", "count", "--help"]).stdout).unwrap();
    assert!(count.contains("Exit 2") && count.contains("exit 0 with 0 games"));
}

#[test]
fn extreme_numbers_answer_or_refuse_but_never_crash() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let i = idx.to_str().unwrap();
    let max = u64::MAX.to_string();
    let cases: Vec<Vec<&str>> = vec![
        vec!["anigram", "count", "--goal-len", &max],
        vec!["anigram", "count", "--start-len", "254", "--goal-len", "300"],
        vec!["anigram", "count", "--start-len", &max, "--goal-len", &max],
        vec!["anigram", "top", "--top", &max, "--goal-len", "256"],
        vec!["anigram", "longest", "--start-len", &max],
        vec!["bee", "best", "--top", &max],
        vec!["bee", "generate", "--seed", &max, "--max-score", "4294967295"],
        vec!["bee", "generate", "--min-words", "4294967296"],
        vec!["boxed", "solve", "riu", "pgh", "lcs", "yao", "--min-len", "4294967296", "--limit", &max],
        vec!["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", &max],
    ];
    for args in &cases {
        let out = run(&[&["--index", i], &args[..]].concat());
        let code = out.status.code();
        assert!(code == Some(0) || code == Some(2), "{args:?}: {code:?} {}", stderr(&out));
        if code == Some(2) {
            assert_one_line_error(&out, 2);
        }
    }
    let none = query(&idx, &["boxed", "solve", "riu", "pgh", "lcs", "yao", "--min-len", "4294967296"]);
    assert_eq!(none["playable"], 0);
    let zero = query(&idx, &["anigram", "count", "--start-len", "254", "--goal-len", "300"]);
    assert_eq!(zero["games"], 0);
}

#[test]
fn common_only_needs_a_common_list() {
    let s = Scratch::new();
    let list = s.write("l.txt", b"game\ngames\n");
    let idx = s.path("n.hoard");
    assert!(run(&["build", list.to_str().unwrap(), "-o", idx.to_str().unwrap()]).status.success());
    let out = run(&["--index", idx.to_str().unwrap(), "bee", "solve", "agme", "--common-only"]);
    assert_one_line_error(&out, 2);
    assert!(stderr(&out).contains("--common"));
}

#[test]
fn timeout_stops_any_command_with_one_line() {
    // A build reading stdin waits for words: --timeout ends it.
    let s = Scratch::new();
    let out = s.path("x.hoard");
    let started = std::time::Instant::now();
    let mut child = bin()
        .args(["--timeout", "0.5", "build", "-", "-o", out.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _stdin = child.stdin.take();
    let result = child.wait_with_output().unwrap();
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(err.starts_with("error: stopped after 0.5 s (--timeout)"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(!out.exists());
    for bad in ["0", "-1", "soon", "inf"] {
        let r = run(&["--timeout", bad, "info"]);
        assert_eq!(r.status.code(), Some(2), "--timeout {bad}");
    }
}

#[test]
fn no_mmap_reads_the_same_answers() {
    let s = Scratch::new();
    let idx = s.golden_index();
    for args in [&["bee", "solve", "aeginrt", "--center", "r"][..], &["anigram", "longest"], &["verify"], &["info"]] {
        let mapped = query(&idx, args);
        let mut read_args = vec!["--no-mmap"];
        read_args.extend_from_slice(args);
        assert_eq!(query(&idx, &read_args), mapped, "{args:?}");
    }
}

#[test]
fn the_library_names_parameters_and_the_cli_names_flags() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let index = idx.to_str().unwrap();
    let cases: [(&[&str], &str); 10] = [
        (
            &["bee", "generate", "--min-score", "10", "--max-score", "5"],
            "error: --min-score 10 is above the upper bound 5",
        ),
        (
            &["bee", "generate", "--min-words", "10", "--max-words", "5"],
            "error: --min-words 10 is above the upper bound 5",
        ),
        (&["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "0"], "error: --max-words must be 1 to 8"),
        (
            &["anigram", "count", "--start-len", "5", "--goal-len", "5"],
            "error: --goal-len 5 must be above the start length 5; try 6",
        ),
        (&["bee", "solve", "aeginrt", "--center", "x"], "error: --center 'x' is not one of the letters"),
        (&["bee", "solve", "aeginrt", "--center", "xy"], "error: --center \"xy\" must be exactly one letter"),
        (&["anagram", "retain", "--words", "--include", "zzz"], "error: --include \"zzz\" is not a word of this index"),
        (&["boxed", "generate", "--size", "9"], "error: --size 9 on 4 sides needs 36 distinct letters"),
        (&["bee", "solve", "aegi3rt", "--center", "a"], "error: letters \"aegi3rt\" has '3', which is not a letter"),
        (&["bee", "generate", "--min-score", "100000"], "error: no honeycomb meets those bounds"),
    ];
    for (args, want) in cases {
        let mut all = vec!["--index", index];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_one_line_error(&out, 2);
        assert!(stderr(&out).contains(want), "{args:?}: {}", stderr(&out));
    }
    // The same errors from the library speak of its parameters.
    use wordhoard_query::{bee, boxed, Index};
    let index = Index::open(&idx).unwrap();
    let letter_box = boxed::LetterBox::parse(index.alphabet(), &["riu", "pgh", "lcs", "yao"]).unwrap();
    let opts = boxed::SolveOptions { max_words: 0, ..Default::default() };
    let err = boxed::solve(&index, &letter_box, &opts).unwrap_err().to_string();
    assert_eq!(err, "`max_words` must be 1 to 8");
    let generate = bee::GenerateOptions { score: bee::Bounds { min: Some(10), max: Some(5) }, ..Default::default() };
    let err = bee::generate(&index, &generate).unwrap_err().to_string();
    assert_eq!(err, "`score.min` 10 is above the upper bound 5: the range is empty");
    let err = bee::generate(&index, &generate).unwrap_err();
    assert!(matches!(err.kind(), wordhoard_query::ErrorKind::InvalidInput { param: Some("score.min"), .. }));
}

#[test]
fn exclusion_lists_remove_exactly_their_words_from_every_answer() {
    let s = Scratch::new();
    let list = s.write("words.txt", b"ride\ndire\nired\ndried\nraided\ngame\nglam\nmegaplex\namalgam\n");
    let slurs = s.write("bad.txt", b"IRED\nmegaplex\nnotaword\n");
    let more = s.write("more.txt", b"dried\n");
    let idx = s.path("x.hoard");
    let out = run(&[
        "build",
        list.to_str().unwrap(),
        "--exclude",
        slurs.to_str().unwrap(),
        "--exclude",
        more.to_str().unwrap(),
        "-o",
        idx.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["words"], 6);
    assert_eq!(report["excluded"]["removed"], 3);
    assert_eq!(report["excluded"]["listed"], 4);
    assert_eq!(report["duplicates"], 0);
    let info = query(&idx, &["info"]);
    assert_eq!(info["excluded_words"], 3);
    let names: Vec<&str> =
        info["exclude_sources"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["bad.txt", "more.txt"]);
    let text = String::from_utf8(run(&["--index", idx.to_str().unwrap(), "info"]).stdout).unwrap();
    assert!(text.contains("3 words (by bad.txt, more.txt)"), "{text}");
    // Gone from every answer.
    assert_eq!(query(&idx, &["anigram", "unscramble", "deir"])["words"], json!(["dire", "ride"]));
    let bee = query(&idx, &["bee", "solve", "aeglmpx", "--center", "g"]);
    let words: Vec<&str> = bee["words"].as_array().unwrap().iter().map(|w| w["word"].as_str().unwrap()).collect();
    assert_eq!(words, ["amalgam", "game", "glam"]);
    assert_eq!(query(&idx, &["bee", "stats", "--exclude", ""])["pangram_words"], 0);
}

#[test]
fn a_box_can_be_typed_four_ways() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let want = query(&idx, &["boxed", "solve", "gta", "rin", "eox", "ldp", "--limit", "0"]);
    for args in [
        &["boxed", "gta", "rin", "eox", "ldp", "--limit", "0"][..],
        &["boxed", "gta-rin-eox-ldp", "--limit", "0"],
        &["boxed", "gta rin eox ldp", "--limit", "0"],
        &["boxed", "solve", "gta-rin", "eox ldp", "--limit", "0"],
    ] {
        assert_eq!(query(&idx, args), want, "{args:?}");
    }
    assert_one_line_error(&run(&["--index", idx.to_str().unwrap(), "boxed"]), 2);
}

#[test]
fn bee_check_gives_verdicts_rank_and_what_is_left() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let found = s.write("found.txt", b"grain\n  Granite  retina\n");
    let check = query(
        &idx,
        &[
            "bee",
            "check",
            "aeginrt",
            "--center",
            "r",
            "--found",
            found.to_str().unwrap(),
            "rat",
            "gait",
            "xyzr",
            "tiara",
            "RETINA",
            "ranger",
            "zzzz",
            "\"grain,\"",
        ],
    );
    let keys: Vec<&String> = check.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["center", "found", "guesses", "left", "letters", "problem", "rank"]);
    let verdicts: Vec<(String, Option<String>)> = check["guesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["word"].as_str().unwrap().to_string(), g["reason"].as_str().map(str::to_string)))
        .collect();
    let want = [
        ("grain", None),
        ("granite", None),
        ("retina", None),
        ("rat", Some("too_short")),
        ("gait", Some("missing_center")),
        ("xyzr", Some("bad_letter")),
        ("tiara", Some("not_in_list")),
        ("retina", Some("repeat")),
        ("ranger", None),
        // A letter outside the honeycomb is named before the missing centre.
        ("zzzz", Some("bad_letter")),
        // Punctuation around a guess is not part of it: found already.
        ("grain", Some("repeat")),
    ];
    let want: Vec<(String, Option<String>)> =
        want.iter().map(|(w, r)| (w.to_string(), r.map(str::to_string))).collect();
    assert_eq!(verdicts, want);
    assert_eq!(
        check["guesses"][1],
        json!({"word": "granite", "ok": true, "reason": null, "score": 14, "pangram": true})
    );
    // Found: grain 5, granite 14, retina 6, ranger 6; of the golden list's
    // 16 answers for these letters.
    assert_eq!(check["found"], json!({"count": 4, "score": 31}));
    let all = query(&idx, &["bee", "solve", "aeginrt", "--center", "r"]);
    let total = all["score"].as_u64().unwrap();
    assert_eq!(check["left"]["count"], all["count"].as_u64().unwrap() - 4);
    assert_eq!(check["left"]["score"], total - 31);
    assert_eq!(check["rank"]["queen_bee"], total);
    assert!(check["rank"]["next"]["score"].as_u64().unwrap() > 31);
    // The same from stdin, and nothing found yet.
    let mut child = bin()
        .args(["--index", idx.to_str().unwrap(), "bee", "check", "aeginrt", "-c", "r", "--found", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"grain granite retina rat gait xyzr tiara retina ranger zzzz \"grain,\"")
        .unwrap();
    let piped: serde_json::Value = serde_json::from_slice(&child.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(piped, check);
    let none = query(&idx, &["bee", "check", "aeginrt", "--center", "r"]);
    assert_eq!(none["found"], json!({"count": 0, "score": 0}));
    assert_eq!(none["rank"]["name"], "Beginner");
    let text = String::from_utf8(
        run(&["--index", idx.to_str().unwrap(), "bee", "check", "aeginrt", "-c", "r", "tiara"]).stdout,
    )
    .unwrap();
    assert!(text.contains("not in the word list") && text.contains("LEFT:"), "{text}");
    let missing = run(&["--index", idx.to_str().unwrap(), "bee", "check", "aeginrt", "--found", "/no/such/file"]);
    assert_one_line_error(&missing, 1);
}

#[test]
fn generated_puzzles_hide_their_answers_in_text_unless_asked() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let index = idx.to_str().unwrap();
    let bee = query(&idx, &["bee", "generate", "--seed", "1", "--exclude", ""]);
    let text = |args: &[&str]| {
        let mut all = vec!["--index", index];
        all.extend_from_slice(args);
        String::from_utf8(run(&all).stdout).unwrap()
    };
    let hidden = text(&["bee", "generate", "--seed", "1", "--exclude", ""]);
    let shown = text(&["bee", "generate", "--seed", "1", "--exclude", "", "--answers"]);
    for w in bee["words"].as_array().unwrap() {
        let w = w["word"].as_str().unwrap();
        assert!(!hidden.contains(w) && shown.contains(w), "{w}: {hidden}");
    }
    assert!(hidden.contains("answers hidden") && hidden.contains(&format!(": {} word", bee["count"])), "{hidden}");
    let game = query(&idx, &["anigram", "generate", "--seed", "1"]);
    let hidden = text(&["anigram", "generate", "--seed", "1"]);
    let shown = text(&["anigram", "generate", "--seed", "1", "--answers"]);
    for step in game["chain"].as_array().unwrap().iter().skip(1) {
        for w in step["words"].as_array().unwrap() {
            let w = w.as_str().unwrap();
            assert!(!hidden.to_lowercase().contains(w) && shown.contains(w), "{w}: {hidden}");
        }
    }
}

#[test]
fn alphabets_are_chosen_folded_and_shown() {
    let s = Scratch::new();
    let data = common::repo().join("tests/data");
    let romance = data.join("romance-words.txt");
    let out_path = s.path("r.hoard");
    let out = out_path.to_str().unwrap();
    // Unfolded, the list's 40 letters are its alphabet; Latin, Greek and
    // Cyrillic together are more letters than an index holds.
    let unfolded = json(&["build", romance.to_str().unwrap(), "-o", out]);
    assert_eq!(unfolded["skipped"], 1);
    assert_eq!(unfolded["skipped_examples"]["proper_noun"], "España");
    assert_eq!(unfolded["alphabet_rule"]["rule"], "letters_used");
    assert_eq!(query(&out_path, &["info"])["alphabet"].as_str().unwrap().chars().count(), 40);
    let many: String = ('a'..='z').chain('α'..='ω').chain('а'..='я').map(|c| format!("{c}\n")).collect();
    let many = s.write("many.txt", many.as_bytes());
    let too_many = run(&["build", many.to_str().unwrap(), "-o", out]);
    assert_one_line_error(&too_many, 1);
    let err = stderr(&too_many);
    assert!(err.contains("at most 64") && err.contains("--fold accents"), "{err}");
    let built = json(&["build", romance.to_str().unwrap(), "--fold", "accents", "--keep", "Ñ", "-o", out]);
    assert_eq!(built["skipped"], 1, "España");
    let info = query(&out_path, &["info"]);
    assert_eq!((info["fold"].as_str(), info["keep"].as_str()), (Some("accents"), Some("ñ")));
    assert!(info["alphabet"].as_str().unwrap().ends_with('ñ'));
    let text = String::from_utf8(run(&["--index", out, "info"]).stdout).unwrap();
    assert!(text.contains("accents folded but for ñ"), "{text}");
    // Typed with accents, found folded, shown as the list spells it (text
    // and JSON, with the folded word beside); ñ is its own letter.
    assert_eq!(query(&out_path, &["anagram", "ÉTÉ"])["words"], json!([{"word": "été", "blanks": "", "folded": "ete"}]));
    let found = query(&out_path, &["find", "caf?"]);
    assert_eq!((found["words"].clone(), found["folded"].clone()), (json!(["café"]), json!({"café": "cafe"})));
    let text = String::from_utf8(run(&["--index", out, "find", "caf?"]).stdout).unwrap();
    assert!(text.starts_with("café\n"), "{text}");
    let text = String::from_utf8(run(&["--index", out, "anigram", "unscramble", "eleve"]).stdout).unwrap();
    assert!(text.contains("élève"), "{text}");
    assert_eq!(query(&out_path, &["find", "niñ?"])["words"], json!(["niña", "niño"]));
    let bad = run(&["--index", out, "find", "ö*"]);
    assert_eq!(bad.status.code(), Some(0), "ö folds to o: {}", stderr(&bad));
    let bad = run(&["--index", out, "bee", "solve", "abcdefß"]);
    assert_one_line_error(&bad, 2);
    assert!(stderr(&bad).contains("'ß'") && stderr(&bad).contains("alphabet ("), "{}", stderr(&bad));
    // A fixed alphabet skips the words with other letters; --keep needs --fold.
    let fixed = json(&["build", romance.to_str().unwrap(), "--alphabet", "zyxwvutsrqponmlkjihgfedcba", "-o", out]);
    assert!(fixed["skipped_by_reason"]["not_in_alphabet"].as_u64().unwrap() > 20, "{fixed}");
    assert_one_line_error(&run(&["build", romance.to_str().unwrap(), "--keep", "ñ", "-o", out]), 2);
    // Bee's --exclude defaults to S on a-z indexes only.
    let german = s.path("g.hoard");
    json(&["build", data.join("german-words.txt").to_str().unwrap(), "-o", german.to_str().unwrap()]);
    assert_eq!(query(&german, &["bee", "best", "--top", "1"])["exclude"], "");
    assert_eq!(query(&s.golden_index(), &["bee", "best", "--top", "1"])["exclude"], "s");
}

/// A honeycomb with no words, or no pangram, is not a puzzle: solve, hints
/// and check say so, and check gives no rank for 0 of 0. The centre may
/// follow the letters as a second argument.
#[test]
fn empty_and_pangramless_honeycombs_say_so_and_the_centre_can_follow_the_letters() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let text = |args: &[&str]| {
        let out = run(&[&["--index", idx.to_str().unwrap()], args].concat());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    // No golden word is made of these letters.
    for command in ["solve", "hints", "check"] {
        let v = query(&idx, &["bee", command, "jkqvwxz", "z"]);
        assert_eq!(v["problem"], "no_words", "{command}: {v}");
        let shown = text(&["bee", command, "jkqvwxz", "z"]);
        assert!(shown.contains("No word of this index fits this honeycomb"), "{command}: {shown}");
        assert!(!shown.contains("Queen Bee") && !shown.contains("Every word found"), "{command}: {shown}");
    }
    // Words, but no pangram: `game` and `glam` fit AEGLMPR with centre G,
    // and no golden word uses all seven letters.
    let solved = query(&idx, &["bee", "solve", "aeglmpr", "g"]);
    assert!(solved["count"].as_u64().unwrap() > 0 && solved["pangrams"] == 0, "{solved}");
    assert_eq!(solved["problem"], "no_pangram");
    assert!(text(&["bee", "check", "aeglmpr", "g", "game"]).contains("no pangram"));
    // A puzzle has no problem.
    assert!(query(&idx, &["bee", "solve", "aeglmpx", "g"])["problem"].is_null());
    // The centre as a second argument, the same as --center; both, if they
    // differ, is a usage error; in check, a longer second word is a guess.
    assert_eq!(query(&idx, &["bee", "solve", "aeglmpx", "x"]), query(&idx, &["bee", "solve", "aeglmpx", "-c", "x"]));
    assert_one_line_error(&run(&["--index", idx.to_str().unwrap(), "bee", "solve", "aeglmpx", "x", "-c", "g"]), 2);
    let checked = query(&idx, &["bee", "check", "aeglmpx", "megaplex"]);
    assert_eq!((checked["center"].as_str(), checked["guesses"][0]["word"].as_str()), (Some("a"), Some("megaplex")));
    let checked = query(&idx, &["bee", "check", "aeglmpx", "x", "megaplex"]);
    assert_eq!((checked["center"].as_str(), checked["guesses"][0]["ok"].as_bool()), (Some("x"), Some(true)));
}

/// `bee check --found FILE` keeps the words in the file as you go: the
/// guesses accepted are added to its end, and nothing in it is rewritten.
#[test]
fn bee_check_adds_accepted_guesses_to_the_found_file() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let i = idx.to_str().unwrap();
    let found = s.path("found.txt");
    std::fs::write(&found, "  grain").unwrap();
    let f = found.to_str().unwrap();
    let first = query(&idx, &["bee", "check", "aeginrt", "-c", "r", "--found", f, "granite", "tiara", "granite"]);
    assert_eq!(first["found"]["count"], 2);
    assert_eq!(std::fs::read_to_string(&found).unwrap(), "  grain\ngranite\n");
    let out = run(&["--index", i, "bee", "check", "aeginrt", "-c", "r", "--found", f, "granite", "ranger", "xyzr"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&found).unwrap(), "  grain\ngranite\nranger\n");
    // Nothing accepted: the file is left as it is.
    let out = run(&["--index", i, "bee", "check", "aeginrt", "-c", "r", "--found", f, "ranger"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&found).unwrap(), "  grain\ngranite\nranger\n");
}
