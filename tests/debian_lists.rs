//! Word lists as people have them: Debian's dictionaries, built with no
//! flags, give the index a speaker of the language expects. Skipped (and
//! counted as skipped) where the packages are not installed: `make deps`
//! installs wamerican-huge and wngerman.

mod common;

use common::{json, query, Scratch};

const AMERICAN: &str = "/usr/share/dict/american-english-huge";
const GERMAN: &str = "/usr/share/dict/ngerman";

#[test]
#[cfg_attr(not(debian_dicts), ignore = "needs Debian's wamerican-huge and wngerman: make deps")]
fn american_english_huge_is_an_english_index() {
    let s = Scratch::new();
    let idx = s.path("american.hoard");
    let report = json(&["build", AMERICAN, "-o", idx.to_str().unwrap()]);
    // About 3 in 1,000 of its words carry an accent: it is an a-z list,
    // and those words are skipped and counted, with an example.
    assert_eq!(report["alphabet"], "abcdefghijklmnopqrstuvwxyz");
    assert_eq!(report["alphabet_rule"]["rule"], "mostly_a_to_z");
    let (plain, words) =
        (report["alphabet_rule"]["plain"].as_u64().unwrap(), report["alphabet_rule"]["words"].as_u64().unwrap());
    assert!(plain * 100 >= words * 99 && plain < words, "{plain} of {words}");
    let outside = report["skipped_by_reason"]["letter_outside_alphabet"].as_u64().unwrap();
    assert_eq!(outside, words - plain);
    let example = report["skipped_examples"]["letter_outside_alphabet"].as_str().unwrap();
    assert!(!example.is_ascii() && example.chars().all(char::is_alphabetic), "{example}");
    // Proper nouns (Lucinda, ACLU) are skipped, and info says so.
    assert_eq!(report["proper_nouns"]["policy"], "skip");
    assert!(report["skipped_by_reason"]["proper_noun"].as_u64().unwrap() > 10_000, "{report}");
    let info = query(&idx, &["info"]);
    assert_eq!(info["proper_nouns"]["policy"], "skip");
    assert_eq!(info["proper_nouns"]["capitalised"], report["skipped_by_reason"]["proper_noun"]);
    for noun in ["lucinda", "aclu"] {
        assert_eq!(query(&idx, &["find", noun])["count"], 0, "{noun}");
    }
    assert_eq!(query(&idx, &["find", "lucid"])["count"], 1);
    // The S rule holds: generated puzzles are English, without S.
    for seed in 1..=5 {
        let seed = seed.to_string();
        let bee = query(&idx, &["bee", "generate", "--seed", &seed]);
        let letters = bee["letters"].as_str().unwrap();
        assert!(letters.bytes().all(|b| b.is_ascii_lowercase()) && !letters.contains('s'), "{letters}");
    }
    // Kept, the capitals are words again.
    let kept = json(&["build", AMERICAN, "--proper-nouns", "keep", "-o", idx.to_str().unwrap()]);
    assert_eq!(kept["skipped_by_reason"]["proper_noun"], 0);
    assert!(kept["words"].as_u64().unwrap() > report["words"].as_u64().unwrap());
    assert!(query(&idx, &["info"])["proper_nouns"].is_null(), "a build that kept them is as builds were");
}

#[test]
#[cfg_attr(not(debian_dicts), ignore = "needs Debian's wamerican-huge and wngerman: make deps")]
fn ngerman_keeps_its_letters_and_its_nouns() {
    let s = Scratch::new();
    let idx = s.path("german.hoard");
    let report = json(&["build", GERMAN, "-o", idx.to_str().unwrap()]);
    let alphabet = report["alphabet"].as_str().unwrap();
    assert!("äöüß".chars().all(|c| alphabet.contains(c)), "{alphabet}");
    assert_eq!(report["alphabet_rule"]["rule"], "letters_used");
    // A third of its words are capitalised nouns: not proper nouns.
    assert_eq!(report["proper_nouns"]["policy"], "keep");
    assert_eq!(report["proper_nouns"]["auto"], true);
    assert_eq!(report["skipped_by_reason"]["proper_noun"], 0);
    assert_eq!(query(&idx, &["find", "straße"])["count"], 1);
    assert_eq!(query(&idx, &["find", "haus"])["count"], 1, "Haus, a noun");
    // An alphabet by ranges: a-z and the four German letters.
    let fixed = json(&["build", GERMAN, "--alphabet", "a-zäöüß", "-o", idx.to_str().unwrap()]);
    assert_eq!(fixed["alphabet"], "abcdefghijklmnopqrstuvwxyzßäöü");
    assert_eq!(fixed["alphabet_rule"]["rule"], "given");
}
