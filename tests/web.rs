//! The JavaScript package's engine (crates/web), run natively: the same
//! JSON as `wordhoard --json` for the same question, the page's box (the
//! fewest words) and common marks on enable1, and damaged bytes as errors.
//! The package itself is tested in Node by `make test-npm`, the page in
//! Chromium by `make test-web`.

mod common;

use common::{enable1, query, Scratch};
use serde_json::{json, Value};
use wordhoard_web::Hoard;

fn open(path: &std::path::Path) -> Hoard {
    Hoard::open(std::fs::read(path).unwrap()).unwrap()
}

/// The answer as the package gets it: its JSON text, big integers as
/// strings, parsed.
fn ask(hoard: &Hoard, command: &str, args: Value) -> Result<Value, wordhoard_query::Error> {
    let text = hoard.answer_text(command, &args)?;
    Ok(serde_json::from_str(&text).expect("the answer is JSON"))
}

/// Every answer the page gets is the CLI's answer, key for key.
#[test]
fn answers_match_the_cli_json() {
    let scratch = Scratch::new();
    let idx = scratch.golden_index();
    let hoard = open(&idx);
    let mut info = ask(&hoard, "info", json!({})).unwrap();
    let cli_info = query(&idx, &["info"]);
    assert_eq!(info["path"], Value::Null);
    info["path"] = cli_info["path"].clone();
    assert_eq!(info, cli_info);

    for (letters, center) in [("aeglmpx", "g"), ("aeginrt", "r"), ("aeginrt", "")] {
        let mut args = vec!["bee", "solve", letters];
        let mut request = json!({"letters": letters});
        if !center.is_empty() {
            args.extend(["--center", center]);
            request["center"] = json!(center);
        }
        assert_eq!(ask(&hoard, "bee solve", request.clone()).unwrap(), query(&idx, &args), "{args:?}");
        args[1] = "hints";
        assert_eq!(ask(&hoard, "bee hints", request.clone()).unwrap(), query(&idx, &args), "{args:?}");
        args[1] = "check";
        request["words"] = json!(["game", "zzzz", "ab"]);
        args.extend(["game", "zzzz", "ab"]);
        assert_eq!(ask(&hoard, "bee check", request).unwrap(), query(&idx, &args), "{args:?}");
    }

    // Boxes with `fewest`: the CLI's answer for --max-words K, K the fewest.
    for sides in ["riu pgh lcs yao", "gm ae xl p", "abc def ghi jkl"] {
        let page = ask(&hoard, "boxed solve", json!({"sides": [sides], "max_words": 4, "limit": 0, "fewest": true}));
        let page = page.unwrap();
        let k = page["max_words"].to_string();
        let mut args = vec!["boxed"];
        args.extend(sides.split(' '));
        args.extend(["--max-words", &k, "--limit", "0"]);
        assert_eq!(page, query(&idx, &args), "{sides}");
    }

    for seed in [1u64, 7, 42] {
        let page = ask(&hoard, "bee generate", json!({"seed": seed})).unwrap();
        assert_eq!(page, query(&idx, &["bee", "generate", "--seed", &seed.to_string()]), "seed {seed}");
    }
    for letters in ["deir", "eilnst", "qqq"] {
        let page = ask(&hoard, "anigram unscramble", json!({"letters": letters})).unwrap();
        assert_eq!(page, query(&idx, &["anigram", "unscramble", letters]));
    }
    let chain = ask(&hoard, "anigram longest", json!({"from": "ride"})).unwrap();
    assert_eq!(chain, query(&idx, &["anigram", "longest", "--from", "ride"]));
}

/// The page lists a box's fewest-word solutions: the CLI's first ones, in
/// the CLI's order, with the CLI's counts.
#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn enable1_figures_and_box_solutions_match_the_cli() {
    let idx = enable1();
    let hoard = open(&idx);

    let bee = ask(&hoard, "bee solve", json!({"letters": "aeginrt", "center": "r"})).unwrap();
    assert_eq!((bee["count"].as_u64(), bee["score"].as_u64()), (Some(537), Some(3898)));

    // The fewest words is 2: the page's answer is the CLI's for --max-words 2.
    let box_ = json!({"sides": ["riu pgh lcs yao"], "max_words": 5, "limit": 500, "fewest": true});
    let page = ask(&hoard, "boxed solve", box_).unwrap();
    assert_eq!((page["min_words"].clone(), page["max_words"].clone()), (json!(2), json!(2)));
    let cli = query(&idx, &["boxed", "riu", "pgh", "lcs", "yao", "--max-words", "2", "--limit", "500"]);
    assert_eq!(page, cli);
    let listed = page["solutions"].as_array().unwrap();
    assert_eq!(listed[0], json!(["gracious", "sharply"]));
    // Common marks: exactly the listed words on popular.txt.
    let words: Vec<String> =
        listed.iter().flat_map(|s| s.as_array().unwrap()).map(|w| w.as_str().unwrap().to_string()).collect();
    let popular = std::fs::read_to_string(common::wordlist("popular.txt")).unwrap();
    let popular: std::collections::HashSet<&str> = popular.lines().collect();
    let mut expected: Vec<&str> = words.iter().map(String::as_str).filter(|w| popular.contains(w)).collect();
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(hoard.common_words(&words).unwrap(), expected);
    assert!(expected.contains(&"gracious") && expected.contains(&"sharply"));

    // Counts past 2^53 reach JavaScript as strings: 4 words' solutions fit;
    // every count stays a number or a string of digits.
    let four = ask(&hoard, "boxed solve", json!({"sides": ["riu pgh lcs yao"], "max_words": 4, "limit": 1})).unwrap();
    assert_eq!(four["count"], query(&idx, &["boxed", "riu-pgh-lcs-yao", "--max-words", "4", "--limit", "1"])["count"]);

    for (seed, common) in [(3u64, false), (7, true)] {
        let page = ask(&hoard, "boxed generate", json!({"seed": seed, "common_only": common})).unwrap();
        let seed_text = seed.to_string();
        let mut args = vec!["boxed", "generate", "--seed", &seed_text];
        if common {
            args.push("--common-only");
        }
        assert_eq!(page, query(&idx, &args), "{args:?}");
    }
}

/// Bad input is an error with the library's message, never a panic; a
/// damaged index fails on open or on the first query that reads the
/// damaged section.
#[test]
fn bad_input_and_damaged_bytes_are_errors() {
    let scratch = Scratch::new();
    let bytes = std::fs::read(scratch.golden_index()).unwrap();
    let hoard = Hoard::open(bytes.clone()).unwrap();
    for (command, args, kind) in [
        ("bee solve", json!({"letters": "ab1"}), "usage"),
        ("bee solve", json!({"letters": "aeglmpx", "center": "z"}), "usage"),
        ("boxed solve", json!({"sides": ["ab"]}), "usage"),
        ("boxed solve", json!({"sides": ["riu pgh lcs yao"], "max_words": 0}), "usage"),
        ("anigram unscramble", json!({"letters": ""}), "usage"),
        ("bee solve", json!({"letters": "abc", "centre": "a"}), "usage"),
        ("no such command", json!({}), "usage"),
    ] {
        let e = hoard.answer(command, &args).unwrap_err();
        let message = e.to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{message:?}");
        assert_eq!(wordhoard_web::error_kind(&e), kind, "{command} {args}");
    }
    assert!(Hoard::open(Vec::new()).is_err());
    assert!(Hoard::open(b"not an index at all".to_vec()).is_err());
    // Every 97th byte flipped: each either fails to open or answers every
    // query with Ok or Err, without panicking.
    let mut refused = 0;
    for at in (0..bytes.len()).step_by(97) {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x5a;
        let Ok(h) = Hoard::open(damaged) else {
            refused += 1;
            continue;
        };
        let answers = [
            h.answer("bee solve", &json!({"letters": "aeglmpx", "center": "g"})),
            h.answer("bee hints", &json!({"letters": "aeglmpx", "center": "g"})),
            h.answer("bee check", &json!({"letters": "aeglmpx", "words": ["game"]})),
            h.answer("boxed solve", &json!({"sides": ["gm ae xl p"], "max_words": 3})),
            h.answer("anigram unscramble", &json!({"letters": "deir"})),
            h.answer("anigram longest", &json!({"from": "ride"})),
            h.answer("find", &json!({"pattern": "*e*"})),
        ];
        refused += answers.iter().any(Result::is_err) as usize;
    }
    assert!(refused > bytes.len() / 97 / 2, "most flips are caught: {refused}");
}
