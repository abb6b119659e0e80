//! Builds the Anigrams sections `terms` and `chains`; their layout is
//! documented in `wordhoard_query::anigram`.

use fst::MapBuilder;
use wordhoard_query::anigram::{GOAL_LEN, NO_NEXT};
use wordhoard_query::format::ColumnsWriter;

use crate::hash::FastMap;
use crate::BuildError;

/// Returns the encoded `terms` and `chains` sections and the term count.
pub(crate) fn build(words: &[Vec<u8>]) -> Result<(Vec<u8>, Vec<u8>, usize), BuildError> {
    let mut pairs: Vec<(Vec<u8>, u32)> = words
        .iter()
        .enumerate()
        .map(|(id, w)| {
            let mut term = w.clone();
            term.sort_unstable();
            (term, id as u32)
        })
        .collect();
    pairs.sort_unstable();

    let mut terms: Vec<&[u8]> = Vec::new();
    let mut group_starts = Vec::new();
    for (i, (term, _)) in pairs.iter().enumerate() {
        if terms.last() != Some(&term.as_slice()) {
            terms.push(term);
            group_starts.push(i as u32);
        }
    }
    group_starts.push(pairs.len() as u32);

    let mut fst = MapBuilder::memory();
    for (i, term) in terms.iter().enumerate() {
        fst.insert(term, i as u64).map_err(|e| BuildError::new(format!("cannot build the terms FST: {e}")))?;
    }
    let fst = fst.into_inner().map_err(|e| BuildError::new(format!("cannot build the terms FST: {e}")))?;
    let terms_section = ColumnsWriter::new()
        .bytes(fst)
        .u32s(&group_starts)
        .u32s(&pairs.iter().map(|&(_, id)| id).collect::<Vec<_>>())
        .finish();
    let chains = Graph::new(&terms).encode()?;
    Ok((terms_section, chains, terms.len()))
}

/// The add-one-letter graph over terms, as adjacency lists.
struct Graph {
    lens: Vec<u8>,
    succ_starts: Vec<u32>,
    succs: Vec<u32>,
}

impl Graph {
    fn new(terms: &[&[u8]]) -> Graph {
        let id_of: FastMap<&[u8], u32> = terms.iter().enumerate().map(|(i, &t)| (t, i as u32)).collect();
        // Each term's predecessors: drop one of its distinct letters.
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut shorter = Vec::new();
        for (to, term) in terms.iter().enumerate() {
            for i in 0..term.len() {
                if i > 0 && term[i] == term[i - 1] {
                    continue;
                }
                shorter.clear();
                shorter.extend_from_slice(&term[..i]);
                shorter.extend_from_slice(&term[i + 1..]);
                if let Some(&from) = id_of.get(shorter.as_slice()) {
                    edges.push((from, to as u32));
                }
            }
        }
        edges.sort_unstable();
        let mut succ_starts = vec![0u32; terms.len() + 1];
        for &(from, _) in &edges {
            succ_starts[from as usize + 1] += 1;
        }
        for i in 0..terms.len() {
            succ_starts[i + 1] += succ_starts[i];
        }
        Graph {
            lens: terms.iter().map(|t| t.len() as u8).collect(),
            succ_starts,
            succs: edges.into_iter().map(|(_, to)| to).collect(),
        }
    }

    fn successors(&self, t: usize) -> &[u32] {
        &self.succs[self.succ_starts[t] as usize..self.succ_starts[t + 1] as usize]
    }

    /// Term ids grouped by length, and the offsets of each length's group.
    fn by_length(&self) -> (Vec<u32>, Vec<u32>) {
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
        (starts, ids)
    }

    fn encode(&self) -> Result<Vec<u8>, BuildError> {
        let (len_starts, by_len) = self.by_length();
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
                games[t] = self.successors(t).iter().try_fold(0u64, |sum, &s| sum.checked_add(games[s as usize]))
                    .ok_or_else(|| BuildError::new("too many Anigrams games to count in 64 bits"))?;
            }
            for &s in self.successors(t) {
                if longest[s as usize] + 1 > longest[t] {
                    longest[t] = longest[s as usize] + 1;
                    next[t] = s;
                }
            }
        }
        Ok(ColumnsWriter::new()
            .u32s(&self.succ_starts)
            .u32s(&self.succs)
            .bytes(self.lens.clone())
            .bytes(longest)
            .u32s(&next)
            .u64s(&games)
            .u32s(&len_starts)
            .u32s(&by_len)
            .finish())
    }
}
