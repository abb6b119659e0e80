//! The index-backed answers equal a plain brute-force scan of the word
//! list, on random small lists over a small alphabet (so letter sets,
//! anagrams and chains collide often).

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use wordhoard_builder::{build_index, BuildOptions, WordSource};
use wordhoard_query::anigram::{self, Anigrams};
use wordhoard_query::{bee, boxed, Index, LetterSet};

const LETTERS: &[u8] = b"abcdefgh";

fn word() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(LETTERS), 1..10).prop_map(|v| String::from_utf8(v).unwrap())
}

fn word_list() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(word(), 0..80)
}

fn index_of(words: &[String], common: &[String]) -> Index<Vec<u8>> {
    // With the letter groups, which a build of so few words leaves out
    // unless told.
    let opts = BuildOptions {
        common: Some(WordSource::from_text("common", &common.join("\n"))),
        letter_groups: Some(true),
        ..Default::default()
    };
    Index::from_bytes(build_index(&[WordSource::from_text("t", &words.join("\n"))], &opts).unwrap().into_bytes())
        .unwrap()
}

fn distinct(words: &[String]) -> Vec<String> {
    words.iter().cloned().collect::<BTreeSet<_>>().into_iter().collect()
}

fn letter_set(w: &str) -> BTreeSet<u8> {
    w.bytes().collect()
}

/// Brute-force Spelling Bee: (words a-z, score, pangrams).
fn brute_bee(words: &[String], letters: &BTreeSet<u8>, center: u8) -> (Vec<String>, u32, u32) {
    let mut found = Vec::new();
    let (mut score, mut pangrams) = (0, 0);
    for w in distinct(words) {
        let set = letter_set(&w);
        if w.len() >= 4 && set.is_subset(letters) && set.contains(&center) {
            let pangram = set == *letters;
            score += if w.len() == 4 { 1 } else { w.len() as u32 } + if pangram { 7 } else { 0 };
            pangrams += pangram as u32;
            found.push(w);
        }
    }
    (found, score, pangrams)
}

fn set_of(letters: &[u8]) -> String {
    String::from_utf8(letters.to_vec()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn bee_solve_matches_brute_force(words in word_list(), picks in proptest::sample::subsequence(LETTERS.to_vec(), 1..=8), c in 0usize..8) {
        let index = index_of(&words, &[]);
        let center = picks[c % picks.len()];
        let puzzle = bee::Puzzle::parse(index.alphabet(), &set_of(&picks), Some(&set_of(&[center]))).unwrap();
        let got = bee::solve(&index, puzzle, &bee::SolveOptions::default()).unwrap();
        let (expect_words, score, pangrams) = brute_bee(&words, &picks.iter().copied().collect(), center);
        prop_assert_eq!(got.words.iter().map(|w| w.word.to_string()).collect::<Vec<_>>(), expect_words);
        prop_assert_eq!(got.score, score);
        prop_assert_eq!(got.pangrams, pangrams);
        // The streamed form sees the same words, one borrowed at a time.
        let mut streamed = Vec::new();
        let totals = bee::solve_each(&index, puzzle, &bee::SolveOptions::default(), |w| streamed.push((w.word.to_string(), w.score))).unwrap();
        prop_assert_eq!(streamed, got.words.iter().map(|w| (w.word.to_string(), w.score)).collect::<Vec<_>>());
        prop_assert_eq!((totals.words as usize, totals.score, totals.pangrams), (got.words.len(), score, pangrams));
    }

    #[test]
    fn bee_best_and_stats_match_brute_force(words in word_list(), exclude in proptest::sample::subsequence(LETTERS.to_vec(), 0..2)) {
        let index = index_of(&words, &[]);
        let excluded: BTreeSet<u8> = exclude.iter().copied().collect();
        let ok = |w: &String| letter_set(w).is_disjoint(&excluded);
        let valid: Vec<String> = distinct(&words).into_iter().filter(|w| w.len() >= 4 && ok(w) && letter_set(w).len() <= 7).collect();
        let pangram_sets: BTreeSet<BTreeSet<u8>> = valid.iter().map(|w| letter_set(w)).filter(|s| s.len() == 7).collect();
        let ex = index.alphabet().parse_distinct(&set_of(&exclude), "x").unwrap();
        let st = bee::stats(&index, ex).unwrap();
        prop_assert_eq!(st.valid, valid.len() as u64);
        prop_assert_eq!(st.pangram_words, valid.iter().filter(|w| letter_set(w).len() == 7).count() as u64);
        prop_assert_eq!(st.pangram_lettersets, pangram_sets.len() as u64);
        // Every candidate scored by brute force, ordered as SPEC says.
        let mut all: Vec<(std::cmp::Reverse<u32>, String, u8)> = Vec::new();
        for set in &pangram_sets {
            for &c in set {
                all.push((std::cmp::Reverse(brute_bee(&words, set, c).1), set_of(&set.iter().copied().collect::<Vec<_>>()), c));
            }
        }
        all.sort();
        let got = bee::best(&index, 5, ex, &bee::SolveOptions::default()).unwrap();
        let got: Vec<_> = got.iter().map(|h| (std::cmp::Reverse(h.score), h.letters.clone(), h.center as u8)).collect();
        prop_assert_eq!(got, all.into_iter().take(5).collect::<Vec<_>>());
    }

    #[test]
    fn bee_best_common_only_matches_brute_force(words in word_list(), pick in proptest::collection::vec(any::<bool>(), 80)) {
        // The common list: some of the words, chosen by `pick`.
        let common: Vec<String> = words.iter().zip(&pick).filter(|(_, &p)| p).map(|(w, _)| w.clone()).collect();
        let index = index_of(&words, &common);
        let common_sets: BTreeSet<BTreeSet<u8>> =
            distinct(&common).iter().filter(|w| w.len() >= 4).map(|w| letter_set(w)).filter(|s| s.len() == 7).collect();
        let mut all: Vec<(std::cmp::Reverse<u32>, String, u8)> = Vec::new();
        for set in &common_sets {
            for &c in set {
                all.push((std::cmp::Reverse(brute_bee(&common, set, c).1), set_of(&set.iter().copied().collect::<Vec<_>>()), c));
            }
        }
        all.sort();
        let got = bee::best(&index, 5, LetterSet::EMPTY, &bee::SolveOptions { common_only: true }).unwrap();
        let got: Vec<_> = got.iter().map(|h| (std::cmp::Reverse(h.score), h.letters.clone(), h.center as u8)).collect();
        prop_assert_eq!(got, all.into_iter().take(5).collect::<Vec<_>>());
    }

    #[test]
    fn bee_check_matches_brute_force(
        words in word_list(),
        picks in proptest::sample::subsequence(LETTERS.to_vec(), 7..=7),
        c in 0usize..7,
        raw in proptest::collection::vec((0u8..4, any::<usize>(), "[a-j]{1,9}", any::<bool>()), 0..40),
    ) {
        let index = index_of(&words, &[]);
        let center = picks[c];
        let letters: BTreeSet<u8> = picks.iter().copied().collect();
        let (answers, total, _) = brute_bee(&words, &letters, center);
        // Guesses: answers, words of the list, random strings, earlier
        // guesses again; some in upper case or with spaces around.
        let mut guesses: Vec<String> = Vec::new();
        for (kind, i, random, upper) in raw {
            let g = match kind {
                0 if !answers.is_empty() => answers[i % answers.len()].clone(),
                1 if !words.is_empty() => words[i % words.len()].clone(),
                2 if !guesses.is_empty() => guesses[i % guesses.len()].clone(),
                _ => random,
            };
            // Some typed in capitals with spaces, or with punctuation around.
            guesses.push(match (upper, i % 3) {
                (true, 0) => format!("{},", g.to_uppercase()),
                (true, _) => format!(" {} ", g.to_uppercase()),
                (false, _) => g,
            });
        }
        let got = bee::check(&index, bee::Puzzle::parse(index.alphabet(), &set_of(&picks), Some(&set_of(&[center]))).unwrap(), &guesses, &bee::SolveOptions::default()).unwrap();

        let points = |w: &str| (if w.len() == 4 { 1 } else { w.len() as u32 }) + if letter_set(w) == letters { 7 } else { 0 };
        let mut found: BTreeSet<String> = BTreeSet::new();
        for (g, v) in guesses.iter().zip(&got.guesses) {
            let w = g.trim_matches(|c: char| c.is_whitespace() || c.is_ascii_punctuation()).to_lowercase();
            let reason = if w.len() < 4 {
                Some("too_short")
            } else if !w.bytes().all(|b| letters.contains(&b)) {
                Some("bad_letter")
            } else if !w.bytes().any(|b| b == center) {
                Some("missing_center")
            } else if !answers.contains(&w) {
                Some("not_in_list")
            } else if !found.insert(w.clone()) {
                Some("repeat")
            } else {
                None
            };
            prop_assert_eq!(&v.word, &w);
            prop_assert_eq!(v.reason.map(|r| r.as_str()), reason, "{}", g);
            prop_assert_eq!(v.score, if reason.is_none() { points(&w) } else { 0 });
            prop_assert_eq!(v.pangram, reason.is_none() && letter_set(&w) == letters);
        }
        let found_score: u32 = found.iter().map(|w| points(w)).sum();
        prop_assert_eq!((got.found_count, got.found_score), (found.len() as u32, found_score));
        // Ranks: the share of the total, rounded half up, as the NYT's.
        let shares = [("Beginner", 0u64), ("Good Start", 2), ("Moving Up", 5), ("Good", 8), ("Solid", 15), ("Nice", 25), ("Great", 40), ("Amazing", 50), ("Genius", 70), ("Queen Bee", 100)];
        let need = |pct: u64| ((total as u64 * pct + 50) / 100) as u32;
        let reached = shares.iter().rposition(|&(_, p)| need(p) <= found_score).unwrap();
        prop_assert_eq!((got.rank.name, got.rank.score), (shares[reached].0, need(shares[reached].1)));
        prop_assert_eq!(got.next.map(|r| (r.name, r.score)), shares.get(reached + 1).map(|&(n, p)| (n, need(p))));
        prop_assert_eq!((got.genius, got.queen_bee), (need(70), total));
        let left: Vec<&String> = answers.iter().filter(|w| !found.contains(*w)).collect();
        prop_assert_eq!(got.left.count, left.len() as u32);
        prop_assert_eq!(got.left.score, total - found_score);
        prop_assert_eq!(got.left.pangrams, left.iter().filter(|w| letter_set(w) == letters).count() as u32);
        let mut two: BTreeMap<String, u32> = BTreeMap::new();
        for w in &left {
            *two.entry(w[..2].to_string()).or_default() += 1;
        }
        prop_assert_eq!(&got.left.two_letter, &two);
        prop_assert_eq!(got.left.grid.values().flat_map(|r| r.values()).sum::<u32>(), left.len() as u32);
    }

    #[test]
    fn anigrams_match_brute_force(words in word_list(), probe in word(), start in 1usize..4, extra in 1usize..4) {
        let index = index_of(&words, &[]);
        let a = Anigrams::open(&index).unwrap();
        let term = |w: &str| { let mut b = w.as_bytes().to_vec(); b.sort_unstable(); String::from_utf8(b).unwrap() };
        let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for w in distinct(&words) {
            groups.entry(term(&w)).or_default().push(w);
        }
        let got = a.unscramble(&probe).unwrap();
        let none = Vec::new();
        prop_assert_eq!(&got.words, groups.get(&term(&probe)).unwrap_or(&none));

        // Games by brute force: extend each term by every letter.
        let goal = start + extra;
        fn games(t: &str, goal: usize, groups: &BTreeMap<String, Vec<String>>) -> u64 {
            if t.len() == goal { return 1; }
            LETTERS.iter().map(|&l| {
                let mut b = t.as_bytes().to_vec(); b.push(l); b.sort_unstable();
                let next = String::from_utf8(b).unwrap();
                if groups.contains_key(&next) { games(&next, goal, groups) } else { 0 }
            }).sum()
        }
        let expect: u64 = groups.keys().filter(|t| t.len() == start).map(|t| games(t, goal, &groups)).sum();
        prop_assert_eq!(a.count(anigram::Start::Len(start), goal).unwrap(), expect);
        // The terms with the most games, most first, then a-z.
        let mut most: Vec<(u64, String)> =
            groups.keys().filter(|t| t.len() == start).map(|t| (games(t, goal, &groups), t.clone())).collect();
        most.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        most.truncate(3);
        let top: Vec<(u64, String)> = a.top(3, anigram::Game { start_len: start, goal_len: goal }).unwrap().into_iter().map(|t| (t.games, t.term)).collect();
        prop_assert_eq!(top, most);

        fn longest(t: &str, groups: &BTreeMap<String, Vec<String>>) -> usize {
            1 + LETTERS.iter().map(|&l| {
                let mut b = t.as_bytes().to_vec(); b.push(l); b.sort_unstable();
                let next = String::from_utf8(b).unwrap();
                if groups.contains_key(&next) { longest(&next, groups) } else { 0 }
            }).max().unwrap_or(0)
        }
        let expect_longest = groups.keys().filter(|t| t.len() == start).map(|t| longest(t, &groups)).max().unwrap_or(0);
        let chain = a.longest(anigram::Start::Len(start)).unwrap();
        prop_assert_eq!(chain.len(), expect_longest);
        for pair in chain.windows(2) {
            prop_assert_eq!(pair[1].term.len(), pair[0].term.len() + 1);
        }
    }

    #[test]
    fn boxed_matches_brute_force_pairs_and_triples(
        words in word_list(),
        common in proptest::collection::vec(word(), 0..20),
        picks in proptest::sample::subsequence(LETTERS.to_vec(), 4..=7),
        split in 1usize..3,
        min_len in 1usize..5,
    ) {
        let mut pool = words.clone();
        pool.extend(common.iter().cloned());
        let index = index_of(&pool, &common);
        // The same list without the letter groups: words by a walk of the FST.
        let opts = BuildOptions {
            common: Some(WordSource::from_text("common", &common.join("\n"))),
            letter_groups: Some(false),
            ..Default::default()
        };
        let walked = Index::from_bytes(build_index(&[WordSource::from_text("t", &pool.join("\n"))], &opts).unwrap().into_bytes()).unwrap();
        // Sides: chunks of the picked letters.
        let size = (picks.len() / (split + 1)).max(1);
        let sides: Vec<String> = picks.chunks(size).map(set_of).collect();
        prop_assume!(sides.len() >= 2);
        let letter_box = boxed::LetterBox::parse(index.alphabet(), &sides).unwrap();
        let side_of = |b: u8| sides.iter().position(|s| s.as_bytes().contains(&b));
        let all: BTreeSet<u8> = picks.iter().copied().collect();
        let playable: Vec<String> = distinct(&pool).into_iter().filter(|w| {
            w.len() >= 3 && w.bytes().all(|b| side_of(b).is_some())
                && w.as_bytes().windows(2).all(|p| side_of(p[0]) != side_of(p[1]))
        }).collect();
        let covers = |ws: &[&String]| ws.iter().flat_map(|w| w.bytes()).collect::<BTreeSet<u8>>() == all;
        let mut expect: BTreeSet<Vec<String>> = BTreeSet::new();
        for a in &playable {
            if covers(&[a]) { expect.insert(vec![a.clone()]); continue; }
            for b in playable.iter().filter(|b| b.as_bytes()[0] == *a.as_bytes().last().unwrap()) {
                if covers(&[a, b]) { expect.insert(vec![a.clone(), b.clone()]); continue; }
                for c in playable.iter().filter(|c| c.as_bytes()[0] == *b.as_bytes().last().unwrap()) {
                    if covers(&[a, b, c]) { expect.insert(vec![a.clone(), b.clone(), c.clone()]); }
                }
            }
        }
        let got = boxed::solve(&index, &letter_box, &boxed::SolveOptions { max_words: 3, min_len: 3, limit: 0, common_only: false }).unwrap();
        prop_assert_eq!(got.playable, playable.len());
        prop_assert_eq!(got.count, expect.len() as u128);
        prop_assert_eq!(got.solutions.iter().cloned().collect::<BTreeSet<_>>(), expect.clone());
        // Order: words, then uncommon words, then letters, then a-z.
        let is_common = |w: &String| common.contains(w);
        let key = |s: &Vec<String>| (s.len(), s.iter().filter(|w| !is_common(w)).count(), s.iter().map(String::len).sum::<usize>(), s.clone());
        let mut ordered: Vec<Vec<String>> = expect.into_iter().collect();
        ordered.sort_by_key(key);
        prop_assert_eq!(&got.solutions, &ordered);
        let top = boxed::solve(&index, &letter_box, &boxed::SolveOptions { max_words: 3, min_len: 3, limit: 4, common_only: false }).unwrap();
        prop_assert_eq!(&top.solutions[..], &ordered[..ordered.len().min(4)]);
        let opts = boxed::SolveOptions { max_words: 3, min_len: 3, limit: 0, common_only: false };
        prop_assert_eq!(boxed::solve(&walked, &letter_box, &opts).unwrap(), got);
        prop_assert_eq!(boxed::playable_words(&walked, &letter_box, min_len).unwrap(), boxed::playable_words(&index, &letter_box, min_len).unwrap());
    }

    #[test]
    fn boxed_check_matches_a_brute_force_referee(
        words in word_list(),
        picks in proptest::sample::subsequence(LETTERS.to_vec(), 4..=6),
        plays in proptest::collection::vec((word(), any::<bool>()), 0..8),
    ) {
        let index = index_of(&words, &[]);
        let sides: Vec<String> = picks.chunks(2).map(set_of).collect();
        prop_assume!(sides.len() >= 2);
        let letter_box = boxed::LetterBox::parse(index.alphabet(), &sides).unwrap();
        // Half the plays are words of the list, so accepted words happen.
        let list = distinct(&words);
        let played: Vec<String> = plays.iter().enumerate().map(|(i, (w, from_list))| {
            if *from_list && !list.is_empty() { list[i * 7 % list.len()].clone() } else { w.clone() }
        }).collect();
        let side_of = |b: u8| sides.iter().position(|s| s.as_bytes().contains(&b));
        let (mut last, mut used, mut expect, mut accepted) = (None::<u8>, BTreeSet::new(), Vec::new(), 0);
        for w in &played {
            let b = w.as_bytes();
            let verdict = if b.len() < 3 {
                "too_short"
            } else if b.iter().any(|&c| side_of(c).is_none()) {
                "bad_letter"
            } else if b.windows(2).any(|p| side_of(p[0]) == side_of(p[1])) {
                "same_side"
            } else if last.is_some_and(|l| b[0] != l) {
                "wrong_start"
            } else if !list.contains(w) {
                "not_in_list"
            } else {
                last = b.last().copied();
                used.extend(b.iter().copied());
                accepted += 1;
                "ok"
            };
            expect.push(verdict);
        }
        let opts = boxed::SolveOptions { max_words: 2, min_len: 3, limit: 0, common_only: false };
        let play = boxed::check(&index, &letter_box, &played, &opts).unwrap();
        let got: Vec<&str> = play.words.iter().map(|(_, v)| v.as_str()).collect();
        prop_assert_eq!(got, expect);
        prop_assert_eq!(play.played, accepted);
        let all: BTreeSet<u8> = picks.iter().copied().collect();
        let left: BTreeSet<u8> = all.difference(&used).copied().collect();
        prop_assert_eq!(play.left.bytes().collect::<BTreeSet<u8>>(), left.clone());
        prop_assert_eq!(play.solved(), left.is_empty());
        // One-word finishes: playable words from the last letter covering what is left.
        let playable = list.iter().filter(|w| {
            w.len() >= 3 && w.bytes().all(|b| side_of(b).is_some())
                && w.as_bytes().windows(2).all(|p| side_of(p[0]) != side_of(p[1]))
        });
        let finishes = playable.filter(|w| last.is_none_or(|l| w.as_bytes()[0] == l))
            .filter(|w| left.iter().all(|c| w.as_bytes().contains(c))).count();
        prop_assert_eq!(play.finishes, finishes as u128);
    }

    #[test]
    fn anigram_check_matches_a_brute_force_referee(
        words in word_list(),
        plays in proptest::collection::vec((word(), any::<bool>()), 0..8),
    ) {
        let index = index_of(&words, &[]);
        let list = distinct(&words);
        let played: Vec<String> = plays.iter().enumerate().map(|(i, (w, from_list))| {
            if *from_list && !list.is_empty() { list[i * 5 % list.len()].clone() } else { w.clone() }
        }).collect();
        let sorted = |w: &str| { let mut v = w.as_bytes().to_vec(); v.sort_unstable(); v };
        let (mut last, mut expect) = (None::<Vec<u8>>, Vec::new());
        for w in &played {
            let term = sorted(w);
            let verdict = if !list.contains(w) {
                "not_in_list"
            } else if let Some(before) = &last {
                // One more: removing some one letter gives the term before.
                let one_more = term.len() == before.len() + 1
                    && (0..term.len()).any(|i| { let mut t = term.clone(); t.remove(i); &t == before });
                if one_more { last = Some(term); "ok" } else { "not_one_more" }
            } else {
                last = Some(term);
                "ok"
            };
            expect.push(verdict);
        }
        let a = Anigrams::open(&index).unwrap();
        let play = a.check(&played).unwrap();
        let got: Vec<&str> = play.words.iter().map(|w| w.verdict.as_str()).collect();
        prop_assert_eq!(got, expect.clone());
        prop_assert_eq!(play.length, expect.iter().filter(|v| **v == "ok").count());
    }
}

#[test]
fn letter_sets_are_alphabet_bits() {
    let index = index_of(&["abc".to_string()], &[]);
    assert_eq!(index.alphabet().set_of(b"ca"), Some(LetterSet(0b101)));
}
