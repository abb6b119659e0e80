//! Builds the Spelling Bee sections `lettersets` and `honeycombs`; their
//! layout is documented in `wordhoard_query::bee`.

use wordhoard_query::bee::{base_points, HONEYCOMB_LETTERS, MIN_WORD_LEN, PANGRAM_BONUS};
use wordhoard_query::format::ColumnsWriter;
use wordhoard_query::{Alphabet, LetterSet};

use crate::hash::TagTable;
use crate::SortedWords;

/// One letter set and the totals its words give a honeycomb.
struct SetRow {
    mask: LetterSet,
    /// Points and words of all its words, then of its common words.
    totals: Tally,
}

/// Points, words, common points, common words: added as one vector.
type Tally = [u32; 4];

#[inline]
fn add(sum: &mut Tally, more: &Tally) {
    // Spelled out, so the four adds become one vector add.
    *sum = [sum[0] + more[0], sum[1] + more[1], sum[2] + more[2], sum[3] + more[3]];
}

/// The encoded bee sections.
pub(crate) struct BeeSections {
    pub lettersets: Vec<u8>,
    pub honeycombs: Vec<u8>,
    /// Only when the index has a common list.
    pub common_honeycombs: Option<Vec<u8>>,
}

/// Builds the bee sections; `common` flags each word id.
pub(crate) fn build(words: &SortedWords, alphabet: &Alphabet, common: &[bool], has_common: bool) -> BeeSections {
    // (mask, id) packed in a u64 sorts as one integer; the pairs are
    // distinct, so ids come out ascending within a set.
    let mut by_set: Vec<u64> = words
        .iter()
        .enumerate()
        .filter(|(_, w)| w.len() >= MIN_WORD_LEN)
        .filter_map(|(id, w)| Some((alphabet.set_of(w)?.0 as u64) << 32 | id as u64))
        .collect();
    by_set.sort_unstable();

    let mut rows: Vec<SetRow> = Vec::new();
    let mut starts = Vec::new();
    for (i, &pair) in by_set.iter().enumerate() {
        let (mask, id) = ((pair >> 32) as u32, pair as u32 as usize);
        if rows.last().is_none_or(|r| r.mask.0 != mask) {
            rows.push(SetRow { mask: LetterSet(mask), totals: [0; 4] });
            starts.push(i as u32);
        }
        let row = rows.last_mut().expect("pushed above");
        let points = base_points(words.get(id).len());
        let common = common[id] as u32;
        add(&mut row.totals, &[points, 1, points * common, common]);
    }
    starts.push(by_set.len() as u32);

    let lettersets = ColumnsWriter::new()
        .u32s(&rows.iter().map(|r| r.mask.0).collect::<Vec<_>>())
        .u32s(&rows.iter().map(|r| r.totals[0]).collect::<Vec<_>>())
        .u32s(&starts)
        .u32s(&by_set.iter().map(|&pair| pair as u32).collect::<Vec<_>>())
        .finish();
    let [all, common_only] = honeycombs(&rows);
    BeeSections { lettersets, honeycombs: all, common_honeycombs: has_common.then_some(common_only) }
}

/// Totals for one honeycomb: for each centre (the pangram's letters in
/// order) the tally of the words it allows, and its pangrams' tally.
struct Honeycomb {
    by_centre: [Tally; HONEYCOMB_LETTERS],
    pangrams: Tally,
}

/// The honeycomb tables: all words, and common words only.
///
/// For each pangram set, each of its 127 subsets is looked up among the
/// rows and its tally filed under the subset's 7-bit local mask; a centre's
/// total is then the sum over the 64 local masks holding its bit, which
/// are runs of the table the compiler can add as vectors.
fn honeycombs(rows: &[SetRow]) -> [Vec<u8>; 2] {
    // Probed 128 times per pangram set, so kept to 8 bytes a row for cache;
    // a mask is its own hash and tag, so nothing needs confirming.
    let mut row_of = TagTable::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        row_of.insert(r.mask.0 as u64, i as u32);
    }
    let pangrams: Vec<&SetRow> = rows.iter().filter(|r| r.mask.len() == HONEYCOMB_LETTERS).collect();
    let mut combs = Vec::with_capacity(pangrams.len());
    let mut by_local = [[0u32; 4]; 1 << HONEYCOMB_LETTERS];
    let mut global = [0u32; 1 << HONEYCOMB_LETTERS];
    for pangram in &pangrams {
        let letters: Vec<u32> = pangram.mask.indices().map(|i| 1 << i).collect();
        for local in 1..global.len() {
            // The set of `local`: its lowest bit's letter and the rest.
            global[local] = global[local & (local - 1)] | letters[local.trailing_zeros() as usize];
            by_local[local] = match row_of.find(global[local] as u64, |_| true) {
                Some(i) => rows[i as usize].totals,
                None => [0; 4],
            };
        }
        let mut by_centre = [[0u32; 4]; HONEYCOMB_LETTERS];
        for (centre, total) in by_centre.iter_mut().enumerate() {
            let run = 1 << centre;
            for block in by_local.chunks_exact(2 * run) {
                for t in &block[run..] {
                    add(total, t);
                }
            }
        }
        combs.push(Honeycomb { by_centre, pangrams: pangram.totals });
    }
    // Tally lanes: 0 and 1 for all words, 2 and 3 for common ones.
    let table = |lane: usize| {
        let bonus = |c: &Honeycomb| PANGRAM_BONUS * c.pangrams[lane + 1];
        ColumnsWriter::new()
            .u32s(&pangrams.iter().map(|r| r.mask.0).collect::<Vec<_>>())
            .u32s(&combs.iter().map(|c| c.pangrams[lane + 1]).collect::<Vec<_>>())
            .u32s(&combs.iter().flat_map(|c| c.by_centre.map(|t| t[lane] + bonus(c))).collect::<Vec<_>>())
            .u32s(&combs.iter().flat_map(|c| c.by_centre.map(|t| t[lane + 1])).collect::<Vec<_>>())
            .finish()
    };
    [table(0), table(2)]
}
