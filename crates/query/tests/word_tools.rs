//! `find` and `anagram` against plain brute force over the word list, on
//! random small lists: patterns drawn from the grammar, 0-2 blanks, and
//! phrases made of 2-4 of the list's words.

use std::collections::BTreeSet;

use proptest::prelude::*;
use wordhoard_builder::{build_index, BuildOptions, WordSource};
use wordhoard_query::anagram::{self, AnagramOptions, PhraseOptions};
use wordhoard_query::find::{self, FindOptions, Pattern};
use wordhoard_query::format::{FileWriter, SectionId};
use wordhoard_query::Index;

const LETTERS: &[u8] = b"abcdef";

fn word() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(LETTERS), 1..8).prop_map(|v| String::from_utf8(v).unwrap())
}

fn index_of(words: &[String]) -> Index<Vec<u8>> {
    let built = build_index(&[WordSource::from_text("t", &words.join("\n"))], &BuildOptions::default()).unwrap();
    Index::from_bytes(built.into_bytes()).unwrap()
}

/// The same index without its optional word text (nor the endings,
/// read through it), as builds before them wrote it: ids turn into
/// words, and patterns that start with `*` run, through the words FST.
fn without_word_text(index: &Index<Vec<u8>>) -> Index<Vec<u8>> {
    without(index, &[SectionId::WordText, SectionId::Endings])
}

/// The same index without its optional `endings`: patterns that start
/// with `*` scan the word text.
fn without_endings(index: &Index<Vec<u8>>) -> Index<Vec<u8>> {
    without(index, &[SectionId::Endings])
}

fn without(index: &Index<Vec<u8>>, sections: &[SectionId]) -> Index<Vec<u8>> {
    let mut file = FileWriter::new();
    for entry in &index.header().sections {
        if sections.iter().all(|s| s.code() != entry.code) {
            file.add_raw(entry.code, index.as_bytes()[entry.range()].to_vec());
        }
    }
    Index::from_bytes(file.finish()).unwrap()
}

fn distinct(words: &[String]) -> Vec<String> {
    words.iter().cloned().collect::<BTreeSet<_>>().into_iter().collect()
}

/// One pattern token as text, and as a brute-force matcher's token.
#[derive(Clone, Debug)]
enum Tok {
    Letter(u8),
    Any,
    Star,
    Set(Vec<u8>, bool),
}

fn token() -> impl Strategy<Value = Tok> {
    prop_oneof![
        3 => proptest::sample::select(LETTERS).prop_map(Tok::Letter),
        2 => Just(Tok::Any),
        2 => Just(Tok::Star),
        1 => (proptest::sample::subsequence(LETTERS.to_vec(), 1..4), any::<bool>()).prop_map(|(s, neg)| Tok::Set(s, neg)),
    ]
}

fn pattern_text(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| match t {
            Tok::Letter(b) => (*b as char).to_string(),
            Tok::Any => "?".into(),
            Tok::Star => "*".into(),
            Tok::Set(s, neg) => format!("[{}{}]", if *neg { "^" } else { "" }, String::from_utf8(s.clone()).unwrap()),
        })
        .collect()
}

/// Backtracking match, the textbook way.
fn matches(toks: &[Tok], w: &[u8]) -> bool {
    match toks.split_first() {
        None => w.is_empty(),
        Some((Tok::Star, rest)) => (0..=w.len()).any(|i| matches(rest, &w[i..])),
        Some((t, rest)) => {
            let Some((&c, tail)) = w.split_first() else { return false };
            let ok = match t {
                Tok::Letter(b) => c == *b,
                Tok::Any => true,
                Tok::Set(s, neg) => s.contains(&c) != *neg,
                Tok::Star => unreachable!(),
            };
            ok && matches(rest, tail)
        }
    }
}

fn counts(w: &str) -> [u8; 26] {
    let mut c = [0u8; 26];
    w.bytes().for_each(|b| c[(b - b'a') as usize] += 1);
    c
}

/// `find` of the pattern `toks` over `words` gives what the backtracking
/// matcher keeps, a-z, and counts it: with the endings (a pattern that
/// starts with `*` finds its words by their last letters), with the word
/// text only (it scans the text) and without either (every pattern walks
/// the FST).
fn find_agrees(words: &[String], toks: &[Tok], len: Option<usize>) -> Result<(), TestCaseError> {
    // Every other word common, for `common_only`.
    let common: Vec<String> = distinct(words).into_iter().step_by(2).collect();
    let opts = BuildOptions { common: Some(WordSource::from_text("c", &common.join("\n"))), ..Default::default() };
    let built = build_index(&[WordSource::from_text("t", &words.join("\n"))], &opts).unwrap();
    let index = Index::from_bytes(built.into_bytes()).unwrap();
    let text = pattern_text(toks);
    for common_only in [false, true] {
        let want: Vec<String> = distinct(words)
            .into_iter()
            .filter(|w| matches(toks, w.as_bytes()) && len.is_none_or(|n| w.len() == n))
            .filter(|w| !common_only || common.contains(w))
            .collect();
        for index in [without_word_text(&index), without_endings(&index), without(&index, &[])] {
            let pattern = Pattern::parse(index.alphabet(), &text).unwrap();
            let mut got = Vec::new();
            let opts = FindOptions { len, common_only };
            let count = find::find(&index, &pattern, &opts, |w, is_common| {
                assert_eq!(is_common, common.contains(&w.to_string()), "{w}");
                got.push(w.to_string())
            })
            .unwrap();
            prop_assert_eq!(count, want.len() as u64, "{} common only {}", text, common_only);
            prop_assert_eq!(&got, &want, "{} common only {}", text, common_only);
            // The first few shown, all counted.
            for limit in [0, 1, 3] {
                let mut first = Vec::new();
                let count = find::find_first(&index, &pattern, &opts, limit, |w, _| first.push(w.to_string())).unwrap();
                prop_assert_eq!(count, want.len() as u64, "{} limit {}", text, limit);
                prop_assert_eq!(&first[..], &want[..want.len().min(limit)], "{} limit {}", text, limit);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn find_matches_brute_force(words in proptest::collection::vec(word(), 0..60), toks in proptest::collection::vec(token(), 1..6), len in proptest::option::of(1usize..8)) {
        find_agrees(&words, &toks, len)?;
    }

    /// Patterns that start with `*` and end in letters: the endings settle
    /// up to four of the letters after the last `*` and leave the rest to
    /// a test a word, the scan of the word text tests them first, and the
    /// walk of the FST skips (node, state) pairs it found dead on another
    /// path; bigger lists, so many words end alike.
    #[test]
    fn suffix_patterns_match_brute_force(words in proptest::collection::vec(word(), 50..400), tail in proptest::collection::vec(token(), 1..6), len in proptest::option::of(2usize..8)) {
        let mut toks = vec![Tok::Star];
        toks.extend(tail.into_iter().filter(|t| !matches!(t, Tok::Star)));
        toks.push(Tok::Letter(b'e'));
        find_agrees(&words, &toks, len)?;
    }

    /// Patterns whose head asks only for a length (`??*ce`, `?*?*e`):
    /// the endings settle the tail and the lengths alone are read, against
    /// the scan, the walk of the FST and brute force.
    #[test]
    fn length_and_suffix_patterns_match_brute_force(words in proptest::collection::vec(word(), 50..400), head in proptest::collection::vec(prop_oneof![3 => Just(Tok::Any), 1 => Just(Tok::Star)], 1..5), tail in proptest::collection::vec(proptest::sample::select(LETTERS).prop_map(Tok::Letter), 0..3), len in proptest::option::of(2usize..8)) {
        let mut toks = head;
        toks.push(Tok::Star);
        toks.extend(tail);
        toks.push(Tok::Letter(b'e'));
        find_agrees(&words, &toks, len)?;
    }

    /// Patterns with a `*` after letter tokens (`qu*`, `b*e`, `[ab]?*e`):
    /// their words are runs of ids, one a beginning, read from the word
    /// text, or those the endings name when they are fewer, against the
    /// walk of the FST (the index without the text) and brute force;
    /// bigger lists, so many words start alike.
    #[test]
    fn prefix_patterns_match_brute_force(words in proptest::collection::vec(word(), 50..400), prefix in proptest::collection::vec(token(), 1..4), rest in proptest::collection::vec(token(), 0..5), len in proptest::option::of(1usize..8)) {
        let mut toks: Vec<Tok> = prefix.into_iter().map(|t| if matches!(t, Tok::Star) { Tok::Any } else { t }).collect();
        toks.push(Tok::Star);
        toks.extend(rest);
        find_agrees(&words, &toks, len)?;
    }

    /// Patterns of one length that end in letters (`???ing`): the words
    /// that end alike, from the endings when they are few, or the walk of
    /// the FST, against brute force; bigger lists, so many end alike.
    #[test]
    fn fixed_length_patterns_match_brute_force(words in proptest::collection::vec(word(), 50..400), head in proptest::collection::vec(token(), 0..5), len in proptest::option::of(2usize..8)) {
        let mut toks: Vec<Tok> = head.into_iter().map(|t| if matches!(t, Tok::Star) { Tok::Any } else { t }).collect();
        toks.extend([Tok::Letter(b'c'), Tok::Letter(b'e')]);
        find_agrees(&words, &toks, len)?;
    }

    /// Every id turns into the same word through the word text as through
    /// the FST, and both are the sorted list's word of that rank.
    #[test]
    fn ids_turn_into_their_words_with_and_without_the_text(words in proptest::collection::vec(word(), 1..200), picks in proptest::collection::vec(any::<prop::sample::Index>(), 0..40)) {
        let index = index_of(&words);
        let ids = 0..index.word_count() as u32;
        let want = distinct(&words);
        prop_assert_eq!(&index.words_of(ids.clone()).unwrap(), &want);
        prop_assert_eq!(&without_word_text(&index).words_of(ids.clone()).unwrap(), &want);
        // Any ids in any order, repeats too, read in one pass.
        let picked: Vec<u32> = picks.iter().map(|p| p.index(want.len()) as u32).collect();
        let want_picked: Vec<&str> = picked.iter().map(|&id| want[id as usize].as_str()).collect();
        for index in [&index, &without_word_text(&index)] {
            let texts = index.texts_of(&picked).unwrap();
            prop_assert_eq!(texts.iter().collect::<Vec<_>>(), want_picked.clone());
        }
        prop_assert!(index.texts_of(&[want.len() as u32]).is_err());
        // One at a time, from the end: runs read from their stored starts.
        for id in ids.rev() {
            prop_assert_eq!(&index.word(id).unwrap(), &want[id as usize]);
        }
    }

    #[test]
    fn anagrams_with_blanks_match_brute_force(words in proptest::collection::vec(word(), 0..60), letters in word(), blanks in 0usize..3, min_len in 1usize..4, limit in 0usize..6) {
        let index = index_of(&words);
        let typed = format!("{letters}{}", "?".repeat(blanks));
        let have = counts(&letters);
        // What a word needs beyond the letters: that many blanks.
        let extra = |w: &str| -> usize { counts(w).iter().zip(&have).map(|(&n, &h)| n.saturating_sub(h) as usize).sum() };
        let unused = |w: &str| -> usize { counts(w).iter().zip(&have).map(|(&n, &h)| h.saturating_sub(n) as usize).sum() };
        let blanks_of = |w: &str| -> String {
            let mut h = have;
            let mut out: Vec<u8> = Vec::new();
            for b in w.bytes() {
                let i = (b - b'a') as usize;
                if h[i] > 0 { h[i] -= 1 } else { out.push(b) }
            }
            out.sort_unstable();
            String::from_utf8(out).unwrap()
        };
        let order = |v: &mut Vec<(String, String)>| v.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        let opts = AnagramOptions { min_len, common_only: false };

        let got: Vec<(String, String)> = anagram::anagrams(&index, &typed, &opts).unwrap().into_iter().map(|a| (a.word, a.blanks)).collect();
        let mut want: Vec<(String, String)> = distinct(&words).into_iter()
            .filter(|w| extra(w) == blanks && unused(w) == 0)
            .map(|w| { let b = blanks_of(&w); (w, b) }).collect();
        order(&mut want);
        prop_assert_eq!(got, want, "exact {}", typed);

        let got: Vec<(String, String)> = anagram::sub_anagrams(&index, &typed, &opts).unwrap().into_iter().map(|a| (a.word, a.blanks)).collect();
        let mut want: Vec<(String, String)> = distinct(&words).into_iter()
            .filter(|w| extra(w) <= blanks && w.len() >= min_len)
            .map(|w| { let b = blanks_of(&w); (w, b) }).collect();
        order(&mut want);
        prop_assert_eq!(&got, &want, "sub {}", typed);

        // The first `limit` (0: none), of which only those are decoded.
        let (listed, count) = anagram::first_anagrams(&index, &typed, true, &opts, limit).unwrap();
        let listed: Vec<(String, String)> = listed.into_iter().map(|a| (a.word, a.blanks)).collect();
        let shown = limit.min(want.len());
        prop_assert_eq!(count, want.len() as u64, "sub {} count", typed);
        prop_assert_eq!(&listed[..], &want[..shown], "sub {} --limit {}", typed, limit);
    }

    /// With a common list, the first `limit` common sub-anagrams and
    /// their count: common words alone, longest first, then a-z.
    #[test]
    fn common_sub_anagrams_match_brute_force(words in proptest::collection::vec(word(), 1..60), common_every in 1usize..4, letters in word(), blanks in 0usize..3, limit in 0usize..6) {
        let list = distinct(&words);
        let common: Vec<String> = list.iter().step_by(common_every).cloned().collect();
        let opts = BuildOptions { common: Some(WordSource::from_text("common", &common.join("\n"))), ..Default::default() };
        let built = build_index(&[WordSource::from_text("t", &words.join("\n"))], &opts).unwrap();
        let index = Index::from_bytes(built.into_bytes()).unwrap();
        let have = counts(&letters);
        let extra = |w: &str| -> usize { counts(w).iter().zip(&have).map(|(&n, &h)| n.saturating_sub(h) as usize).sum() };
        let mut want: Vec<String> = common.iter().filter(|w| extra(w) <= blanks).cloned().collect();
        want.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        let typed = format!("{letters}{}", "?".repeat(blanks));
        let opts = AnagramOptions { min_len: 1, common_only: true };
        let (listed, count) = anagram::first_anagrams(&index, &typed, true, &opts, limit).unwrap();
        let listed: Vec<String> = listed.into_iter().map(|a| { prop_assert!(a.common); Ok(a.word) }).collect::<Result<_, _>>()?;
        prop_assert_eq!(count, want.len() as u64);
        prop_assert_eq!(&listed[..], &want[..limit.min(want.len())]);
    }

    #[test]
    fn phrase_anagrams_match_brute_force(words in proptest::collection::vec(word(), 1..30), picks in proptest::collection::vec(any::<prop::sample::Index>(), 2..5), max_words in 1usize..4, min_len in 1usize..3) {
        let index = index_of(&words);
        let list = distinct(&words);
        let phrase: Vec<&str> = picks.iter().map(|i| i.get(&list).as_str()).collect();
        let phrase = phrase.join(" ");
        let opts = PhraseOptions { max_words, min_len, limit: 0, ..Default::default() };
        let got = anagram::phrase_anagrams(&index, &phrase, &opts).unwrap();
        // Brute force: every multiset of at most max_words list words.
        let want_counts = counts(&phrase.replace(' ', ""));
        let usable: Vec<&String> = list.iter().filter(|w| w.len() >= min_len).collect();
        let mut want: Vec<Vec<String>> = Vec::new();
        fn go(usable: &[&String], from: usize, left: [u8; 26], room: usize, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
            if left.iter().all(|&n| n == 0) {
                if !path.is_empty() { out.push(path.clone()); }
                return;
            }
            if room == 0 { return; }
            for i in from..usable.len() {
                let c = counts(usable[i]);
                if c.iter().zip(&left).all(|(a, b)| a <= b) {
                    let next: [u8; 26] = std::array::from_fn(|k| left[k] - c[k]);
                    path.push(usable[i].clone());
                    go(usable, i, next, room - 1, path, out);
                    path.pop();
                }
            }
        }
        go(&usable, 0, want_counts, max_words, &mut Vec::new(), &mut want);
        for w in &mut want { w.sort(); }
        want.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        prop_assert_eq!(got.count, want.len() as u64, "{}", phrase);
        prop_assert_eq!(got.anagrams, want, "{}", phrase);
    }
}

#[test]
fn include_forces_a_word_in() {
    let words: Vec<String> = ["ab", "ba", "cd", "dc", "abcd", "bad", "c"].iter().map(|s| s.to_string()).collect();
    let index = index_of(&words);
    let opts = PhraseOptions { max_words: 2, min_len: 1, include: Some("cd".into()), limit: 0, ..Default::default() };
    let got = anagram::phrase_anagrams(&index, "a b c d", &opts).unwrap();
    assert_eq!(got.anagrams, [vec!["ab", "cd"], vec!["ba", "cd"]]);
    let bad = PhraseOptions { include: Some("zz".into()), ..opts.clone() };
    assert!(anagram::phrase_anagrams(&index, "abcd", &bad).unwrap_err().is_usage());
}

#[test]
fn a_phrase_too_large_to_search_is_an_error_not_a_wait() {
    // A word for every multiset of 1 to 3 letters: a 40-letter phrase with
    // up to 6 words has billions of sets of them to try.
    let mut words = Vec::new();
    for a in b'a'..=b'z' {
        words.push((a as char).to_string());
        for b in a..=b'z' {
            words.push(format!("{}{}", a as char, b as char));
            for c in b..=b'z' {
                words.push(format!("{}{}{}", a as char, b as char, c as char));
            }
        }
    }
    let index = index_of(&words);
    let opts = PhraseOptions { max_words: 6, min_len: 1, ..Default::default() };
    let err = anagram::phrase_anagrams(&index, "abcdefghijklmnopqrstuvwxyzabcdefghijklmn", &opts).unwrap_err();
    assert!(matches!(err.kind(), wordhoard_query::ErrorKind::Limit(_)), "{err}");
    assert!(err.to_string().contains("allow fewer words"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// `boxed generate` finds its second words in a pass over the word
    /// text when the index has one, and through the FST otherwise: the
    /// same boxes, or the same failure, from every seed.
    #[test]
    fn generated_boxes_are_the_same_without_the_word_text(words in proptest::collection::vec(word(), 50..300), seed in 0u64..1000) {
        thread_local!(static COUNTS: std::cell::Cell<(u32, u32)> = const { std::cell::Cell::new((0, 0)) });
        let (mut made, mut tried) = COUNTS.get();
        use wordhoard_query::boxed::{generate, GenerateOptions};
        let index = index_of(&words);
        let opts = GenerateOptions { seed, sides: 3, size: 2, ..GenerateOptions::default() };
        let show = |g: wordhoard_query::Result<wordhoard_query::boxed::Generated>| {
            g.map(|g| (g.letter_box.sides, g.tries, g.answer.solutions)).map_err(|e| e.to_string())
        };
        let with_text = show(generate(&index, &opts));
        prop_assert_eq!(&with_text, &show(generate(&without_word_text(&index), &opts)));
        made += with_text.is_ok() as u32;
        tried += 1;
        // Most random lists here make a box: the comparison is not empty.
        COUNTS.set((made, tried));
        prop_assert!(tried < 12 || made * 2 > tried, "{made} boxes in {tried} lists");
    }
}
