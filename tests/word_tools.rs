//! `find` and `anagram` end to end: output shapes, usage errors, and the
//! same multi-word anagram counts as Debian's `an` on the same list.

mod common;

use std::process::Command;

use common::{query, run, stderr, Scratch};
use serde_json::json;

/// Debian's `an`, installed by `make deps`.
fn an() -> Command {
    let path =
        ["/usr/games/an", "/usr/bin/an", "/usr/local/bin/an"].into_iter().find(|p| std::path::Path::new(p).exists());
    Command::new(path.expect("Debian's `an` is missing: run make deps"))
}

#[test]
fn find_lists_matches_a_z_with_an_exact_count() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let all = query(&idx, &["find", "*", "--limit", "0"]);
    let words: Vec<&str> = all["words"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
    assert_eq!(all["count"], words.len());
    assert!(words.windows(2).all(|w| w[0] < w[1]), "a-z");
    let some = query(&idx, &["find", "[rt]*ing", "--limit", "2"]);
    let want: Vec<&&str> =
        words.iter().filter(|w| (w.starts_with('r') || w.starts_with('t')) && w.ends_with("ing")).collect();
    assert_eq!(some["count"], want.len());
    assert_eq!(some["words"], json!(want[..2]));
    assert_eq!(some["pattern"], "[rt]*ing");
    let five = query(&idx, &["find", "*", "--len", "5", "--limit", "0"]);
    assert_eq!(five["count"], words.iter().filter(|w| w.len() == 5).count());
    let text =
        String::from_utf8(run(&["--index", idx.to_str().unwrap(), "find", "[rt]*ing", "--limit", "2"]).stdout).unwrap();
    assert!(text.ends_with(&format!("(the first 2 of {} words; --limit 0 lists all)\n", want.len())), "{text}");
    assert_eq!(
        text.lines().take_while(|l| !l.starts_with('(')).collect::<Vec<_>>(),
        want[..2].iter().map(|w| **w).collect::<Vec<_>>(),
        "{text}"
    );
    // A leading `*` scans the word text: the same first words, all counted.
    let ing: Vec<&&str> = words.iter().filter(|w| w.ends_with("ing")).collect();
    let text =
        String::from_utf8(run(&["--index", idx.to_str().unwrap(), "find", "*ing", "--limit", "2"]).stdout).unwrap();
    assert_eq!(
        text.lines().take_while(|l| !l.starts_with('(')).collect::<Vec<_>>(),
        ing[..2].iter().map(|w| **w).collect::<Vec<_>>(),
        "{text}"
    );
    assert!(text.ends_with(&format!("(the first 2 of {} words; --limit 0 lists all)\n", ing.len())), "{text}");
    for bad in ["[ab", "a]", "a1b", ""] {
        let out = run(&["--index", idx.to_str().unwrap(), "find", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("a pattern is letters"), "{bad:?}: {}", stderr(&out));
    }
}

/// `build --no-endings` leaves the endings table out; `find` answers the
/// same from the word text, and the index verifies, deep too.
#[test]
fn an_index_without_endings_finds_the_same() {
    let s = Scratch::new();
    let full = s.golden_index();
    let list = common::repo().join("tests/data/golden-words.txt");
    let lean = s.path("lean.hoard");
    let built =
        run(&["build", list.to_str().unwrap(), "--proper-nouns", "keep", "--no-endings", "-o", lean.to_str().unwrap()]);
    assert!(built.status.success(), "{}", stderr(&built));
    let sections = |idx: &std::path::Path| -> Vec<String> {
        let info = query(idx, &["info"]);
        info["sections"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap().to_string()).collect()
    };
    assert!(sections(&full).contains(&"endings".to_string()));
    assert!(!sections(&lean).contains(&"endings".to_string()), "{:?}", sections(&lean));
    for pattern in ["*ing", "*[^aeiou]ly", "*e", "r*s", "*"] {
        let (a, b) =
            (query(&full, &["find", pattern, "--limit", "0"]), query(&lean, &["find", pattern, "--limit", "0"]));
        assert_eq!(a["words"], b["words"], "{pattern}");
        assert_eq!(a["count"], b["count"], "{pattern}");
    }
    let deep = query(&lean, &["verify", "--deep"]);
    assert_eq!(deep["ok"], true, "{deep}");
}

#[test]
fn anagram_takes_blanks_and_subsets() {
    let s = Scratch::new();
    let idx = s.golden_index();
    let exact = query(&idx, &["anagram", "DEIR"]);
    assert_eq!(
        exact,
        json!({"letters": "DEIR", "count": 3, "words": [
        {"word": "dire", "blanks": ""}, {"word": "ired", "blanks": ""}, {"word": "ride", "blanks": ""}]})
    );
    let blank = query(&idx, &["anagram", "rie?"]);
    assert!(blank["words"].as_array().unwrap().contains(&json!({"word": "ride", "blanks": "d"})), "{blank}");
    let sub = query(&idx, &["anagram", "granite", "--sub", "--min-len", "5", "--limit", "0"]);
    let lens: Vec<usize> = sub["words"].as_array().unwrap().iter().map(|w| w["word"].as_str().unwrap().len()).collect();
    assert!(lens.windows(2).all(|w| w[0] >= w[1]) && lens.iter().all(|&l| l >= 5), "{sub}");
    let out = run(&["--index", idx.to_str().unwrap(), "anagram", "ab????"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
#[cfg_attr(not(tool_an), ignore = "needs Debian's `an`: make deps installs it")]
fn multi_word_anagrams_count_what_debian_an_counts() {
    let s = Scratch::new();
    let list = common::repo().join("tests/data/golden-words.txt");
    let idx = s.golden_index();
    // Phrases made of the list's words, so each has anagrams.
    for (phrase, max_words) in
        [("ride dire", 2), ("grain retina", 3), ("tearing ride", 3), ("granite beep", 3), ("rating ride dire", 3)]
    {
        let ours = query(&idx, &["anagram", "--words", phrase, "--max-words", &max_words.to_string(), "--limit", "0"]);
        let out = an()
            .args(["-d", list.to_str().unwrap(), "-l", &max_words.to_string(), "-m", "3", &phrase.replace(' ', "")])
            .output()
            .unwrap();
        let theirs: Vec<Vec<String>> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let mut w: Vec<String> = l.split_whitespace().map(str::to_string).collect();
                w.sort();
                w
            })
            .collect();
        assert_eq!(ours["count"], theirs.len(), "{phrase}");
        let mut theirs = theirs;
        theirs.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        assert_eq!(ours["anagrams"], json!(theirs), "{phrase}");
        assert_eq!(ours["phrase"], phrase);
    }
}
