//! The figures SPEC says must come out on enable1 (and words.txt), as the
//! binary prints them with `--json`. These are the acceptance tests.

mod common;

use common::{enable1, query, shared_index, stderr};
use serde_json::json;

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn info_reports_enable1() {
    let idx = enable1();
    let info = query(&idx, &["info"]);
    assert_eq!(info["words"], 172_820);
    assert_eq!(info["alphabet"], "abcdefghijklmnopqrstuvwxyz");
    assert_eq!(info["format_version"], 3);
    assert_eq!(info["common_words"], 25_322);
    assert_eq!(info["source_sha256"], "f32e6fbdc4cf9c8ec1d992193d7ac33e773fc850ba47ebe2c791ab9d61913d49");
    assert_eq!(info["sources"], serde_json::json!([{"name": "enable1.txt", "sha256": info["source_sha256"]}]));
    assert_eq!(info["common_source"]["name"], "popular.txt");
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn bee_stats() {
    let idx = enable1();
    let stats = query(&idx, &["bee", "stats"]);
    assert_eq!(stats["words"], 172_820);
    assert_eq!(stats["valid"], 44_585);
    assert_eq!(stats["pangram_words"], 14_741);
    assert_eq!(stats["pangram_lettersets"], 7_986);
    assert_eq!(stats["candidate_honeycombs"], 55_902);
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn bee_best_without_and_with_s() {
    let idx = enable1();
    let best = query(&idx, &["bee", "best", "--top", "1"]);
    assert_eq!(
        best["honeycombs"][0],
        json!({"letters": "aeginrt", "center": "r", "score": 3898, "count": 537, "pangrams": 50})
    );
    let with_s = query(&idx, &["bee", "best", "--top", "1", "--exclude", ""]);
    assert_eq!(with_s["honeycombs"][0]["letters"], "aeinrst");
    assert_eq!(with_s["honeycombs"][0]["center"], "e");
    assert_eq!(with_s["honeycombs"][0]["score"], 8681);
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn bee_solve_report_and_hints_agree() {
    let idx = enable1();
    let solve = query(&idx, &["bee", "solve", "aeginrt", "--center", "r"]);
    assert_eq!(
        (solve["score"].clone(), solve["count"].clone(), solve["pangrams"].clone()),
        (json!(3898), json!(537), json!(50))
    );
    let words = solve["words"].as_array().unwrap();
    assert_eq!(words.len(), 537);
    assert!(words.windows(2).all(|w| w[0]["word"].as_str() < w[1]["word"].as_str()), "sorted a-z");
    assert_eq!(words.iter().map(|w| w["score"].as_u64().unwrap()).sum::<u64>(), 3898);
    assert!(words.iter().any(|w| w["word"] == "aerating" && w["score"] == 15 && w["pangram"] == true));

    let report = query(&idx, &["bee", "report", "aeginrt", "--center", "r"]);
    let groups = report["groups"].as_array().unwrap();
    assert_eq!(groups[0]["letters"], "aeginrt", "pangrams first");
    assert_eq!(groups.iter().map(|g| g["count"].as_u64().unwrap()).sum::<u64>(), 537);

    let hints = query(&idx, &["bee", "hints", "aeginrt", "--center", "r"]);
    assert_eq!(hints["count"], 537);
    assert_eq!(hints["bingo"], true);
    let ranks = hints["ranks"].as_array().unwrap();
    assert_eq!(ranks[8], json!({"name": "Genius", "score": 2729}));
    assert_eq!(ranks[9], json!({"name": "Queen Bee", "score": 3898}));
    let grid_total: u64 = hints["grid"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|r| r.as_object().unwrap().values())
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(grid_total, 537);
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn bee_generate_is_reproducible_and_matches_solve() {
    let idx = enable1();
    let args = ["bee", "generate", "--seed", "20261122", "--min-score", "200", "--max-score", "400"];
    let a = query(&idx, &args);
    assert_eq!(a, query(&idx, &args));
    let score = a["score"].as_u64().unwrap();
    assert!((200..=400).contains(&score));
    assert!(a["pangrams"].as_u64().unwrap() > 0);
    assert!(!a["letters"].as_str().unwrap().contains('s'));
    let solve =
        query(&idx, &["bee", "solve", a["letters"].as_str().unwrap(), "--center", a["center"].as_str().unwrap()]);
    assert_eq!(solve["score"], a["score"]);
    let common = query(&idx, &["bee", "generate", "--seed", "5", "--common-only", "--min-words", "20"]);
    assert!(common["words"].as_array().unwrap().iter().all(|w| w["common"] == true));
    assert!(common["count"].as_u64().unwrap() >= 20);
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn anigram_figures() {
    let idx = enable1();
    assert_eq!(query(&idx, &["anigram", "count"])["games"], 4_510_515);
    let top = query(&idx, &["anigram", "top", "--top", "1"]);
    assert_eq!(top["terms"][0]["term"], "aers");
    assert_eq!(top["terms"][0]["games"], 64_422);
    let longest = query(&idx, &["anigram", "longest"]);
    assert_eq!(longest["length"], 13);
    let chain = longest["chain"].as_array().unwrap();
    assert_eq!(chain[0]["term"].as_str().unwrap().len(), 4);
    assert_eq!(chain[12]["words"][0].as_str().unwrap().len(), 16);
    assert_eq!(
        query(&idx, &["anigram", "unscramble", "deir"]),
        json!({"term": "deir", "words": ["dire", "ired", "ride"]})
    );
    let aelrst = query(&idx, &["anigram", "unscramble", "aelrst"]);
    let words = aelrst["words"].as_array().unwrap();
    assert_eq!(words.len(), 11);
    assert_eq!((words[0].as_str(), words[10].as_str()), (Some("alerts"), Some("talers")));
    let beep = query(&idx, &["anigram", "count", "--from", "beep"]);
    assert_eq!(beep["games"], 1);
    let beep_chain = query(&idx, &["anigram", "longest", "--from", "beep"]);
    assert_eq!(beep_chain["length"], 6);
    assert_eq!(beep_chain["chain"][5]["words"], json!(["bedplates"]));
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn anigram_terms_count_and_generate() {
    let idx = enable1();
    let info = query(&idx, &["anigram", "count", "--start-len", "1", "--goal-len", "2"]);
    assert!(info["games"].as_u64().is_some());
    let game = query(&idx, &["anigram", "generate", "--seed", "9"]);
    assert_eq!(game, query(&idx, &["anigram", "generate", "--seed", "9"]));
    let chain = game["chain"].as_array().unwrap();
    assert_eq!(chain.len(), 6);
    assert_eq!(chain[0]["term"].as_str().unwrap().len(), 4);
    assert_eq!(chain[5]["term"].as_str().unwrap().len(), 9);
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn boxed_enable1_with_common_list() {
    let idx = enable1();
    let answer = query(&idx, &["boxed", "solve", "riu", "pgh", "lcs", "yao"]);
    assert_eq!(answer["playable"], 1145);
    assert_eq!(answer["count"], 120);
    assert_eq!(answer["min_words"], 2);
    assert_eq!(answer["sides"], json!(["riu", "pgh", "lcs", "yao"]));
    let s = answer["solutions"].as_array().unwrap();
    assert_eq!(s.len(), 20, "--limit defaults to 20");
    assert_eq!(
        s[..3],
        [json!(["gracious", "sharply"]), json!(["gracious", "splashy"]), json!(["group", "psychological"])]
    );
    let all = query(&idx, &["boxed", "solve", "riu", "pgh", "lcs", "yao", "--limit", "0"]);
    assert_eq!(all["solutions"].as_array().unwrap().len(), 120);
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn boxed_words_txt() {
    // SPEC's figure is the list with its capitalised words lowercased, as
    // every build made them before the proper-noun rule.
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept.hoard");
    let words = common::wordlist("words.txt");
    let out = ["build", words.to_str().unwrap(), "--proper-nouns", "keep", "-o", kept.to_str().unwrap()];
    assert_eq!(common::json(&out)["words"], 416_293);
    assert_eq!(query(&kept, &["boxed", "solve", "riu", "pgh", "lcs", "yao"])["count"], 1312);
    // By default, 4 in 5 of its words have no capital: the 75,173 with one
    // are proper nouns (`Aaron`, `ACLU`), skipped.
    let idx = shared_index("words.txt", None);
    let info = query(&idx, &["info"]);
    assert_eq!(info["words"], 341_124);
    assert_eq!(info["proper_nouns"], json!({"policy": "skip", "auto": true, "capitalised": 75_173, "words": 416_297}));
    assert_eq!(query(&idx, &["boxed", "solve", "riu", "pgh", "lcs", "yao"])["count"], 1002);
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn terms_figures_from_info_of_the_build() {
    let words = common::wordlist("enable1.txt");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("e.hoard");
    let built = common::json(&["build", words.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(built["words"], 172_820);
    assert_eq!(built["terms"], 156_473);
    assert_eq!(built["skipped"], 0);
    let four = query(&out, &["anigram", "top", "--top", "100000"]);
    assert_eq!(four["terms"].as_array().unwrap().len(), 2_674, "4-letter terms");
}

/// Counts past u64 come out exact, and the same, in JSON and text.
#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn boxed_counts_past_u64_are_exact_in_json() {
    let idx = enable1();
    let args = ["boxed", "solve", "ae", "io", "rs", "tn", "lc", "--max-words", "8", "--limit", "1"];
    let answer = query(&idx, &args);
    let count: u128 = answer["count"].to_string().parse().unwrap();
    assert!(count > u64::MAX as u128, "{count}");
    let by_words: u128 =
        (1..=8).map(|k| answer["count_by_words"][k.to_string()].to_string().parse::<u128>().unwrap()).sum();
    assert_eq!(by_words, count);
    let mut all = vec!["--index", idx.to_str().unwrap()];
    all.extend_from_slice(&args);
    let text = String::from_utf8(common::run(&all).stdout).unwrap();
    assert!(text.replace(',', "").contains(&format!("{count} solutions")), "{text}");
}

/// Listing streams: `| head` ends a listing of 43 million solutions at
/// once, and what it saw is the start of the documented order.
#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn boxed_listing_streams_and_stops_when_the_reader_does() {
    use std::io::{BufRead, BufReader};
    let idx = enable1();
    let started = std::time::Instant::now();
    let mut child = common::bin()
        .arg("--index")
        .arg(&idx)
        .args(["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "4", "--limit", "0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let lines: Vec<String> =
        BufReader::new(child.stdout.take().unwrap()).lines().take(13).map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    assert!(status.success(), "a closed pipe is not an error");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "it stopped with its reader");
    assert!(lines.iter().any(|l| l.contains("43,317,645 solutions")), "{lines:#?}");
    assert!(lines[12].contains("1. gracious") && lines[12].contains("sharply"), "{lines:#?}");
}

/// Any box the parser accepts answers or stops with a clear message in
/// seconds, within bounded memory (the search's states are capped).
#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn every_box_answers_or_stops_quickly() {
    let idx = enable1();
    let singles: Vec<String> = ('a'..='z').map(String::from).collect();
    let pairs: Vec<String> = "ab cd ef gh ij kl mn op qr st uv wx yz".split(' ').map(String::from).collect();
    let boxes: Vec<Vec<String>> = vec![
        singles.clone(),
        singles[..13].to_vec(),
        pairs.clone(),
        pairs[..6].to_vec(),
        vec!["abcdefghijklm".into(), "nopqrstuvwxyz".into()],
        "abc def ghi jkl mno pqr".split(' ').map(String::from).collect(),
        "ae io rs tn lc".split(' ').map(String::from).collect(),
    ];
    for sides in &boxes {
        for max_words in ["1", "2", "3", "8"] {
            let started = std::time::Instant::now();
            let out = common::bin()
                .arg("--index")
                .arg(&idx)
                .args(["boxed", "solve"])
                .args(sides)
                .args(["--max-words", max_words, "--json"])
                .output()
                .unwrap();
            let err = stderr(&out);
            assert!(started.elapsed() < std::time::Duration::from_secs(10), "{sides:?} {max_words}");
            match out.status.code() {
                Some(0) => assert!(serde_json::from_slice::<serde_json::Value>(&out.stdout).is_ok()),
                Some(1) => assert!(err.contains("too large to search") && err.contains("allow fewer words"), "{err}"),
                code => panic!("{sides:?} --max-words {max_words}: {code:?} {err}"),
            }
        }
    }
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn generated_boxes_are_solved_again_to_the_same_answers() {
    let idx = enable1();
    let popular: std::collections::HashSet<String> =
        std::fs::read_to_string(common::wordlist("popular.txt")).unwrap().lines().map(str::to_string).collect();
    for (seed, common_only) in (1..=10).map(|s| (s, false)).chain((11..=15).map(|s| (s, true))) {
        let seed = seed.to_string();
        let mut args = vec!["boxed", "generate", "--seed", &seed, "--limit", "0"];
        if common_only {
            args.push("--common-only");
        }
        let generated = query(&idx, &args);
        assert_eq!(query(&idx, &args), generated, "seed {seed}: the same box again");
        let sides: Vec<&str> = generated["sides"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        assert_eq!(sides.len(), 4);
        let letters: std::collections::BTreeSet<char> = sides.iter().flat_map(|s| s.chars()).collect();
        assert!(sides.iter().all(|s| s.len() == 3) && letters.len() == 12, "seed {seed}: {sides:?}");
        let mut solve = vec!["boxed", "solve"];
        solve.extend(&sides);
        solve.extend(["--limit", "0"]);
        if common_only {
            solve.push("--common-only");
        }
        let solved = query(&idx, &solve);
        assert!(generated["count"].as_u64().unwrap() >= 1, "seed {seed}: a solution of at most 2 words");
        assert_eq!(solved["count"], generated["count"], "seed {seed}");
        assert_eq!(solved["solutions"], generated["solutions"], "seed {seed}");
        if common_only {
            for word in generated["solutions"].as_array().unwrap().iter().flat_map(|s| s.as_array().unwrap()) {
                assert!(popular.contains(word.as_str().unwrap()), "seed {seed}: {word} is not common");
            }
        }
    }
    // Text hides the solutions unless asked.
    let generated = query(&idx, &["boxed", "generate", "--seed", "1"]);
    let first = generated["solutions"][0][0].as_str().unwrap().to_string();
    let text = |extra: &[&str]| {
        let mut args = vec!["--index", idx.to_str().unwrap(), "boxed", "generate", "--seed", "1"];
        args.extend_from_slice(extra);
        String::from_utf8(common::run(&args).stdout).unwrap()
    };
    assert!(!text(&[]).contains(&first) && text(&["--answers"]).contains(&first), "{first}");
    // Bounds are met, and bounds that cannot be are an error, not a wait.
    let bounded = query(&idx, &["boxed", "generate", "--seed", "3", "--min-solutions", "10", "--max-solutions", "30"]);
    assert!((10..=30).contains(&bounded["count"].as_u64().unwrap()), "{bounded}");
    let out = common::run(&["--index", idx.to_str().unwrap(), "boxed", "generate", "--min-solutions", "1000000000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("none at least 1000000000, as asked"), "{}", stderr(&out));
    // No 2-word solution: the shortest are named.
    let out = query(&idx, &["boxed", "abc", "def", "ghi", "jkl"]);
    assert_eq!(out["count"], 0);
    let longer = query(&idx, &["boxed", "abc", "def", "ghi", "jkl", "--max-words", "4", "--limit", "0"]);
    assert_eq!(out["shortest"], json!({"words": 4, "count": longer["count_by_words"]["4"]}));
    assert_eq!(longer["min_words"], 4);
}

#[test]
#[cfg_attr(not(shared_wordlists), ignore = "needs the shared word lists: ../shared/wordlists or $WORDHOARD_WORDLISTS")]
fn anigram_generate_common_only_plays_only_common_words() {
    let idx = enable1();
    let popular = std::fs::read_to_string(common::wordlist("popular.txt")).unwrap();
    let popular: std::collections::HashSet<&str> = popular.lines().map(str::trim).collect();
    for seed in ["1", "2", "3"] {
        let game = query(&idx, &["anigram", "generate", "--seed", seed, "--common-only"]);
        assert_eq!(game, query(&idx, &["anigram", "generate", "--seed", seed, "--common-only"]), "reproducible");
        let steps = game["chain"].as_array().unwrap();
        assert_eq!(steps.len(), 6, "4 -> 9 letters");
        for step in steps {
            let words = step["words"].as_array().unwrap();
            assert!(!words.is_empty() && words.iter().all(|w| popular.contains(w.as_str().unwrap())), "{step}");
        }
    }
}
