//! Indexes over other alphabets (German ä ö ü ß; French and Spanish é è ç ñ,
//! folded and not) against brute force written over Unicode strings.

use std::collections::{BTreeMap, BTreeSet};

use wordhoard_builder::{build_index, AlphabetChoice, BuildOptions, ProperNouns, WordSource};
use wordhoard_query::alphabet::Folding;
use wordhoard_query::anigram::{Anigrams, Start};
use wordhoard_query::find::{FindOptions, Pattern};
use wordhoard_query::{anagram, bee, boxed, find, Index, LetterSet};

fn list(name: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data").join(name))
        .unwrap()
}

fn build(text: &str, alphabet: AlphabetChoice) -> Index<Vec<u8>> {
    let opts = BuildOptions { alphabet, proper_nouns: ProperNouns::Keep, ..Default::default() };
    Index::from_bytes(build_index(&[WordSource::from_text("t", text)], &opts).unwrap().into_bytes()).unwrap()
}

/// The words as the index should hold them: normalised, letters only,
/// distinct, sorted by code point (the alphabet's order).
fn words_of(text: &str, folding: &Folding) -> Vec<String> {
    let set: BTreeSet<String> = text
        .lines()
        .map(|l| folding.normalise(l.trim()))
        .filter(|w| !w.is_empty() && w.chars().all(char::is_alphabetic))
        .collect();
    set.into_iter().collect()
}

fn letters(w: &str) -> BTreeSet<char> {
    w.chars().collect()
}

fn term(w: &str) -> String {
    let mut c: Vec<char> = w.chars().collect();
    c.sort_unstable();
    c.into_iter().collect()
}

fn bee_score(w: &str, set: &BTreeSet<char>) -> u32 {
    let n = w.chars().count() as u32;
    (if n == 4 { 1 } else { n }) + if letters(w) == *set { 7 } else { 0 }
}

/// Checks every question against brute force on one list.
fn agrees(index: &Index<Vec<u8>>, words: &[String]) {
    let alphabet: BTreeSet<char> = words.iter().flat_map(|w| w.chars()).collect();
    assert_eq!(index.alphabet().as_str(), alphabet.iter().collect::<String>());
    assert_eq!(index.word_count(), words.len());
    // Every word comes back as itself, in order.
    let mut all = Vec::new();
    find::find(index, &Pattern::parse(index.alphabet(), "*").unwrap(), &FindOptions::default(), |w, _| {
        all.push(w.to_string())
    })
    .unwrap();
    assert_eq!(all, words);

    // Spelling Bee: the valid words, pangram sets, and the best honeycomb.
    let valid: Vec<&String> = words.iter().filter(|w| w.chars().count() >= 4 && letters(w).len() <= 7).collect();
    let pangram_sets: BTreeSet<BTreeSet<char>> = valid.iter().map(|w| letters(w)).filter(|s| s.len() == 7).collect();
    let stats = bee::stats(index, LetterSet::EMPTY).unwrap();
    assert_eq!(stats.valid, valid.len() as u64);
    assert_eq!(stats.pangram_lettersets, pangram_sets.len() as u64);
    let mut best: Vec<(std::cmp::Reverse<u32>, String, char)> = Vec::new();
    for set in &pangram_sets {
        for &c in set {
            let score =
                valid.iter().filter(|w| letters(w).is_subset(set) && w.contains(c)).map(|w| bee_score(w, set)).sum();
            best.push((std::cmp::Reverse(score), set.iter().collect(), c));
        }
    }
    best.sort();
    let got = bee::best(index, 3, LetterSet::EMPTY, &Default::default()).unwrap();
    let got: Vec<_> = got.iter().map(|h| (std::cmp::Reverse(h.score), h.letters.clone(), h.center)).collect();
    assert_eq!(got, best.into_iter().take(3).collect::<Vec<_>>());
    if let Some(set) = pangram_sets.iter().next() {
        let c = *set.iter().last().unwrap();
        // Typed in capitals (but ß, whose capital is two letters).
        let typed: String =
            set.iter().map(|&c| if c == 'ß' { c.to_string() } else { c.to_uppercase().collect() }).collect();
        let puzzle = bee::Puzzle::parse(index.alphabet(), &typed, Some(&c.to_string())).unwrap();
        let solution = bee::solve(index, puzzle, &Default::default()).unwrap();
        let want: Vec<&str> =
            valid.iter().map(|w| w.as_str()).filter(|w| letters(w).is_subset(set) && w.contains(c)).collect();
        assert_eq!(solution.words.iter().map(|w| w.word).collect::<Vec<_>>(), want);
        assert_eq!(solution.score, want.iter().map(|w| bee_score(w, set)).sum::<u32>());
        assert!(solution
            .words
            .iter()
            .all(|w| w.pangram == (letters(w.word) == *set) && w.score == bee_score(w.word, set)));
        let (_, groups) = bee::report(index, puzzle, &Default::default()).unwrap();
        assert_eq!(groups.iter().map(|g| g.words.len()).sum::<usize>(), want.len());
        assert_eq!(groups.first().map(|g| g.letters.chars().count()), Some(7), "pangrams first");
        assert_eq!(solution.center, c);
    }

    // Anigrams: groups and games.
    let mut groups: BTreeMap<String, Vec<&String>> = BTreeMap::new();
    for w in words {
        groups.entry(term(w)).or_default().push(w);
    }
    let a = Anigrams::open(index).unwrap();
    for (t, group) in &groups {
        let got = a.unscramble(t).unwrap();
        assert_eq!(&got.term, t);
        assert_eq!(got.words.iter().collect::<Vec<_>>(), *group);
    }
    let terms: Vec<String> = groups.keys().cloned().collect();
    let next = |t: &str| -> Vec<String> {
        let mine = term(t);
        terms
            .iter()
            .filter(|u| {
                u.chars().count() == mine.chars().count() + 1 && {
                    let mut rest: Vec<char> = u.chars().collect();
                    mine.chars().all(|c| rest.iter().position(|&r| r == c).map(|i| rest.remove(i)).is_some())
                }
            })
            .cloned()
            .collect()
    };
    fn games(t: &str, goal: usize, next: &dyn Fn(&str) -> Vec<String>) -> u64 {
        if t.chars().count() == goal {
            1
        } else {
            next(t).iter().map(|u| games(u, goal, next)).sum()
        }
    }
    for (start, goal) in [(3, 5), (4, 6), (2, 4)] {
        let want: u64 = terms.iter().filter(|t| t.chars().count() == start).map(|t| games(t, goal, &next)).sum();
        assert_eq!(a.count(Start::Len(start), goal).unwrap(), want, "{start} -> {goal}");
    }

    // Word tools: a pattern with a letter outside ASCII, and anagrams.
    for w in words.iter().filter(|w| !w.is_ascii()).take(5) {
        let first: String = w.chars().take(1).collect();
        let pattern = format!("{first}?*");
        let mut got = Vec::new();
        find::find(index, &Pattern::parse(index.alphabet(), &pattern).unwrap(), &FindOptions::default(), |w, _| {
            got.push(w.to_string())
        })
        .unwrap();
        let want: Vec<&String> = words.iter().filter(|x| x.starts_with(&first) && x.chars().count() >= 2).collect();
        assert_eq!(got.iter().collect::<Vec<_>>(), want, "{pattern}");
        let exact = anagram::anagrams(index, w, &Default::default()).unwrap();
        let want: Vec<&String> = groups[&term(w)].clone();
        assert_eq!(exact.iter().map(|x| &x.word).collect::<Vec<_>>(), want);
        // One letter as a blank.
        let blanked: String = w.chars().skip(1).collect::<String>() + "?";
        let with_blank = anagram::anagrams(index, &blanked, &Default::default()).unwrap();
        assert!(with_blank.iter().any(|x| x.word == *w && x.blanks == first), "{blanked}");
    }

    // Letter Boxed: the playable words of a box of the alphabet's letters.
    // At most 32 letters on a box: the first ones.
    let chars: Vec<char> = alphabet.iter().copied().take(boxed::MAX_BOX_LETTERS).collect();
    let sides: Vec<String> = chars.chunks(chars.len().div_ceil(4)).map(|c| c.iter().collect()).collect();
    let letter_box = boxed::LetterBox::parse(index.alphabet(), &sides).unwrap();
    let side = |c: char| sides.iter().position(|s| s.contains(c));
    let want: Vec<&String> = words
        .iter()
        .filter(|w| {
            w.chars().count() >= 3
                && w.chars().all(|c| side(c).is_some())
                && w.chars().zip(w.chars().skip(1)).all(|(a, b)| side(a) != side(b))
        })
        .collect();
    let got = boxed::playable_words(index, &letter_box, 3).unwrap();
    assert_eq!(got.iter().map(|p| p.word).collect::<Vec<_>>(), want);

    // Phrase anagrams of up to 2 words, listed fewest words first, then
    // a-z (the alphabet's order, that of the code points): phrases of two
    // words from the list, those with letters outside ASCII first.
    let wide: Vec<&String> = words.iter().filter(|w| !w.is_ascii()).collect();
    let phrases = [(wide[0], words[words.len() / 2].clone()), (wide[wide.len() - 1], wide[wide.len() / 2].clone())];
    for (a, b) in phrases {
        let phrase = format!("{a} {b}");
        let opts = anagram::PhraseOptions { max_words: 2, min_len: 1, limit: 0, ..Default::default() };
        let got = anagram::phrase_anagrams(index, &phrase, &opts).unwrap();
        let want_term = term(&format!("{a}{b}"));
        let mut want: Vec<Vec<String>> = Vec::new();
        for (i, x) in words.iter().enumerate() {
            if term(x) == want_term {
                want.push(vec![x.clone()]);
            }
            for y in &words[i..] {
                if term(&format!("{x}{y}")) == want_term {
                    want.push(vec![x.clone(), y.clone()]);
                }
            }
        }
        want.sort_by(|p, q| (p.len(), p).cmp(&(q.len(), q)));
        assert_eq!(got.anagrams, want, "{phrase}");
        assert_eq!(got.count, want.len() as u64, "{phrase}");
    }
}

#[test]
fn german_with_umlauts_and_eszett() {
    let text = list("german-words.txt");
    let index = build(&text, AlphabetChoice::default());
    let words = words_of(&text, &Folding::default());
    assert!(index.alphabet().as_str().contains("ßäöü"));
    agrees(&index, &words);
    // ß stays a letter when folding; umlauts fold to their vowels.
    let fold = Folding { accents: true, keep: String::new() };
    let folded = build(&text, AlphabetChoice::Auto(fold.clone()));
    assert!(folded.alphabet().as_str().ends_with('ß') && !folded.alphabet().as_str().contains('ä'));
    agrees(&folded, &words_of(&text, &fold));
    // A typed umlaut finds the folded word.
    assert_eq!(anagram::anagrams(&folded, "BÄR", &Default::default()).unwrap()[0].word, "bar");
}

#[test]
fn french_and_spanish_folded_with_kept_letters() {
    let text = list("romance-words.txt");
    // Unfolded: 40 letters, so letter sets past 32 bits.
    let index = build(&text, AlphabetChoice::default());
    assert_eq!(index.alphabet().len(), 40);
    agrees(&index, &words_of(&text, &Folding::default()));
    // More than 64 letters are more than an index holds.
    let many: String = ('a'..='z').chain('α'..='ω').chain('а'..='я').map(|c| format!("{c}\n")).collect();
    let err =
        build_index(&[WordSource::from_text("t", &many)], &BuildOptions::default()).err().expect("too many letters");
    assert!(err.to_string().contains("fold accents") && err.to_string().contains("at most 64"), "{err}");
    let fold = Folding { accents: true, keep: "ñç".into() };
    let index = build(&text, AlphabetChoice::Auto(fold.clone()));
    assert!(index.alphabet().as_str().contains('ñ') && index.alphabet().as_str().contains('ç'));
    assert!(!index.alphabet().as_str().contains('é'));
    agrees(&index, &words_of(&text, &fold));
    // é typed on a folded index is e.
    let cafe = anagram::anagrams(&index, "CAFÉ", &Default::default()).unwrap();
    assert_eq!(cafe.iter().map(|a| a.word.as_str()).collect::<Vec<_>>(), ["cafe"]);
}

#[test]
fn letters_outside_the_alphabet_are_usage_errors_naming_both() {
    let index = build(&list("german-words.txt"), AlphabetChoice::default());
    let err = bee::Puzzle::parse(index.alphabet(), "äbcdeñ", None).unwrap_err();
    assert!(err.is_usage());
    let text = err.to_string();
    assert!(text.contains("'ñ'") && text.contains(index.alphabet().as_str()), "{text}");
    assert!(Pattern::parse(index.alphabet(), "ç*").unwrap_err().to_string().contains(index.alphabet().as_str()));
}

/// On a folded index every word is shown as the lists spelled it: the
/// spelling of each word, against a brute force over the lines, on the
/// romance list and on random lists where plain and accented lines of one
/// word mix.
#[test]
fn folded_words_keep_their_spellings() {
    let fold = Folding { accents: true, keep: "ñ".into() };
    let mut rng = 17u64;
    let mut next = |n: u64| {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (rng >> 33) % n
    };
    let mut texts = vec![list("romance-words.txt")];
    for _ in 0..20 {
        let letters = ['a', 'e', 'o', 'é', 'è', 'ó', 'ñ', 'c', 'ç', 'n'];
        let lines: Vec<String> =
            (0..60).map(|_| (0..2 + next(4)).map(|_| letters[next(10) as usize]).collect::<String>()).collect();
        texts.push(lines.join("\n"));
    }
    for text in texts {
        let index = build(&text, AlphabetChoice::Auto(fold.clone()));
        // Brute force: each folded word's spellings; none when one line
        // was spelled as the word itself, else the least.
        let mut spellings: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for line in text.lines() {
            let word = fold.normalise(line.trim());
            if !word.is_empty() && word.chars().all(char::is_alphabetic) {
                spellings.entry(word).or_default().insert(Folding::default().normalise(line.trim()));
            }
        }
        let words: Vec<String> = spellings.keys().cloned().collect();
        assert_eq!(index.words_of(0..words.len() as u32).unwrap(), words);
        for (id, (word, spelled)) in spellings.iter().enumerate() {
            let want = if spelled.contains(word) { None } else { spelled.iter().next().cloned() };
            assert_eq!(index.spelling(id as u32).unwrap(), want, "{word}: {spelled:?}");
            assert_eq!(index.spelling_of(word).unwrap(), want);
        }
        assert!(index.verify().iter().all(|c| c.ok));
    }
    let romance = build(&list("romance-words.txt"), AlphabetChoice::Auto(fold.clone()));
    assert_eq!(romance.spelling_of("cafe").unwrap().as_deref(), Some("café"));
    // An index that does not fold has no spellings.
    let plain = build(&list("romance-words.txt"), AlphabetChoice::default());
    assert!(!plain.has_spellings() && plain.spelling_of("cafe").unwrap().is_none());
}
