//! The sorted word arena: distinct words in byte order, back to back in
//! one buffer; a word's id is its position.

use crate::sort::{distinct_bytes, sort_keyed, split_by_key, Keyed, Prefixes};

/// Sorts the words `spans` point at in `bytes`, drops repeats, and copies
/// them into a fresh arena in order. `strictly_sorted` says the spans are
/// known to be in order without repeats.
pub(crate) fn sort_and_dedup(bytes: Vec<u8>, mut spans: Vec<(u32, u8)>, strictly_sorted: bool) -> SortedWords {
    let word = |&(at, len): &(u32, u8)| &bytes[at as usize..at as usize + len as usize];
    // Most lists arrive sorted and without repeats, and the words were
    // appended in order with nothing between them: the arena already is
    // the answer.
    let back_to_back = spans.windows(2).all(|w| w[0].0 + w[0].1 as u32 == w[1].0)
        && spans.first().is_none_or(|s| s.0 == 0)
        && spans.last().is_none_or(|s| s.0 as usize + s.1 as usize == bytes.len());
    if strictly_sorted && back_to_back {
        let starts = spans.iter().map(|s| s.0).chain([bytes.len() as u32]).collect();
        return SortedWords { bytes, starts };
    }
    let mut sorted = SortedWords::with_capacity(bytes.len(), spans.len());
    if strictly_sorted || spans.is_sorted_by(|a, b| word(a) <= word(b)) {
        // In order: repeats are neighbours, compared as read.
        spans.dedup_by(|a, b| word(a) == word(b));
        spans.iter().for_each(|span| sorted.push(word(span)));
    } else {
        // Sorted by packed prefixes, then each word copied once, in order,
        // straight from where it was read. A repeat has its neighbour's
        // key, and a key that settles its word is the word: only ties of
        // long words are compared byte by byte. (Sorting ids, then
        // reordering the spans and comparing every neighbour's bytes, were
        // three random reads a word instead of one: 10 million words
        // sorted in 1,140-1,210 ms that way, 800-855 ms this.)
        let prefixes = Prefixes::new(&distinct_bytes(&bytes));
        let keys_of = |spans: &[(u32, u8)]| -> Vec<WordKey> {
            spans.iter().map(|span @ &(at, len)| WordKey { key: prefixes.key(word(span)), at, len }).collect()
        };
        let word_of = |k: &WordKey| word(&(k.at, k.len));
        if spans.len() < TWO_THREADS_FROM {
            let mut keyed = keys_of(&spans);
            drop(spans);
            sort_keyed(&mut keyed, word_of);
            push_distinct(&keyed, word_of, &mut sorted);
        } else {
            // On two threads: the keys of each half of the list, then two
            // runs of keys (see `split_by_key`), each sorted and copied on
            // its own thread, the second run's words appended to the
            // first's.
            let (front, back) = spans.split_at(spans.len() / 2);
            let parts = std::thread::scope(|s| {
                let back = s.spawn(|| keys_of(back));
                [keys_of(front), back.join().expect("keying thread")]
            });
            drop(spans);
            let [low, high] = split_by_key(&parts);
            drop(parts);
            let sort_and_push = |mut keyed: Vec<WordKey>, into: &mut SortedWords| {
                sort_keyed(&mut keyed, word_of);
                push_distinct(&keyed, word_of, into);
            };
            let high = std::thread::scope(|s| {
                let high = s.spawn(|| {
                    // Room for every word of the run, repeats too: no
                    // copy of tens of megabytes as the arena grows.
                    let room = high.iter().map(|k| k.len as usize).sum();
                    let mut words = SortedWords::with_capacity(room, high.len());
                    sort_and_push(high, &mut words);
                    words
                });
                sort_and_push(low, &mut sorted);
                high.join().expect("sorting thread")
            });
            let at = sorted.bytes.len() as u32;
            sorted.starts.extend(high.starts.iter().map(|&start| at + start));
            sorted.bytes.extend_from_slice(&high.bytes);
        }
    }
    sorted.starts.push(sorted.bytes.len() as u32);
    sorted
}

/// Appends the words of `keyed` (sorted) to `sorted`, each once.
fn push_distinct<'a>(keyed: &[WordKey], word_of: impl Fn(&WordKey) -> &'a [u8], sorted: &mut SortedWords) {
    let mut last: Option<(u64, &[u8])> = None;
    for k in keyed {
        let this = word_of(k);
        let repeat = last.is_some_and(|(key, w)| key == k.key && (Prefixes::settles(key) || w == this));
        if !repeat {
            sorted.push(this);
            last = Some((k.key, this));
        }
    }
}

/// From this many words an unsorted list is sorted on two threads: a
/// thread's start costs tens of microseconds.
const TWO_THREADS_FROM: usize = 1 << 16;

/// A word to sort: its packed prefix and where it lies in the arena read
/// (its start orders repeats, as its id would). Carrying the span, not
/// an index into the spans, saves a random read a word in the sort's
/// ties and in the copy after it.
#[derive(Clone, Copy, Default)]
struct WordKey {
    key: u64,
    at: u32,
    len: u8,
}

impl Keyed for WordKey {
    #[inline]
    fn key(&self) -> u64 {
        self.key
    }
    #[inline]
    fn id(&self) -> u32 {
        self.at
    }
}

/// Distinct words in byte order, in one arena; a word's id is its position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SortedWords {
    pub(crate) bytes: Vec<u8>,
    /// Where each word starts in `bytes`, and one past the last word.
    pub(crate) starts: Vec<u32>,
}

impl SortedWords {
    /// None yet, with room for `words` words of `bytes` bytes in all.
    fn with_capacity(bytes: usize, words: usize) -> SortedWords {
        SortedWords { bytes: Vec::with_capacity(bytes), starts: Vec::with_capacity(words + 1) }
    }

    /// Appends `word`, which must sort after the last one (the end of
    /// the arena is pushed once, after the last word).
    #[inline]
    fn push(&mut self, word: &[u8]) {
        self.starts.push(self.bytes.len() as u32);
        self.bytes.extend_from_slice(word);
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// True when there are no words.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The word with id `id`.
    #[inline]
    pub fn get(&self, id: usize) -> &[u8] {
        &self.bytes[self.span(id)]
    }

    /// Where word `id` lies in [`SortedWords::bytes`].
    #[inline]
    pub fn span(&self, id: usize) -> std::ops::Range<usize> {
        self.starts[id] as usize..self.starts[id + 1] as usize
    }

    /// All words' bytes, back to back in id order.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The words in id (sorted) order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        (0..self.len()).map(|id| self.get(id))
    }

    /// Any words (of any bytes), sorted and without repeats: for tests.
    #[cfg(test)]
    pub(crate) fn from_words(words: impl IntoIterator<Item = Vec<u8>>) -> SortedWords {
        let (mut bytes, mut spans) = (Vec::new(), Vec::new());
        for word in words {
            spans.push((bytes.len() as u32, word.len() as u8));
            bytes.extend_from_slice(&word);
        }
        sort_and_dedup(bytes, spans, false)
    }

    /// These words without those of `other`, and how many were removed:
    /// one merge of the two sorted lists.
    pub fn without(&self, other: &SortedWords) -> (SortedWords, u64) {
        let mut kept = SortedWords::with_capacity(self.bytes.len(), self.len());
        let (mut j, mut removed) = (0, 0);
        for word in self.iter() {
            while j < other.len() && other.get(j) < word {
                j += 1;
            }
            if j < other.len() && other.get(j) == word {
                removed += 1;
                continue;
            }
            kept.push(word);
        }
        kept.starts.push(kept.bytes.len() as u32);
        (kept, removed)
    }

    /// The id of a word, if present.
    pub fn find(&self, word: &[u8]) -> Option<usize> {
        let id = self.first_not_below(word, 0..self.len());
        (id < self.len() && self.get(id) == word).then_some(id)
    }

    /// The first id in `within` whose word is not below `word` (the end of
    /// `within` when none is): a binary search.
    pub fn first_not_below(&self, word: &[u8], within: std::ops::Range<usize>) -> usize {
        let (mut lo, mut hi) = (within.start, within.end.min(self.len()));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid) < word {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wordlist::{WordList, WordSource};
    use wordhoard_query::Alphabet;

    #[test]
    fn without_removes_exactly_the_words_of_the_other_list() {
        let mut rng = crate::test_rng::SplitMix64::new(17);
        let mut word = || (0..1 + rng.below(3)).map(|_| b'a' + rng.below(3) as u8).collect::<Vec<u8>>();
        for _ in 0..200 {
            let a: Vec<Vec<u8>> = (0..20).map(|_| word()).collect();
            let b: Vec<Vec<u8>> = (0..10).map(|_| word()).collect();
            let (sa, sb) = (SortedWords::from_words(a.clone()), SortedWords::from_words(b.clone()));
            let (kept, removed) = sa.without(&sb);
            let want: Vec<&[u8]> = sa.iter().filter(|w| !b.iter().any(|x| x == w)).collect();
            assert_eq!(kept.iter().collect::<Vec<_>>(), want);
            assert_eq!(removed as usize, sa.len() - want.len());
        }
    }

    /// A list long enough to be sorted on two threads, unsorted, with
    /// repeats and with long words that share their first 12 letters, is
    /// sorted and without repeats as a plain sort makes it.
    #[test]
    fn a_long_list_sorted_on_two_threads_is_a_plain_sort() {
        let mut rng = crate::test_rng::SplitMix64::new(23);
        let mut words: Vec<Vec<u8>> = (0..TWO_THREADS_FROM + 5000)
            .map(|_| {
                let len = 1 + rng.below(15) as usize;
                // Few letters, so repeats; a shared head, so long ties.
                let head: &[u8] = if rng.below(4) == 0 { b"abcabcabcabc" } else { b"" };
                head.iter().copied().chain((0..len).map(|_| b'a' + rng.below(4) as u8)).collect()
            })
            .collect();
        let sorted = SortedWords::from_words(words.clone());
        words.sort();
        words.dedup();
        assert_eq!(sorted.iter().collect::<Vec<_>>(), words.iter().map(Vec::as_slice).collect::<Vec<_>>());
    }

    #[test]
    fn sorted_lists_keep_their_arena_and_others_get_the_same_words() {
        let words = |text: &str| {
            let list = WordList::read(&[WordSource::from_text("t", text)], &Alphabet::latin()).unwrap();
            list.into_sorted_words()
        };
        let sorted = words("ant\nbee\ncat\n");
        assert_eq!(sorted.iter().collect::<Vec<_>>(), [&b"ant"[..], b"bee", b"cat"]);
        // Out of order, repeated, or with a skipped line between: same words.
        assert_eq!(words("cat\nant\nbee\n"), sorted);
        assert_eq!(words("ant\nbee\nbee\ncat\n"), sorted);
        assert_eq!(words("ant\n4x4\nbee\n\nCat\n"), sorted);
        assert_eq!(words("").len(), 0);
    }
}
