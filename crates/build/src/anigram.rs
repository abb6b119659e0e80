//! Builds the Anigrams sections `terms` and `chains`; their layout is
//! documented in `wordhoard_query::anigram`.

use wordhoard_query::anigram::{GOAL_LEN, NO_NEXT};
use wordhoard_query::format::ColumnsWriter;
use wordhoard_query::rng::SplitMix64;

use crate::fst_writer;
use crate::hash::FastMap;
use crate::wordlist::sort_by_bytes;
use crate::{BuildError, SortedWords};

/// Every word's term, sorted, with the words of each term.
pub(crate) struct Terms {
    /// Each word's letters sorted, at the word's own span.
    letters: Vec<u8>,
    /// Word ids ordered by (term, id).
    order: Vec<u32>,
    /// Per term: its first position in `order`; one extra at the end.
    starts: Vec<u32>,
}

impl Terms {
    pub(crate) fn new(words: &SortedWords) -> Terms {
        let mut letters = words.bytes().to_vec();
        for id in 0..words.len() {
            letters[words.span(id)].sort_unstable();
        }
        let term = |id: u32| &letters[words.span(id as usize)];
        let mut order: Vec<u32> = (0..words.len() as u32).collect();
        sort_by_bytes(&mut order, term);
        let mut starts: Vec<u32> = Vec::new();
        for (pos, &id) in order.iter().enumerate() {
            if pos == 0 || term(order[pos - 1]) != term(id) {
                starts.push(pos as u32);
            }
        }
        starts.push(order.len() as u32);
        Terms { letters, order, starts }
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }
}

/// Returns the encoded `terms` and `chains` sections and the term count.
pub(crate) fn build(words: &SortedWords) -> Result<(Vec<u8>, Vec<u8>, usize), BuildError> {
    let terms = Terms::new(words);
    let term_of = |t: usize| &terms.letters[words.span(terms.order[terms.starts[t] as usize] as usize)];
    let (fst, chains) = std::thread::scope(|s| {
        let chains = s.spawn(|| Graph::new(terms.len(), term_of).encode());
        (terms_fst(terms.len(), term_of), chains.join().expect("chains build thread"))
    });
    let section = ColumnsWriter::new().bytes(fst?).u32s(&terms.starts).u32s(&terms.order).finish();
    Ok((section, chains?, terms.len()))
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

/// A random value per byte: a term's multiset hash is the wrapping sum over
/// its letters, so dropping a letter is one subtraction.
fn letter_values() -> [u64; 256] {
    let mut rng = SplitMix64::new(0x5eed);
    std::array::from_fn(|_| rng.next_u64())
}

impl Graph {
    fn new<'a>(count: usize, term_of: impl Fn(usize) -> &'a [u8]) -> Graph {
        let values = letter_values();
        let hash = |t: &[u8]| t.iter().fold(0u64, |h, &b| h.wrapping_add(values[b as usize]));
        // One table per length, so each probe hits a cache-sized table;
        // sized up front so none is rehashed while filling.
        let mut sizes: Vec<usize> = Vec::new();
        for t in 0..count {
            let len = term_of(t).len();
            if sizes.len() <= len {
                sizes.resize(len + 1, 0);
            }
            sizes[len] += 1;
        }
        let mut by_len: Vec<FastMap<u64, u32>> =
            sizes.iter().map(|&n| FastMap::with_capacity_and_hasher(n, Default::default())).collect();
        for t in 0..count {
            let term = term_of(t);
            by_len[term.len()].insert(hash(term), t as u32);
        }
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for to in 0..count {
            let term = term_of(to);
            if term.len() < 2 {
                continue;
            }
            let h = hash(term);
            let shorter = &by_len[term.len() - 1];
            for i in 0..term.len() {
                if i > 0 && term[i] == term[i - 1] {
                    continue;
                }
                let Some(&from) = shorter.get(&h.wrapping_sub(values[term[i] as usize])) else { continue };
                // A hash match is checked letter by letter: no false edges.
                if is_term_minus(term_of(from as usize), term, i) {
                    edges.push((from, to as u32));
                }
            }
        }
        edges.sort_unstable();
        let mut succ_starts = vec![0u32; count + 1];
        for &(from, _) in &edges {
            succ_starts[from as usize + 1] += 1;
        }
        for i in 0..count {
            succ_starts[i + 1] += succ_starts[i];
        }
        Graph {
            lens: (0..count).map(|t| term_of(t).len() as u8).collect(),
            succ_starts,
            succs: edges.into_iter().map(|(_, to)| to).collect(),
        }
    }

    fn successors(&self, t: usize) -> &[u32] {
        &self.succs[self.succ_starts[t] as usize..self.succ_starts[t + 1] as usize]
    }

    /// Term ids grouped by length, shortest first.
    fn by_length(&self) -> Vec<u32> {
        let max = self.lens.iter().copied().max().unwrap_or(0) as usize;
        let mut starts = vec![0u32; max + 2];
        for &l in &self.lens {
            starts[l as usize + 1] += 1;
        }
        for l in 0..=max {
            starts[l + 1] += starts[l];
        }
        let mut fill = starts.clone();
        let mut ids = vec![0u32; self.lens.len()];
        for (t, &l) in self.lens.iter().enumerate() {
            ids[fill[l as usize] as usize] = t as u32;
            fill[l as usize] += 1;
        }
        ids
    }

    fn encode(&self) -> Result<Vec<u8>, BuildError> {
        let by_len = self.by_length();
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
                    .ok_or_else(|| BuildError::new("too many Anigrams games to count in 64 bits"))?;
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
        Ok(out.finish())
    }
}

/// True when `shorter` is `longer` without its letter at `skip`.
fn is_term_minus(shorter: &[u8], longer: &[u8], skip: usize) -> bool {
    shorter.len() + 1 == longer.len() && shorter[..skip] == longer[..skip] && shorter[skip..] == longer[skip + 1..]
}
