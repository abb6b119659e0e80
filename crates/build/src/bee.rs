//! Builds the Spelling Bee sections `lettersets` and `honeycombs`; their
//! layout is documented in `wordhoard_query::bee`.

use wordhoard_query::bee::{base_points, HONEYCOMB_LETTERS, MIN_WORD_LEN, PANGRAM_BONUS};
use wordhoard_query::format::ColumnsWriter;
use wordhoard_query::{Alphabet, LetterSet};

use crate::hash::FastMap;
use crate::SortedWords;

/// One letter set and the totals its words give a honeycomb.
struct SetRow {
    mask: LetterSet,
    points: u32,
    count: u32,
    common_points: u32,
    common_count: u32,
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
    let mut by_set: Vec<(u32, u32)> = words
        .iter()
        .enumerate()
        .filter(|(_, w)| w.len() >= MIN_WORD_LEN)
        .filter_map(|(id, w)| Some((alphabet.set_of(w)?.0, id as u32)))
        .collect();
    // (mask, id) pairs are distinct, so ids come out ascending within a set.
    by_set.sort_unstable();

    let mut rows: Vec<SetRow> = Vec::new();
    let mut starts = Vec::new();
    for (i, &(mask, id)) in by_set.iter().enumerate() {
        if rows.last().is_none_or(|r| r.mask.0 != mask) {
            rows.push(SetRow { mask: LetterSet(mask), points: 0, count: 0, common_points: 0, common_count: 0 });
            starts.push(i as u32);
        }
        let row = rows.last_mut().expect("pushed above");
        let points = base_points(words.get(id as usize).len());
        row.points += points;
        row.count += 1;
        if common[id as usize] {
            row.common_points += points;
            row.common_count += 1;
        }
    }
    starts.push(by_set.len() as u32);

    let lettersets = ColumnsWriter::new()
        .u32s(&rows.iter().map(|r| r.mask.0).collect::<Vec<_>>())
        .u32s(&rows.iter().map(|r| r.points).collect::<Vec<_>>())
        .u32s(&starts)
        .u32s(&by_set.iter().map(|&(_, id)| id).collect::<Vec<_>>())
        .finish();
    let [all, common_only] = honeycombs(&rows);
    BeeSections { lettersets, honeycombs: all, common_honeycombs: has_common.then_some(common_only) }
}

/// Totals for one honeycomb, per centre, for all words or common ones.
#[derive(Default)]
struct Totals {
    pangrams: u32,
    scores: [u32; HONEYCOMB_LETTERS],
    counts: [u32; HONEYCOMB_LETTERS],
}

/// The honeycomb tables: all words, and common words only.
fn honeycombs(rows: &[SetRow]) -> [Vec<u8>; 2] {
    // u32 rows keep the table small enough for cache: it is probed 128
    // times per pangram set.
    let row_of: FastMap<u32, u32> = rows.iter().enumerate().map(|(i, r)| (r.mask.0, i as u32)).collect();
    let mut masks = Vec::new();
    let mut all = Vec::new();
    let mut common = Vec::new();
    for pangram in rows.iter().filter(|r| r.mask.len() == HONEYCOMB_LETTERS) {
        let mut totals = [Totals::default(), Totals::default()];
        let centres: Vec<LetterSet> = pangram.mask.indices().map(|c| LetterSet::EMPTY.with(c)).collect();
        for subset in pangram.mask.subsets_containing(LetterSet::EMPTY) {
            let Some(&i) = row_of.get(&subset.0) else { continue };
            let row = &rows[i as usize];
            for (j, centre) in centres.iter().enumerate() {
                if centre.is_subset_of(subset) {
                    add(&mut totals[0], j, row.points, row.count);
                    add(&mut totals[1], j, row.common_points, row.common_count);
                }
            }
        }
        totals[0].pangrams = pangram.count;
        totals[1].pangrams = pangram.common_count;
        for t in &mut totals {
            let bonus = PANGRAM_BONUS * t.pangrams;
            t.scores.iter_mut().for_each(|s| *s += bonus);
        }
        masks.push(pangram.mask.0);
        let [a, c] = totals;
        all.push(a);
        common.push(c);
    }
    let table = |ts: &[Totals]| {
        ColumnsWriter::new()
            .u32s(&masks)
            .u32s(&ts.iter().map(|t| t.pangrams).collect::<Vec<_>>())
            .u32s(&ts.iter().flat_map(|t| t.scores).collect::<Vec<_>>())
            .u32s(&ts.iter().flat_map(|t| t.counts).collect::<Vec<_>>())
            .finish()
    };
    [table(&all), table(&common)]
}

fn add(t: &mut Totals, centre: usize, points: u32, count: u32) {
    t.scores[centre] += points;
    t.counts[centre] += count;
}
