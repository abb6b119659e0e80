//! Builds the Spelling Bee sections `lettersets` and `honeycombs`; their
//! layout is documented in `wordhoard_query::bee`.

use wordhoard_query::bee::{base_points, HONEYCOMB_LETTERS, MIN_WORD_LEN, PANGRAM_BONUS};
use wordhoard_query::format::{ColumnsWriter, Payload};
use wordhoard_query::{Alphabet, LetterSet};

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::hash::TagTable;
use crate::sorted_words::SortedWords;

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
    pub lettersets: Payload,
    pub honeycombs: Payload,
    /// Only when the index has a common list.
    pub common_honeycombs: Option<Payload>,
}

/// The bee sections under construction. The honeycombs, the bulk of the
/// work, come in chunks of pangram sets that any thread may claim through
/// [`BeeBuild::help`], so a thread done with its own sections can share it.
pub(crate) struct BeeBuild {
    rows: Vec<SetRow>,
    /// Indices of the rows with a pangram's number of letters.
    pangrams: Vec<u32>,
    /// Rows of up to 7 letters by mask: probed 127 times per pangram set,
    /// so kept to 8 bytes a row for cache; a mask is its own hash and tag.
    row_of: TagTable,
    lettersets: Payload,
    has_common: bool,
    /// Masks past 32 bits (an alphabet of more than 32 letters).
    wide: bool,
    next_chunk: AtomicUsize,
    chunks: Vec<OnceLock<Vec<Honeycomb>>>,
}

/// Pangram sets per claimed chunk.
const CHUNK: usize = 1024;

impl BeeBuild {
    /// Reads the words into letter-set rows; `common` flags each word id.
    pub(crate) fn new(words: &SortedWords, alphabet: &Alphabet, common: &[bool], has_common: bool) -> BeeBuild {
        // (mask, id) packed in one integer sorts as one; the pairs are
        // distinct, so ids come out ascending within a set. A u64 holds
        // the pair when masks fit in 32 bits, a u128 past that.
        let pairs = words.iter().enumerate().filter(|(_, w)| w.len() >= MIN_WORD_LEN);
        let by_set: Vec<(u64, u32)> = if alphabet.len() <= 32 {
            let mut packed: Vec<u64> =
                pairs.filter_map(|(id, w)| Some(alphabet.set_of(w)?.0 << 32 | id as u64)).collect();
            packed.sort_unstable();
            packed.into_iter().map(|p| (p >> 32, p as u32)).collect()
        } else {
            let mut packed: Vec<u128> =
                pairs.filter_map(|(id, w)| Some((alphabet.set_of(w)?.0 as u128) << 32 | id as u128)).collect();
            packed.sort_unstable();
            packed.into_iter().map(|p| ((p >> 32) as u64, p as u32)).collect()
        };

        let mut rows: Vec<SetRow> = Vec::new();
        let mut starts = Vec::new();
        for (i, &(mask, id)) in by_set.iter().enumerate() {
            let id = id as usize;
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

        let mut lettersets = ColumnsWriter::new();
        masks_column(&mut lettersets, alphabet, rows.iter().map(|r| r.mask));
        lettersets
            .u32s(&rows.iter().map(|r| r.totals[0]).collect::<Vec<_>>())
            .u32s(&starts)
            .u32s(&by_set.iter().map(|&(_, id)| id).collect::<Vec<_>>());
        if let Some((text_starts, texts)) = row_texts(words, &rows, &starts, &by_set) {
            lettersets.u32s(&text_starts).bytes(texts);
        }
        let lettersets = lettersets.take_payload();
        let small = |r: &&SetRow| r.mask.len() <= HONEYCOMB_LETTERS;
        // Room for four times the rows: most of the probes miss, and at a
        // load of 1/8 a miss mostly ends at its first slot (measured: a
        // tenth faster than room for the rows alone, and no slower than a
        // filter in front of a smaller table).
        let mut row_of = TagTable::with_capacity(4 * rows.iter().filter(small).count());
        for (i, r) in rows.iter().enumerate().filter(|(_, r)| small(r)) {
            row_of.insert(r.mask.0, i as u32);
        }
        let pangrams: Vec<u32> =
            (0..rows.len() as u32).filter(|&i| rows[i as usize].mask.len() == HONEYCOMB_LETTERS).collect();
        let chunks = (0..pangrams.len().div_ceil(CHUNK)).map(|_| OnceLock::new()).collect();
        let wide = alphabet.len() > 32;
        BeeBuild { rows, pangrams, row_of, lettersets, has_common, wide, next_chunk: AtomicUsize::new(0), chunks }
    }

    /// Computes unclaimed honeycomb chunks until none are left.
    pub(crate) fn help(&self) {
        loop {
            let chunk = self.next_chunk.fetch_add(1, Ordering::Relaxed);
            let Some(cell) = self.chunks.get(chunk) else { return };
            let end = self.pangrams.len().min((chunk + 1) * CHUNK);
            let _ = cell.set(self.pangrams[chunk * CHUNK..end].iter().map(|&p| self.honeycomb(p)).collect());
        }
    }

    /// The sections, once every chunk is done (any left are done here).
    pub(crate) fn finish(self) -> BeeSections {
        self.help();
        let combs: Vec<&Honeycomb> =
            self.chunks.iter().flat_map(|c| c.get().expect("every chunk claimed and done")).collect();
        // Tally lanes: 0 and 1 for all words, 2 and 3 for common ones.
        let table = |lane: usize| {
            let bonus = |c: &Honeycomb| PANGRAM_BONUS * c.pangrams[lane + 1];
            let mut table = ColumnsWriter::new();
            let masks = self.pangrams.iter().map(|&r| self.rows[r as usize].mask);
            if self.wide {
                table.u64s(&masks.map(|m| m.0).collect::<Vec<_>>());
            } else {
                table.u32s(&masks.map(|m| m.0 as u32).collect::<Vec<_>>());
            }
            table
                .u32s(&combs.iter().map(|c| c.pangrams[lane + 1]).collect::<Vec<_>>())
                .u32s(&combs.iter().flat_map(|c| c.by_centre.map(|t| t[lane] + bonus(c))).collect::<Vec<_>>())
                .u32s(&combs.iter().flat_map(|c| c.by_centre.map(|t| t[lane + 1])).collect::<Vec<_>>())
                .take_payload()
        };
        // The two tables side by side; the common one only when asked for.
        let (honeycombs, common_honeycombs) = std::thread::scope(|s| {
            let common = self.has_common.then(|| s.spawn(|| table(2)));
            (table(0), common.map(|t| t.join().expect("honeycomb table thread")))
        });
        BeeSections { lettersets: self.lettersets, honeycombs, common_honeycombs }
    }

    /// One pangram set's totals. Each of its 127 subsets is looked up among
    /// the rows and its tally filed under the subset's 7-bit local mask; a
    /// centre's total is then the sum over the 64 local masks holding its
    /// bit, which are runs of the table the compiler adds as vectors.
    fn honeycomb(&self, pangram: u32) -> Honeycomb {
        let pangram = &self.rows[pangram as usize];
        let mut by_local = [[0u32; 4]; 1 << HONEYCOMB_LETTERS];
        let mut global = [0u64; 1 << HONEYCOMB_LETTERS];
        let mut letters = [0u64; HONEYCOMB_LETTERS];
        letters.iter_mut().zip(pangram.mask.indices()).for_each(|(l, i)| *l = 1 << i);
        for local in 1..global.len() {
            // The set of `local`: its lowest bit's letter and the rest.
            global[local] = global[local & (local - 1)] | letters[local.trailing_zeros() as usize];
            // The table's tag is the mask's low 32 bits: the whole mask
            // when the alphabet has up to 32 letters; past that, checked.
            let set = global[local];
            if let Some(i) = self.row_of.find(set, |i| !self.wide || self.rows[i as usize].mask.0 == set) {
                by_local[local] = self.rows[i as usize].totals;
            }
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
        Honeycomb { by_centre, pangrams: pangram.totals }
    }
}

/// The `lettersets` columns 4 and 5: where each row's words start in
/// the texts, and the texts: for a row of at most 7 letters (one a
/// honeycomb can hold), each of its words in id order as its length in
/// codes and its codes; nothing for a larger row. A solve reads its
/// rows' words back to back here, not spread over the word text. `None`
/// (the columns left out) past 4 GiB of texts: a list of some 400
/// million words.
fn row_texts(
    words: &SortedWords,
    rows: &[SetRow],
    starts: &[u32],
    by_set: &[(u64, u32)],
) -> Option<(Vec<u32>, Vec<u8>)> {
    let mut text_starts = Vec::with_capacity(rows.len() + 1);
    // At most every word and its length: only what is written is touched.
    let mut texts = Vec::with_capacity(words.bytes.len() + by_set.len());
    for (row, ids) in rows.iter().zip(starts.windows(2)) {
        text_starts.push(u32::try_from(texts.len()).ok()?);
        if row.mask.len() <= HONEYCOMB_LETTERS {
            for &(_, id) in &by_set[ids[0] as usize..ids[1] as usize] {
                let word = words.get(id as usize);
                // (A word has at most MAX_WORD_LEN codes, which a byte holds.)
                texts.push(word.len() as u8);
                texts.extend_from_slice(word);
            }
        }
    }
    text_starts.push(u32::try_from(texts.len()).ok()?);
    Some((text_starts, texts))
}

/// Letter sets as a column: `u32`s for an alphabet of up to 32 letters,
/// `u64`s past that.
fn masks_column(table: &mut ColumnsWriter, alphabet: &Alphabet, masks: impl Iterator<Item = LetterSet>) {
    if alphabet.len() > 32 {
        table.u64s(&masks.map(|m| m.0).collect::<Vec<_>>());
    } else {
        table.u32s(&masks.map(|m| m.0 as u32).collect::<Vec<_>>());
    }
}

/// Totals for one honeycomb: for each centre (the pangram's letters in
/// order) the tally of the words it allows, and its pangrams' tally.
struct Honeycomb {
    by_centre: [Tally; HONEYCOMB_LETTERS],
    pangrams: Tally,
}
