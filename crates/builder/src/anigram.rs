//! Builds the Anigrams sections `terms` and `chains`; their layout is
//! documented in `wordhoard_query::anigram`.

use wordhoard_query::anigram::{GOAL_LEN, NO_NEXT};
use wordhoard_query::format::{terms_by_length, ColumnsWriter, Payload};

use crate::error::BuildError;
use crate::fst_writer;
use crate::hash::{spread, FastMap, HashFilter, TagTable};
use crate::sort::{distinct_bytes, sort_keyed, Prefixes};
use crate::sorted_words::SortedWords;

/// Every word's term, sorted, with the words of each term.
pub(crate) struct Terms {
    /// The terms' letters, one after another in term order, so the
    /// passes over all terms read memory in order.
    letters: Vec<u8>,
    /// Per term: where its letters start; one extra at the end.
    letter_starts: Vec<u32>,
    /// Word ids ordered by (term, id).
    order: Vec<u32>,
    /// Per term: its first position in `order`; one extra at the end.
    starts: Vec<u32>,
}

impl Terms {
    pub(crate) fn new(words: &SortedWords) -> Terms {
        let sorted = sort_letters(words);
        let term = |id: u32| &sorted[words.span(id as usize)];
        // A term's letters are a word's: the words' bytes rank them.
        let prefixes = Prefixes::new(&distinct_bytes(words.bytes()));
        let mut keyed: Vec<(u64, u32)> = (0..words.len() as u32).map(|id| (prefixes.key(term(id)), id)).collect();
        sort_keyed(&mut keyed, |&(_, id)| term(id));
        let mut starts: Vec<u32> = Vec::new();
        let mut letters = Vec::with_capacity(sorted.len());
        let mut letter_starts = Vec::new();
        let mut order = Vec::with_capacity(keyed.len());
        for (pos, &(key, id)) in keyed.iter().enumerate() {
            let settles = Prefixes::settles(key);
            let same = pos > 0 && {
                let (before, before_id) = keyed[pos - 1];
                before == key && (settles || term(before_id) == term(id))
            };
            if !same {
                starts.push(pos as u32);
                letter_starts.push(letters.len() as u32);
                // A short term is spelled from its key: two random reads
                // (its span, then its letters) a term fewer. On 10M
                // words this loop took 810 ms, now 510.
                if settles {
                    prefixes.spell(key, &mut letters);
                } else {
                    letters.extend_from_slice(term(id));
                }
            }
            order.push(id);
        }
        starts.push(order.len() as u32);
        letter_starts.push(letters.len() as u32);
        Terms { letters, letter_starts, order, starts }
    }

    /// The number of distinct terms.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Term `t`'s letters.
    fn term(&self, t: usize) -> &[u8] {
        &self.letters[self.letter_starts[t] as usize..self.letter_starts[t + 1] as usize]
    }
}

/// Each word's letters sorted, at the word's own span: a counting sort
/// per word. The counts are 4 bits a letter in two registers (the list's
/// first 16 distinct bytes, then the next 16), so counting is an add a
/// letter and spelling out walks only the letters present. A word of 16
/// letters or more (a count could overflow) or with a byte past those 32
/// (never in one alphabet) takes a comparison sort.
fn sort_letters(words: &SortedWords) -> Vec<u8> {
    let bytes = words.bytes();
    let (mut unit, mut byte_of) = ([(0u64, 0u64); 256], [0u8; 32]);
    for (lane, &b) in distinct_bytes(bytes).iter().take(32).enumerate() {
        unit[b as usize] = if lane < 16 { (1 << (4 * lane), 0) } else { (0, 1 << (4 * (lane - 16))) };
        byte_of[lane] = b;
    }
    // Room past the end: a letter is written twice before its count is
    // known to be 1, so the second write may land one past the word.
    let mut sorted = vec![0u8; bytes.len() + 1];
    for id in 0..words.len() {
        let span = words.span(id);
        let word = &bytes[span.clone()];
        let (mut low, mut high, mut no_lane) = (0u64, 0u64, false);
        for &b in word {
            let (l, h) = unit[b as usize];
            (low, high) = (low + l, high + h);
            no_lane |= l | h == 0;
        }
        if no_lane || word.len() >= 16 {
            sorted[span.clone()].copy_from_slice(word);
            sorted[span].sort_unstable();
            continue;
        }
        let mut at = span.start;
        for (mut counts, first_lane) in [(low, 0), (high, 16)] {
            while counts != 0 {
                let shift = counts.trailing_zeros() & !3;
                let n = (counts >> shift & 15) as usize;
                let b = byte_of[first_lane + shift as usize / 4];
                sorted[at] = b;
                sorted[at + 1] = b;
                if n > 2 {
                    sorted[at..at + n].fill(b);
                }
                at += n;
                counts &= !(15 << shift);
            }
        }
    }
    sorted.truncate(bytes.len());
    sorted
}

/// The encoded `terms` section: the terms FST and the words of each term.
pub(crate) fn terms_section(terms: &Terms) -> Result<Payload, BuildError> {
    let fst = terms_fst(terms.len(), |t| terms.term(t))?;
    Ok(ColumnsWriter::new().bytes(fst).u32s(&terms.starts).u32s(&terms.order).take_payload())
}

/// The encoded `chains` section: the add-one-letter graph and its counts.
pub(crate) fn chains_section(terms: &Terms) -> Result<Payload, BuildError> {
    Graph::new(terms.len(), &distinct_bytes(&terms.letters), |t| terms.term(t)).encode()
}

fn terms_fst<'a>(count: usize, term_of: impl Fn(usize) -> &'a [u8]) -> Result<Vec<u8>, BuildError> {
    fst_writer::rank_map((0..count).map(term_of), "terms")
}

/// The add-one-letter graph over terms, as adjacency lists.
struct Graph {
    lens: Vec<u8>,
    succ_starts: Vec<u32>,
    succs: Vec<u32>,
}

/// How terms are told apart and found. A term's hash is the wrapping sum
/// of a random value per letter, so dropping a letter is one subtraction;
/// its key is its count of each letter, four bits a letter in a `u128`,
/// exact and just as additive, to confirm a hash match. Up to 32 distinct
/// bytes and 15 of any one letter have a key; the rare terms beyond that
/// are found by their letters instead.
struct TermKeys {
    value: [u64; 256],
    unit: [u128; 256],
}

impl TermKeys {
    /// Marks a term without a key; no term has all 32 lanes at 15.
    const NO_KEY: u128 = u128::MAX;

    fn new(bytes_used: &[u8]) -> TermKeys {
        let mut unit = [0u128; 256];
        for (lane, &b) in bytes_used.iter().take(32).enumerate() {
            unit[b as usize] = 1 << (4 * lane);
        }
        TermKeys { value: std::array::from_fn(|i| spread(0x5eed, i as u64)), unit }
    }

    /// The term's hash and key (`NO_KEY` when it has none). Terms are
    /// sorted, so equal letters are adjacent.
    fn of(&self, term: &[u8]) -> (u64, u128) {
        let (mut hash, mut key, mut unkeyed) = (0u64, 0u128, false);
        for &b in term {
            hash = hash.wrapping_add(self.value[b as usize]);
            key += self.unit[b as usize];
            unkeyed |= self.unit[b as usize] == 0;
        }
        // Only a term of 16 letters or more can hold one letter 16 times.
        if unkeyed || term.len() >= 16 && term.chunk_by(|a, b| a == b).any(|run| run.len() > 15) {
            key = Self::NO_KEY;
        }
        (hash, key)
    }
}

impl Graph {
    /// The graph over `count` terms; `bytes_used` holds every byte they
    /// hold, ascending.
    fn new<'a>(count: usize, bytes_used: &[u8], term_of: impl Fn(usize) -> &'a [u8]) -> Graph {
        let lens: Vec<u8> = (0..count).map(|t| term_of(t).len() as u8).collect();
        let term_keys = TermKeys::new(bytes_used);
        // Terms a length at a time: each term looks up only the terms one
        // letter shorter, filed by their place in their length's group, so
        // the table and the keys that confirm a match stay in cache.
        let (by_len, len_starts) = terms_by_length(&lens);
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let (mut shorter, mut shorter_keys, mut shorter_ids) = (TagTable::with_capacity(0), Vec::new(), &by_len[..0]);
        let mut shorter_filter = HashFilter::with_capacity(0);
        let mut unkeyed: FastMap<&[u8], u32> = FastMap::default();
        let mut dropped = Vec::new();
        for group in len_starts.windows(2) {
            let ids = &by_len[group[0] as usize..group[1] as usize];
            // Five lookups in six miss, and the filter, in cache, turns
            // most of those away before the table, out of it, is read; so
            // the table is as small as its load allows (twice the room was
            // 2% slower on 10 million words, measured).
            let mut current = TagTable::with_capacity(ids.len());
            let mut current_filter = HashFilter::with_capacity(ids.len());
            let mut current_keys = Vec::with_capacity(ids.len());
            let mut current_hashes = Vec::with_capacity(ids.len());
            for (place, &to) in ids.iter().enumerate() {
                let term = term_of(to as usize);
                let (hash, key) = term_keys.of(term);
                current_hashes.push((hash, place as u32));
                current_keys.push(key);
                if key == TermKeys::NO_KEY {
                    unkeyed.insert(term, to);
                }
                let find = |hash: u64, key: u128| {
                    if !shorter_filter.may_hold(hash) {
                        return None;
                    }
                    shorter.find(hash, |place| shorter_keys[place as usize] == key).map(|p| shorter_ids[p as usize])
                };
                if key != TermKeys::NO_KEY && term.len() <= 64 {
                    // The filter first, for every letter, in a pass with
                    // no branch on what it reads: its lookups overlap, and
                    // the five in six that miss cost no mispredicted
                    // branch each. Then the table, for the letters left.
                    let mut maybe = 0u64;
                    for (i, &letter) in term.iter().enumerate() {
                        let repeat = i > 0 && letter == term[i - 1];
                        let held = shorter_filter.may_hold(hash.wrapping_sub(term_keys.value[letter as usize]));
                        maybe |= ((held & !repeat) as u64) << i;
                    }
                    while maybe != 0 {
                        let letter = term[maybe.trailing_zeros() as usize] as usize;
                        maybe &= maybe - 1;
                        let (hash, key) = (hash.wrapping_sub(term_keys.value[letter]), key - term_keys.unit[letter]);
                        if let Some(place) = shorter.find(hash, |place| shorter_keys[place as usize] == key) {
                            edges.push((shorter_ids[place as usize], to));
                        }
                    }
                    continue;
                }
                for (i, &letter) in term.iter().enumerate() {
                    if i > 0 && letter == term[i - 1] {
                        continue;
                    }
                    let hash = hash.wrapping_sub(term_keys.value[letter as usize]);
                    let from = if key != TermKeys::NO_KEY {
                        find(hash, key - term_keys.unit[letter as usize])
                    } else {
                        // Rare: spell out the shorter term.
                        dropped.clear();
                        dropped.extend_from_slice(&term[..i]);
                        dropped.extend_from_slice(&term[i + 1..]);
                        match term_keys.of(&dropped).1 {
                            TermKeys::NO_KEY => unkeyed.get(dropped.as_slice()).copied(),
                            key => find(hash, key),
                        }
                    };
                    if let Some(from) = from {
                        edges.push((from, to));
                    }
                }
            }
            // The filter is filled after the length's lookups, not beside
            // them: each insert misses the cache on 10 million words, and
            // in a loop of their own the misses overlap (the graph 0.78x
            // the time, paired median of 8 builds).
            for &(hash, _) in &current_hashes {
                current_filter.insert(hash);
            }
            current.insert_all(&current_hashes);
            (shorter, shorter_filter, shorter_keys, shorter_ids) = (current, current_filter, current_keys, ids);
        }
        // Successor lists by a counting sort on `from`; terms were visited
        // in ascending id within a length, so each list is ascending.
        let mut succ_starts = vec![0u32; count + 1];
        for &(from, _) in &edges {
            succ_starts[from as usize + 1] += 1;
        }
        for i in 0..count {
            succ_starts[i + 1] += succ_starts[i];
        }
        let mut fill = succ_starts.clone();
        let mut succs = vec![0u32; edges.len()];
        for (from, to) in edges {
            succs[fill[from as usize] as usize] = to;
            fill[from as usize] += 1;
        }
        Graph { lens, succ_starts, succs }
    }

    fn successors(&self, t: usize) -> &[u32] {
        &self.succs[self.succ_starts[t] as usize..self.succ_starts[t + 1] as usize]
    }

    fn encode(&self) -> Result<Payload, BuildError> {
        let (by_len, len_starts) = terms_by_length(&self.lens);
        let n = self.lens.len();
        let mut games = vec![0u64; n];
        let mut longest = vec![1u8; n];
        let mut next = vec![NO_NEXT; n];
        // Longest terms first, so every successor is done before its term.
        for &t in by_len.iter().rev() {
            let t = t as usize;
            if self.lens[t] as usize == GOAL_LEN {
                games[t] = 1;
            } else if (self.lens[t] as usize) < GOAL_LEN {
                games[t] = self
                    .successors(t)
                    .iter()
                    .try_fold(0u64, |sum, &s| sum.checked_add(games[s as usize]))
                    .ok_or_else(|| BuildError::too_large("too many Anigrams games to count in 64 bits"))?;
            }
            for &s in self.successors(t) {
                if longest[s as usize] + 1 > longest[t] {
                    longest[t] = longest[s as usize] + 1;
                    next[t] = s;
                }
            }
        }
        let mut out = ColumnsWriter::new();
        out.u32s(&self.succ_starts).u32s(&self.succs).bytes(self.lens.clone()).bytes(longest).u32s(&next);
        // Half the bytes (and the pages a query touches) when counts fit.
        match games.iter().map(|&g| u32::try_from(g)).collect::<Result<Vec<u32>, _>>() {
            Ok(narrow) => out.u32s(&narrow),
            Err(_) => out.u64s(&games),
        };
        // The terms by length, so that counting games to another goal
        // reads a length's terms instead of scanning column 2 for them.
        out.u32s(&by_len).u32s(&len_starts);
        Ok(out.take_payload())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;

    /// Every (from, to) where `to` is `from` plus one letter, by brute force.
    fn brute_edges(terms: &[Vec<u8>]) -> Vec<(u32, u32)> {
        let mut edges = Vec::new();
        for (to, long) in terms.iter().enumerate() {
            for (from, short) in terms.iter().enumerate() {
                let plus_one = short.len() + 1 == long.len()
                    && (0..long.len()).any(|i| [&long[..i], &long[i + 1..]].concat() == *short);
                if plus_one {
                    edges.push((from as u32, to as u32));
                }
            }
        }
        edges.sort_unstable();
        edges
    }

    fn graph_edges(terms: &[Vec<u8>]) -> Vec<(u32, u32)> {
        let g = Graph::new(terms.len(), &distinct_bytes(terms.iter().flatten()), |t| terms[t].as_slice());
        (0..terms.len()).flat_map(|f| g.successors(f).iter().map(move |&t| (f as u32, t))).collect()
    }

    fn sorted_terms(words: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut terms: Vec<Vec<u8>> = words
            .iter()
            .map(|w| {
                let mut t = w.to_vec();
                t.sort_unstable();
                t
            })
            .collect();
        terms.sort();
        terms.dedup();
        terms
    }

    #[test]
    fn sorts_each_words_letters() {
        let mut rng = SplitMix64::new(5);
        let mut text = String::from("zyxwvutsrqponmlkjihgfedcba\nbanana\naaaa\n");
        for _ in 0..500 {
            let len = 1 + rng.below(30) as usize;
            text.extend((0..len).map(|_| (b'a' + rng.below(26) as u8) as char));
            text.push('\n');
        }
        let list =
            crate::WordList::read(&[crate::WordSource::from_text("t", &text)], &wordhoard_query::Alphabet::latin());
        let lists = [
            list.unwrap().into_sorted_words(),
            // No alphabet has 40 letters, but the sort copes.
            SortedWords::from_words(
                (0u8..40).map(|i| vec![b'0' + i, b'0' + ((i as u32 * 7 + 3) % 40) as u8, b'0' + i]),
            ),
        ];
        for words in &lists {
            let letters = sort_letters(words);
            for id in 0..words.len() {
                let mut want = words.get(id).to_vec();
                want.sort_unstable();
                assert_eq!(&letters[words.span(id)], want.as_slice());
            }
        }
    }

    #[test]
    fn finds_edges_between_terms_without_a_letter_count_key() {
        // 15 of a letter fit a key's lane, 16 and 17 do not.
        let a = |n: usize| vec![b'a'; n];
        let words: Vec<Vec<u8>> =
            vec![a(14), a(15), a(16), a(17), [a(15), b"b".to_vec()].concat(), [a(16), b"b".to_vec()].concat()];
        let terms = sorted_terms(&words.iter().map(|w| w.as_slice()).collect::<Vec<_>>());
        assert_eq!(graph_edges(&terms), brute_edges(&terms));
        assert_eq!(graph_edges(&terms).len(), 6);
    }

    #[test]
    fn finds_edges_between_long_runs_of_one_letter() {
        // Long runs of one letter, around 15 (a count key's lane) and 25.
        let a = |n: usize| vec![b'a'; n];
        let plus = |w: Vec<u8>, tail: &[u8]| [w, tail.to_vec()].concat();
        let words: Vec<Vec<u8>> = vec![
            a(23),
            a(24),
            a(25),
            a(26),
            a(27),
            plus(a(24), b"b"),
            plus(a(25), b"b"),
            plus(a(23), b"bc"),
            plus(a(24), b"bc"),
            plus(a(25), b"bc"),
        ];
        let terms = sorted_terms(&words.iter().map(|w| w.as_slice()).collect::<Vec<_>>());
        assert_eq!(graph_edges(&terms), brute_edges(&terms));
        assert_eq!(graph_edges(&terms).len(), 11);
    }

    #[test]
    fn finds_edges_over_more_than_32_distinct_bytes() {
        // Bytes past the 32 lanes have no key either.
        let words: Vec<Vec<u8>> =
            (0u8..40).flat_map(|i| [vec![b'0' + i], vec![b'0' + i, b'0' + (i + 1) % 40]]).collect();
        let terms = sorted_terms(&words.iter().map(|w| w.as_slice()).collect::<Vec<_>>());
        assert_eq!(graph_edges(&terms), brute_edges(&terms));
    }

    #[test]
    fn finds_edges_between_terms_around_64_letters() {
        // Terms of 62 to 67 letters, keyed (no letter 16 times), on both
        // sides of the 64 letters whose filter bits fit one word.
        // Each ends in one `z` (the last of its sorted letters, so the
        // last bit a 64-letter term's filter pass sets).
        let mut rng = SplitMix64::new(17);
        let mut terms: Vec<Vec<u8>> = (0..30)
            .map(|_| {
                let len = 61 + rng.below(6);
                let mut t: Vec<u8> = (0..len).map(|i| b'a' + ((i * 7 + rng.below(3)) % 25) as u8).collect();
                t.push(b'z');
                t
            })
            .collect();
        let shorter: Vec<Vec<u8>> = terms.iter().flat_map(|t| [t[1..].to_vec(), t[..t.len() - 1].to_vec()]).collect();
        terms.extend(shorter);
        let terms = sorted_terms(&terms.iter().map(|w| w.as_slice()).collect::<Vec<_>>());
        let (got, want) = (graph_edges(&terms), brute_edges(&terms));
        assert!(want.len() >= 20, "{} edges", want.len());
        assert_eq!(got, want);
    }

    #[test]
    fn finds_the_same_edges_as_brute_force_on_random_terms() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..50 {
            let words: Vec<Vec<u8>> =
                (0..80).map(|_| (0..1 + rng.below(7)).map(|_| b'a' + rng.below(5) as u8).collect()).collect();
            let terms = sorted_terms(&words.iter().map(|w| w.as_slice()).collect::<Vec<_>>());
            assert_eq!(graph_edges(&terms), brute_edges(&terms));
        }
        // Many terms of a length over the whole alphabet, so the walk
        // through the shorter terms takes long strides, and lengths that
        // cross the 25 letters a key holds.
        for round in 0..6 {
            let (letters, max_len, n) = if round % 2 == 0 { (26, 6, 1500) } else { (3, 28, 400) };
            let words: Vec<Vec<u8>> = (0..n)
                .map(|_| {
                    let len = 1 + rng.below(max_len);
                    (0..len).map(|_| b'a' + rng.below(letters) as u8).collect()
                })
                .collect();
            let mut terms = sorted_terms(&words.iter().map(|w| w.as_slice()).collect::<Vec<_>>());
            // Every term's one-letter-shorter terms too, so edges abound.
            let shorter: Vec<Vec<u8>> = terms.iter().filter(|t| t.len() > 1).map(|t| t[1..].to_vec()).collect();
            terms.extend(shorter);
            terms.sort();
            terms.dedup();
            let (got, want) = (graph_edges(&terms), brute_edges(&terms));
            assert!(want.len() > n as usize / 2, "{} edges", want.len());
            assert_eq!(got, want, "round {round}");
        }
    }
}
