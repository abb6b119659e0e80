//! The web page's queries (crates/web), run natively: the same JSON as
//! `wordhoard --json` for the same question, the issue's figures on
//! enable1, and damaged bytes as errors. The page itself is driven in
//! Chromium by `make test-web` (web/test/page.test.mjs).

mod common;

use common::{enable1, query, Scratch};
use serde_json::{json, Value};
use wordhoard_web::{Hoard, MAX_LISTED_SOLUTIONS};

fn open(path: &std::path::Path) -> Hoard {
    Hoard::open(std::fs::read(path).unwrap()).unwrap()
}

/// Every answer the page gets is the CLI's answer, key for key.
#[test]
fn answers_match_the_cli_json() {
    let scratch = Scratch::new();
    let idx = scratch.golden_index();
    let hoard = open(&idx);
    let words = hoard.describe()["words"].clone();
    assert_eq!(words, query(&idx, &["info"])["words"]);

    for (letters, center) in [("aeglmpx", "g"), ("aeginrt", "r"), ("aeginrt", "")] {
        let mut args = vec!["bee", "solve", letters];
        if !center.is_empty() {
            args.extend(["--center", center]);
        }
        assert_eq!(hoard.bee_solve(letters, center, false).unwrap(), query(&idx, &args), "{args:?}");
        args[1] = "hints";
        assert_eq!(hoard.bee_hints(letters, center, false).unwrap(), query(&idx, &args), "{args:?}");
        args[1] = "check";
        let solved = hoard.bee_solve(letters, center, false).unwrap();
        let first = solved["words"].get(0).map(|w| w["word"].as_str().unwrap().to_string());
        let guesses: Vec<String> = first.into_iter().chain(["zzzz".into(), "ab".into()]).collect();
        let mut check_args = args.clone();
        check_args.extend(guesses.iter().map(String::as_str));
        assert_eq!(
            hoard.bee_check(letters, center, &guesses.join(", "), false).unwrap(),
            query(&idx, &check_args),
            "{check_args:?}"
        );
    }

    // Boxes: the page's answer is the CLI's for --max-words K, K the fewest.
    for sides in ["riu pgh lcs yao", "gm ae xl p", "abc def ghi jkl"] {
        let page = hoard.boxed_solve(sides, 4, 0).unwrap();
        let k = page["max_words"].to_string();
        let mut args = vec!["boxed"];
        args.extend(sides.split(' '));
        args.extend(["--max-words", &k, "--limit", "0"]);
        let mut cli = query(&idx, &args);
        let mut page = page;
        assert!(page.as_object_mut().unwrap().remove("common").is_some());
        cli["solutions"] =
            json!(cli["solutions"].as_array().unwrap().iter().take(MAX_LISTED_SOLUTIONS).collect::<Vec<_>>());
        assert_eq!(page, cli, "{sides}");
    }

    // Generated honeycombs: the same seed, the same puzzle as the CLI's.
    for seed in [1u64, 7, 42] {
        let page = hoard.bee_generate(seed, false).unwrap();
        assert_eq!(page, query(&idx, &["bee", "generate", "--seed", &seed.to_string()]), "seed {seed}");
    }

    for letters in ["deir", "eilnst", "qqq"] {
        assert_eq!(hoard.anigram_unscramble(letters).unwrap(), query(&idx, &["anigram", "unscramble", letters]));
    }
    for from in ["ride", "eilnst"] {
        match hoard.anigram_longest(from) {
            Ok(v) => assert_eq!(v, query(&idx, &["anigram", "longest", "--from", from])),
            Err(e) => assert!(e.to_string().contains("no word"), "{e}"),
        }
    }
}

/// The page lists a box's fewest-word solutions: the CLI's first ones, in
/// the CLI's order, with the CLI's counts.
#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn enable1_figures_and_box_solutions_match_the_cli() {
    let idx = enable1();
    let hoard = open(&idx);

    let bee = hoard.bee_solve("aeginrt", "r", false).unwrap();
    assert_eq!((bee["count"].as_u64(), bee["score"].as_u64()), (Some(537), Some(3898)));

    // The fewest words is 2: the page's answer is the CLI's for --max-words 2.
    let page = hoard.boxed_solve("riu pgh lcs yao", 5, 0).unwrap();
    assert_eq!(page["min_words"], 2);
    let cli = query(&idx, &["boxed", "riu", "pgh", "lcs", "yao", "--max-words", "2", "--limit", "0"]);
    for key in ["sides", "playable", "count", "count_by_words", "min_words", "max_words", "shortest"] {
        assert_eq!(page[key], cli[key], "{key}");
    }
    let cli_listed: Vec<&Value> = cli["solutions"].as_array().unwrap().iter().take(MAX_LISTED_SOLUTIONS).collect();
    let listed = page["solutions"].as_array().unwrap();
    assert_eq!(listed.iter().collect::<Vec<_>>(), cli_listed);
    assert_eq!(listed[0], json!(["gracious", "sharply"]));
    let limited = hoard.boxed_solve("riu pgh lcs yao", 5, 3).unwrap();
    assert_eq!(limited["solutions"].as_array().unwrap()[..], listed[..3]);
    // `common` names exactly the listed words on popular.txt.
    let popular = std::fs::read_to_string(common::wordlist("popular.txt")).unwrap();
    let popular: std::collections::HashSet<&str> = popular.lines().collect();
    let mut expected: Vec<&str> = listed
        .iter()
        .flat_map(|s| s.as_array().unwrap())
        .map(|w| w.as_str().unwrap())
        .filter(|w| popular.contains(w))
        .collect();
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(page["common"], json!(expected));
    assert!(expected.contains(&"gracious") && expected.contains(&"sharply"));

    // With no solution of up to 3 words, `shortest` tells how many the fewest take.
    let none = hoard.boxed_solve("abc def ghi jkl", 3, 0).unwrap();
    let cli = query(&idx, &["boxed", "abc", "def", "ghi", "jkl", "--max-words", "3"]);
    assert_eq!(none["count"], 0);
    assert_eq!(none["shortest"], cli["shortest"]);
    assert_eq!(none["count_by_words"], cli["count_by_words"]);
    assert_eq!(none["solutions"], json!([]));

    // Generated boxes: the CLI's for the same seed.
    for (seed, common) in [(3u64, false), (7, true)] {
        let page = hoard.boxed_generate(seed, common).unwrap();
        let mut args = vec!["boxed", "generate", "--seed"];
        let seed_text = seed.to_string();
        args.push(&seed_text);
        if common {
            args.push("--common-only");
        }
        assert_eq!(page, query(&idx, &args), "{args:?}");
        assert_eq!(page["sides"].as_array().unwrap().len(), 4);
    }

    let deir = hoard.anigram_unscramble("deir").unwrap();
    assert_eq!(deir["words"], json!(["dire", "ired", "ride"]));
    let chain = hoard.anigram_longest("ride").unwrap();
    assert_eq!(chain, query(&idx, &["anigram", "longest", "--from", "ride"]));
}

/// Bad input is an error with the library's message, never a panic; a
/// damaged index fails on open or on the first query that reads the
/// damaged section.
#[test]
fn bad_input_and_damaged_bytes_are_errors() {
    let scratch = Scratch::new();
    let bytes = std::fs::read(scratch.golden_index()).unwrap();
    let hoard = Hoard::open(bytes.clone()).unwrap();
    for e in [
        hoard.bee_solve("ab1", "", false).unwrap_err(),
        hoard.bee_solve("aeglmpx", "z", false).unwrap_err(),
        hoard.boxed_solve("ab", 3, 0).unwrap_err(),
        hoard.boxed_solve("riu pgh lcs yao", 0, 0).unwrap_err(),
        hoard.anigram_unscramble("").unwrap_err(),
    ] {
        let message = e.to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{message:?}");
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
            h.bee_solve("aeglmpx", "g", false),
            h.bee_hints("aeglmpx", "g", false),
            h.bee_check("aeglmpx", "g", "game", false),
            h.boxed_solve("gm ae xl p", 3, 0),
            h.anigram_unscramble("deir"),
            h.anigram_longest("ride"),
        ];
        refused += answers.iter().any(Result::is_err) as usize;
    }
    assert!(refused > bytes.len() / 97 / 2, "most flips are caught: {refused}");
}
