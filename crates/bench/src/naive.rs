//! Straightforward answers: read the text list and scan it, the way the
//! write-ups in `../shared/seeds/` do. They are the baseline the index is
//! measured against, and a cross-check of its answers.

use std::collections::{BTreeMap, HashMap, HashSet};

/// Reads a word list: lowercased, a-z only, distinct, sorted.
pub fn load(path: &str) -> Vec<String> {
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let text = String::from_utf8_lossy(&text);
    let mut words: Vec<String> = text
        .lines()
        .map(|l| l.trim().trim_start_matches('\u{feff}').to_lowercase())
        .filter(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()))
        .collect();
    words.sort();
    words.dedup();
    words
}

fn letter_set(w: &str) -> u32 {
    w.bytes().fold(0, |m, b| m | 1 << (b - b'a'))
}

fn word_score(w: &str, pangram: bool) -> u32 {
    (if w.len() == 4 { 1 } else { w.len() as u32 }) + if pangram { 7 } else { 0 }
}

/// Spelling Bee solve: (words, score, pangrams), scanning every word.
pub fn bee_solve(words: &[String], letters: &str, center: char) -> (usize, u32, u32) {
    let set = letter_set(letters);
    let c = 1 << (center as u8 - b'a');
    let (mut n, mut score, mut pangrams) = (0, 0, 0);
    for w in words.iter().filter(|w| w.len() >= 4) {
        let s = letter_set(w);
        if s & !set == 0 && s & c != 0 {
            n += 1;
            score += word_score(w, s == set);
            pangrams += (s == set) as u32;
        }
    }
    (n, score, pangrams)
}

/// Spelling Bee best, as Norvig does it: points per letter set, then each
/// pangram set's 64 subsets per centre.
pub fn bee_best(words: &[String], exclude: &str) -> (String, char, u32) {
    let ex = letter_set(exclude);
    let mut points: HashMap<u32, u32> = HashMap::new();
    let mut pangram_sets = HashSet::new();
    for w in words.iter().filter(|w| w.len() >= 4) {
        let s = letter_set(w);
        if s & ex != 0 || s.count_ones() > 7 {
            continue;
        }
        *points.entry(s).or_default() += word_score(w, s.count_ones() == 7);
        if s.count_ones() == 7 {
            pangram_sets.insert(s);
        }
    }
    let mut best = (0, String::new(), ' ');
    for &p in &pangram_sets {
        for c in (0..26).filter(|i| p & 1 << i != 0) {
            let mut total = 0;
            let mut sub = p;
            loop {
                if sub & 1 << c != 0 {
                    total += points.get(&sub).copied().unwrap_or(0);
                }
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & p;
            }
            let letters: String = (0..26).filter(|i| p & 1 << i != 0).map(|i| (b'a' + i as u8) as char).collect();
            let centre = (b'a' + c as u8) as char;
            if (total, std::cmp::Reverse((&letters, centre))) > (best.0, std::cmp::Reverse((&best.1, best.2))) {
                best = (total, letters, centre);
            }
        }
    }
    (best.1, best.2, best.0)
}

/// Spelling Bee stats: (valid, pangram words, pangram sets).
pub fn bee_stats(words: &[String], exclude: &str) -> (usize, usize, usize) {
    let ex = letter_set(exclude);
    let valid: Vec<u32> = words
        .iter()
        .filter(|w| w.len() >= 4)
        .map(|w| letter_set(w))
        .filter(|s| s & ex == 0 && s.count_ones() <= 7)
        .collect();
    let pangrams: Vec<u32> = valid.iter().copied().filter(|s| s.count_ones() == 7).collect();
    let sets: HashSet<u32> = pangrams.iter().copied().collect();
    (valid.len(), pangrams.len(), sets.len())
}

/// Spelling Bee hints: the grid of first letter x length, from a scan.
pub fn bee_hints(words: &[String], letters: &str, center: char) -> BTreeMap<(char, usize), u32> {
    let set = letter_set(letters);
    let c = 1 << (center as u8 - b'a');
    let mut grid = BTreeMap::new();
    for w in words.iter().filter(|w| w.len() >= 4) {
        let s = letter_set(w);
        if s & !set == 0 && s & c != 0 {
            *grid.entry((w.chars().next().unwrap(), w.len())).or_default() += 1;
        }
    }
    grid
}

/// Letter Boxed, as Batchelder does it: filter the words, then join pairs
/// (and, for three words, triples) on last/first letter.
pub fn boxed(words: &[String], sides: &[&str], max_words: usize) -> usize {
    let side_of = |b: u8| sides.iter().position(|s| s.as_bytes().contains(&b));
    let all: u32 = sides.iter().map(|s| letter_set(s)).fold(0, |a, b| a | b);
    let playable: Vec<(&String, u32)> = words
        .iter()
        .filter(|w| w.len() >= 3 && w.bytes().all(|b| side_of(b).is_some()))
        .filter(|w| w.as_bytes().windows(2).all(|p| side_of(p[0]) != side_of(p[1])))
        .map(|w| (w, letter_set(w)))
        .collect();
    let mut starts: HashMap<u8, Vec<(&String, u32)>> = HashMap::new();
    for &(w, s) in &playable {
        starts.entry(w.as_bytes()[0]).or_default().push((w, s));
    }
    let next = |w: &String| starts.get(w.as_bytes().last().unwrap()).map(Vec::as_slice).unwrap_or(&[]);
    let mut count = 0;
    for &(a, sa) in &playable {
        if sa == all {
            count += 1;
            continue;
        }
        for &(b, sb) in next(a) {
            if sa | sb == all {
                count += 1;
            } else if max_words >= 3 {
                count += next(b).iter().filter(|&&(_, sc)| sa | sb | sc == all).count();
            }
        }
    }
    count
}

fn term(w: &str) -> String {
    let mut b = w.as_bytes().to_vec();
    b.sort_unstable();
    String::from_utf8(b).unwrap()
}

/// Anigrams unscramble: every word whose sorted letters match.
pub fn unscramble(words: &[String], letters: &str) -> Vec<String> {
    let t = term(letters);
    words.iter().filter(|w| w.len() == t.len() && term(w) == t).cloned().collect()
}

/// Norvig's Anigrams: terms -> words, then memoised counts over one-letter
/// extensions. Returns (games from 4 to 9, top term, its games, longest).
pub fn anigrams(words: &[String]) -> (u64, String, u64, usize) {
    let mut terms: HashMap<String, Vec<&String>> = HashMap::new();
    for w in words {
        terms.entry(term(w)).or_default().push(w);
    }
    fn extensions(t: &str, terms: &HashMap<String, Vec<&String>>) -> Vec<String> {
        (b'a'..=b'z')
            .map(|l| {
                let mut b = t.as_bytes().to_vec();
                b.push(l);
                b.sort_unstable();
                String::from_utf8(b).unwrap()
            })
            .filter(|n| terms.contains_key(n))
            .collect()
    }
    fn games(t: &str, terms: &HashMap<String, Vec<&String>>, memo: &mut HashMap<String, u64>) -> u64 {
        if t.len() == 9 {
            return 1;
        }
        if let Some(&g) = memo.get(t) {
            return g;
        }
        let g = extensions(t, terms).iter().map(|n| games(n, terms, memo)).sum();
        memo.insert(t.to_string(), g);
        g
    }
    fn longest(t: &str, terms: &HashMap<String, Vec<&String>>, memo: &mut HashMap<String, usize>) -> usize {
        if let Some(&l) = memo.get(t) {
            return l;
        }
        let l = 1 + extensions(t, terms).iter().map(|n| longest(n, terms, memo)).max().unwrap_or(0);
        memo.insert(t.to_string(), l);
        l
    }
    let starts: Vec<String> = terms.keys().filter(|t| t.len() == 4).cloned().collect();
    let (mut memo, mut lmemo) = (HashMap::new(), HashMap::new());
    let (mut total, mut top, mut best) = (0, String::new(), 0);
    let mut long = 0;
    for t in &starts {
        let g = games(t, &terms, &mut memo);
        total += g;
        if g > best || (g == best && *t < top) {
            (top, best) = (t.clone(), g);
        }
        long = long.max(longest(t, &terms, &mut lmemo));
    }
    (total, top, best, long)
}
