//! Writes `fst::Map` bytes from keys given in order.
//!
//! The format and its reader are `wordhoard_query::format::fst`. This
//! module writes maps instead of the fst crate's builder, which was over a
//! third of a build's time (it allocates every node). Here the nodes on the
//! last key's path reuse their buffers, the registry of written nodes is a
//! flat cache of 16-byte slots, and a node is encoded in a fixed buffer. The same keys give a map
//! of the same language in about half the time.
//!
//! The bytes follow the fst crate's format version 3, node by node: a node
//! is written after the nodes it points to and read backwards from its last
//! byte, which is its address. The tests check the maps written here
//! against the fst crate: byte for byte on small maps, and by reading back
//! random ones.

// With the fst crate writing the maps, this writer is only tested.
#![cfg_attr(feature = "fst-crate-writer", allow(dead_code))]

use crate::error::{BuildError, BuildErrorKind};

use wordhoard_query::format::fst::{COMMON_INPUTS, EMPTY_ADDRESS, TRANS_INDEX_THRESHOLD, VERSION};

/// No node compiled yet.
const NONE_ADDRESS: usize = 1;

/// The state byte's code for each input byte.
const COMMON_CODES: [u8; 256] = {
    let mut codes = [0u8; 256];
    let mut i = 0;
    while i < COMMON_INPUTS.len() {
        codes[COMMON_INPUTS[i] as usize] = i as u8 + 1;
        i += 1;
    }
    codes
};

/// A key that is not greater than the key before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OutOfOrder {
    pub previous: Vec<u8>,
    pub key: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Transition {
    input: u8,
    output: u64,
    target: usize,
}

#[derive(Default)]
struct Node {
    is_final: bool,
    final_output: u64,
    transitions: Vec<Transition>,
}

/// A node on the path of the last key: its transition along that key is
/// `last`, still pointing at an unfinished node.
#[derive(Default)]
struct Unfinished {
    node: Node,
    last: Option<(u8, u64)>,
}

/// The map from each key to its position, written by the fst crate
/// (feature `fst-crate-writer`); `what` names the keys in errors.
#[cfg(feature = "fst-crate-writer")]
pub(crate) fn rank_map<'a>(keys: impl Iterator<Item = &'a [u8]>, what: &'static str) -> Result<Vec<u8>, BuildError> {
    let mut map = fst::MapBuilder::memory();
    let mut previous: Vec<u8> = Vec::new();
    for (rank, key) in keys.enumerate() {
        map.insert(key, rank as u64).map_err(|_| {
            BuildError::new(BuildErrorKind::OutOfOrder { what, key: key.to_vec(), previous: previous.clone() })
        })?;
        previous.clear();
        previous.extend_from_slice(key);
    }
    Ok(map.into_inner().expect("writing to memory cannot fail"))
}

/// The map from each key to its position; `what` names the keys in errors.
#[cfg(not(feature = "fst-crate-writer"))]
pub(crate) fn rank_map<'a>(keys: impl Iterator<Item = &'a [u8]>, what: &'static str) -> Result<Vec<u8>, BuildError> {
    let mut map = FstMapWriter::new();
    for (rank, key) in keys.enumerate() {
        map.insert(key, rank as u64)
            .map_err(|e| BuildError::new(BuildErrorKind::OutOfOrder { what, key: e.key, previous: e.previous }))?;
    }
    Ok(map.finish())
}

/// Writes an `fst::Map` from keys inserted in strictly increasing order.
pub(crate) struct FstMapWriter {
    /// The path of the last key, root first; `depth` of them are in use,
    /// the rest keep their buffers for the next keys.
    path: Vec<Unfinished>,
    depth: usize,
    nodes: NodeWriter,
    len: u64,
}

impl FstMapWriter {
    pub(crate) fn new() -> FstMapWriter {
        let mut out = Vec::with_capacity(1 << 16);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes()); // the fst type: a plain map
        FstMapWriter {
            path: vec![Unfinished::default()],
            depth: 1,
            nodes: NodeWriter {
                out,
                registry: Registry::default(),
                encoded: Encoded::default(),
                last_addr: NONE_ADDRESS,
            },
            len: 0,
        }
    }

    /// Adds `key` with `value`; keys must come in strictly increasing order.
    pub(crate) fn insert(&mut self, key: &[u8], value: u64) -> Result<(), OutOfOrder> {
        let prefix_len = self.check_order(key)?;
        self.len += 1;
        if key.is_empty() {
            // Only ever the first key.
            self.path[0].node.is_final = true;
            self.path[0].node.final_output = value;
            return Ok(());
        }
        let value = self.share_outputs(prefix_len, value);
        self.compile_from(prefix_len);
        self.add_suffix(&key[prefix_len..], value);
        Ok(())
    }

    /// Writes the remaining nodes and the footer, and returns the map.
    pub(crate) fn finish(mut self) -> Vec<u8> {
        self.compile_from(0);
        let root_addr = self.nodes.compile(&self.path[0].node);
        let out = &mut self.nodes.out;
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&(root_addr as u64).to_le_bytes());
        let sum = masked_crc32c(out);
        out.extend_from_slice(&sum.to_le_bytes());
        self.nodes.out
    }

    /// The length of the prefix `key` shares with the last key, which the
    /// path spells; an error unless `key` sorts after it.
    fn check_order(&self, key: &[u8]) -> Result<usize, OutOfOrder> {
        let last_input = |i: usize| self.path[i].last.map(|(input, _)| input);
        let mut i = 0;
        while i < key.len() && last_input(i) == Some(key[i]) {
            i += 1;
        }
        match last_input(i) {
            // The last key is a proper prefix of this one (or there is none).
            None if self.len == 0 || i < key.len() => Ok(i),
            Some(input) if i < key.len() && key[i] > input => Ok(i),
            _ => Err(OutOfOrder { previous: (0..).map_while(last_input).collect(), key: key.to_vec() }),
        }
    }

    /// Outputs are summed along a path, so each transition of the shared
    /// prefix keeps only the part of its output both keys agree on and
    /// pushes the rest one node down. Returns what is left of `value`.
    fn share_outputs(&mut self, prefix_len: usize, mut value: u64) -> u64 {
        for i in 0..prefix_len {
            let Some((_, output)) = &mut self.path[i].last else { unreachable!("the prefix is on the path") };
            let common = (*output).min(value);
            let pushed_down = *output - common;
            value -= common;
            *output = common;
            if pushed_down != 0 {
                self.path[i + 1].add_output_prefix(pushed_down);
            }
        }
        value
    }

    /// Compiles the nodes of the last key's path below depth `keep`.
    fn compile_from(&mut self, keep: usize) {
        let mut addr = NONE_ADDRESS;
        while keep + 1 < self.depth {
            self.depth -= 1;
            let top = &mut self.path[self.depth];
            if addr != NONE_ADDRESS {
                top.freeze_last(addr);
            }
            addr = self.nodes.compile(&top.node);
            top.clear();
        }
        self.path[self.depth - 1].freeze_last(addr);
    }

    fn add_suffix(&mut self, suffix: &[u8], value: u64) {
        let Some((&first, rest)) = suffix.split_first() else { return };
        self.path[self.depth - 1].last = Some((first, value));
        for &input in rest {
            self.push(false).last = Some((input, 0));
        }
        self.push(true);
    }

    fn push(&mut self, is_final: bool) -> &mut Unfinished {
        if self.depth == self.path.len() {
            self.path.push(Unfinished::default());
        }
        let top = &mut self.path[self.depth];
        top.node.is_final = is_final;
        self.depth += 1;
        top
    }
}

impl Unfinished {
    /// Points the pending transition at its compiled node.
    fn freeze_last(&mut self, target: usize) {
        if let Some((input, output)) = self.last.take() {
            self.node.transitions.push(Transition { input, output, target });
        }
    }

    fn add_output_prefix(&mut self, prefix: u64) {
        if self.node.is_final {
            self.node.final_output += prefix;
        }
        for t in &mut self.node.transitions {
            t.output += prefix;
        }
        if let Some((_, output)) = &mut self.last {
            *output += prefix;
        }
    }

    /// Empties the node, keeping its buffer for the next one at its depth.
    fn clear(&mut self) {
        self.node.is_final = false;
        self.node.final_output = 0;
        self.node.transitions.clear();
        self.last = None;
    }
}

/// The bytes written so far and the registry of the nodes among them.
struct NodeWriter {
    out: Vec<u8>,
    registry: Registry,
    encoded: Encoded,
    /// The address of the last node written.
    last_addr: usize,
}

impl NodeWriter {
    /// Writes `node` unless an equal node is already written; returns its
    /// address.
    fn compile(&mut self, node: &Node) -> usize {
        if node.is_final && node.transitions.is_empty() && node.final_output == 0 {
            return EMPTY_ADDRESS;
        }
        let key = NodeKey::of(node);
        if let Some(addr) = self.registry.find(key, node, &self.out, &mut self.encoded) {
            return addr;
        }
        let start = self.out.len();
        self.out.extend_from_slice(self.encoded.encode(node, start, self.last_addr));
        self.last_addr = self.out.len() - 1;
        self.registry.add(key, start, self.last_addr);
        self.last_addr
    }
}

/// What the registry files a node under. Most nodes have one transition
/// with small numbers and fit in 63 bits whole, so finding them compares
/// one word; others are filed by hash and confirmed against their bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeKey {
    Exact(u64),
    Hashed(u64),
}

impl NodeKey {
    const EXACT: u64 = 1 << 63;

    fn of(node: &Node) -> NodeKey {
        if let [t] = node.transitions.as_slice() {
            if !node.is_final && t.output < 1 << 23 && t.target < 1 << 32 {
                return NodeKey::Exact(Self::EXACT | t.output << 40 | (t.input as u64) << 32 | t.target as u64);
            }
        }
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mix = |h: u64, v: u64| (h ^ v).wrapping_mul(K).rotate_left(29);
        let mut h = mix(node.is_final as u64, node.final_output);
        for t in &node.transitions {
            h = mix(mix(h, t.input as u64 | (t.target as u64) << 8), t.output);
        }
        // Never 0 (an empty slot), never mistaken for an exact key.
        NodeKey::Hashed((h | 1) & !Self::EXACT)
    }

    fn word(self) -> u64 {
        match self {
            NodeKey::Exact(w) | NodeKey::Hashed(w) => w,
        }
    }

    /// The registry pair a key belongs to.
    fn pair(word: u64, mask: usize) -> usize {
        let w = word.wrapping_mul(0xff51_afd7_ed55_8ccd);
        (w ^ (w >> 32)) as usize & mask
    }
}

/// Nodes written, for reuse: a cache of `(key, place)` slots in pairs,
/// the most recently used of a pair first. An exact key's place is the
/// node's address; a hashed key's is its first and last byte, and a
/// candidate is confirmed by encoding the node at that start and comparing
/// bytes (a node's encoding at a given place is unique).
///
/// Forgetting costs little: 2 x 8,192 slots (256 KiB, a quarter of a
/// core's L2 here) hold the nodes worth sharing. Each node written is a
/// lookup at a random slot, so the table's size is the writer's speed:
/// on enable1, 2 x 32,768 slots (1 MiB) wrote the words FST in 25-28 ms
/// and the terms section in 26-28, 2 x 8,192 in 16-18 and 17-18 (medians
/// of 15 in one run, three rounds), for a words FST 6% larger (594,242
/// to 629,768 bytes) and terms 1.5% (2,156,352 to 2,189,048). On the 10
/// million generated words the words FST came out 2.8% smaller (a node
/// written beside its parent needs no address). The fst crate's cache
/// is 2 x 10,000.
struct Registry {
    slots: Vec<(u64, u64)>,
    /// Nodes forgotten, for the tests that must reach that point.
    #[cfg(test)]
    evicted: u64,
}

/// Pairs of slots.
const PAIRS: usize = 1 << 13;

impl Default for Registry {
    fn default() -> Registry {
        Registry {
            slots: vec![(0, 0); 2 * PAIRS],
            #[cfg(test)]
            evicted: 0,
        }
    }
}

impl Registry {
    /// The address of a written node equal to `node`, if any.
    fn find(&mut self, key: NodeKey, node: &Node, out: &[u8], scratch: &mut Encoded) -> Option<usize> {
        let pair = 2 * NodeKey::pair(key.word(), PAIRS - 1);
        for i in [pair, pair + 1] {
            let (word, place) = self.slots[i];
            if word == key.word() {
                let found = match key {
                    NodeKey::Exact(_) => Some(place as usize),
                    NodeKey::Hashed(_) => {
                        let (start, end) = (place as u32 as usize, (place >> 32) as usize);
                        // An unused slot (0, 0) has start 0: no node is there.
                        let last = start.checked_sub(1)?;
                        (out.get(start..=end) == Some(scratch.encode(node, start, last))).then_some(end)
                    }
                };
                if found.is_some() {
                    self.slots.swap(pair, i);
                    return found;
                }
            }
        }
        None
    }

    /// Remembers the node written at `start..=end`.
    fn add(&mut self, key: NodeKey, start: usize, end: usize) {
        let place = match key {
            NodeKey::Exact(_) => end as u64,
            // Past 4 GiB the map stays correct, only less shared.
            NodeKey::Hashed(_) => match (u32::try_from(start), u32::try_from(end)) {
                (Ok(start), Ok(end)) => (end as u64) << 32 | start as u64,
                _ => return,
            },
        };
        // The older of the pair is forgotten.
        let pair = 2 * NodeKey::pair(key.word(), PAIRS - 1);
        #[cfg(test)]
        {
            self.evicted += (self.slots[pair + 1] != (0, 0)) as u64;
        }
        self.slots[pair + 1] = self.slots[pair];
        self.slots[pair] = (key.word(), place);
    }
}

/// The most bytes a node takes: per transition an input, an address and
/// an output of 8 bytes each, the 256-byte index, the final output, sizes,
/// count and state; plus 8 so `pack` may always store a whole word.
const MAX_NODE_BYTES: usize = 256 * 17 + 256 + 8 + 3 + 8;

/// One node's bytes, encoded in a fixed buffer and then appended or
/// compared: cheaper than growing a `Vec` byte by byte.
struct Encoded {
    buf: Box<[u8; MAX_NODE_BYTES]>,
    len: usize,
}

impl Default for Encoded {
    fn default() -> Encoded {
        Encoded { buf: Box::new([0; MAX_NODE_BYTES]), len: 0 }
    }
}

impl Encoded {
    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    fn put(&mut self, byte: u8) {
        self.buf[self.len] = byte;
        self.len += 1;
    }

    /// Puts the low `size` bytes of `n`, little-endian; returns `size`.
    fn pack(&mut self, n: u64, size: u8) -> u8 {
        self.buf[self.len..self.len + 8].copy_from_slice(&n.to_le_bytes());
        self.len += size as usize;
        size
    }

    /// Encodes `node` as written with its first byte at `start`, right
    /// after the node whose address is `last_addr`.
    fn encode(&mut self, node: &Node, start: usize, last_addr: usize) -> &[u8] {
        self.len = 0;
        match node.transitions.as_slice() {
            [t] if !node.is_final => {
                let code = COMMON_CODES[t.input as usize];
                if t.target == last_addr && t.output == 0 {
                    // One transition to the node just before: no address.
                    if code == 0 {
                        self.put(t.input);
                    }
                    self.put(0b11_000000 | code);
                } else {
                    let output_size = if t.output == 0 { 0 } else { self.pack(t.output, pack_size(t.output)) };
                    let delta = delta(start, t.target);
                    let addr_size = self.pack(delta, pack_size(delta));
                    self.put(addr_size << 4 | output_size);
                    if code == 0 {
                        self.put(t.input);
                    }
                    self.put(0b10_000000 | code);
                }
            }
            transitions => self.encode_any(node, transitions, start),
        }
        self.bytes()
    }

    /// The general node: outputs, addresses and inputs as arrays, last
    /// transition first, then sizes, count and state.
    fn encode_any(&mut self, node: &Node, transitions: &[Transition], start: usize) {
        let mut addr_size = 0;
        let mut output_size = pack_size(node.final_output);
        let mut any_outputs = node.final_output != 0;
        for t in transitions {
            addr_size = addr_size.max(pack_size(delta(start, t.target)));
            output_size = output_size.max(pack_size(t.output));
            any_outputs |= t.output != 0;
        }
        if any_outputs {
            if node.is_final {
                self.pack(node.final_output, output_size);
            }
            for t in transitions.iter().rev() {
                self.pack(t.output, output_size);
            }
        } else {
            output_size = 0;
        }
        for t in transitions.iter().rev() {
            self.pack(delta(start, t.target), addr_size);
        }
        for t in transitions.iter().rev() {
            self.put(t.input);
        }
        if transitions.len() > TRANS_INDEX_THRESHOLD {
            let mut index = [255u8; 256];
            for (i, t) in transitions.iter().enumerate() {
                index[t.input as usize] = i as u8;
            }
            self.buf[self.len..self.len + 256].copy_from_slice(&index);
            self.len += 256;
        }
        self.put(addr_size << 4 | output_size);
        let mut state = if node.is_final { 0b01_000000 } else { 0 };
        match transitions.len() {
            n @ 1..=0b11_1111 => state |= n as u8,
            // 256 does not fit a byte; 1 never appears here, so it stands in.
            256 => self.put(1),
            n => self.put(n as u8),
        }
        self.put(state);
    }
}

/// Targets are stored as the distance back from the node's first byte.
fn delta(start: usize, target: usize) -> u64 {
    if target == EMPTY_ADDRESS {
        0
    } else {
        // Targets are written before the nodes that point at them.
        start.checked_sub(target).expect("a transition points back") as u64
    }
}

/// Bytes needed for `n`, at least one.
fn pack_size(n: u64) -> u8 {
    (8 - n.leading_zeros() as u8 / 8).max(1)
}

/// CRC-32C, rotated and offset as the fst format (after Snappy) stores it.
fn masked_crc32c(bytes: &[u8]) -> u32 {
    let sum = crc32c(bytes);
    sum.rotate_right(15).wrapping_add(0xa282_ead8)
}

/// Slicing-by-8 tables for the Castagnoli polynomial (reflected).
const CRC32C_TABLES: [[u32; 256]; 8] = {
    let mut tables = [[0u32; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0x82f6_3b78 } else { crc >> 1 };
            bit += 1;
        }
        tables[0][i] = crc;
        i += 1;
    }
    let mut t = 1;
    while t < 8 {
        let mut i = 0;
        while i < 256 {
            let prev = tables[t - 1][i];
            tables[t][i] = (prev >> 8) ^ tables[0][(prev & 0xff) as usize];
            i += 1;
        }
        t += 1;
    }
    tables
};

fn crc32c(bytes: &[u8]) -> u32 {
    let t = &CRC32C_TABLES;
    let mut crc = !0u32;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let lo = u32::from_le_bytes([c[0], c[1], c[2], c[3]]) ^ crc;
        crc = t[7][(lo & 0xff) as usize]
            ^ t[6][(lo >> 8 & 0xff) as usize]
            ^ t[5][(lo >> 16 & 0xff) as usize]
            ^ t[4][(lo >> 24) as usize]
            ^ t[3][c[4] as usize]
            ^ t[2][c[5] as usize]
            ^ t[1][c[6] as usize]
            ^ t[0][c[7] as usize];
    }
    for &b in chunks.remainder() {
        crc = (crc >> 8) ^ t[0][((crc ^ b as u32) & 0xff) as usize];
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::SplitMix64;
    use fst::{IntoStreamer, Streamer};

    fn write(keys: &[(&[u8], u64)]) -> Vec<u8> {
        let mut w = FstMapWriter::new();
        for &(k, v) in keys {
            w.insert(k, v).unwrap();
        }
        w.finish()
    }

    fn read_back(bytes: Vec<u8>) -> Vec<(Vec<u8>, u64)> {
        let map = fst::Map::new(bytes).expect("fst accepts the map");
        map.as_fst().verify().expect("the checksum matches");
        let mut out = Vec::new();
        let mut stream = map.into_stream();
        while let Some((k, v)) = stream.next() {
            out.push((k.to_vec(), v));
        }
        out
    }

    fn crate_map(keys: &[(&[u8], u64)]) -> Vec<u8> {
        let mut b = fst::MapBuilder::memory();
        for &(k, v) in keys {
            b.insert(k, v).unwrap();
        }
        b.into_inner().unwrap()
    }

    #[test]
    fn crc32c_matches_the_standard_check_value() {
        assert_eq!(crc32c(b"123456789"), 0xe306_9283);
        assert_eq!(crc32c(b""), 0);
    }

    #[test]
    fn common_codes_match_the_fst_crate() {
        // A one-key map's root is a one-transition node whose last byte is
        // its state: the code of the key's byte, or 0.
        for b in 0..=255u8 {
            let bytes = crate_map(&[(&[b], 5)]);
            let state = bytes[bytes.len() - 21];
            assert_eq!(state & 0x3f, COMMON_CODES[b as usize], "byte {b}");
        }
    }

    #[test]
    fn writes_what_the_fst_crate_writes_for_small_maps() {
        let cases: Vec<Vec<(&[u8], u64)>> = vec![
            vec![],
            vec![(b"", 0)],
            vec![(b"", 7)],
            vec![(b"", 3), (b"a", 1)],
            vec![(b"a", 0)],
            vec![(b"ab", 1), (b"ac", 2), (b"b", 300), (b"bc", 70_000)],
            vec![(b"mon", 2), (b"tues", 3), (b"wed", 5), (b"wednesday", 5)],
            vec![(b"\x00", 1), (b"\xff", u64::MAX), (b"\xff\xff", 0)],
        ];
        for keys in cases {
            assert_eq!(write(&keys), crate_map(&keys), "{keys:?}");
        }
    }

    #[test]
    fn nodes_with_many_transitions_get_an_index() {
        let keys: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b, b]).collect();
        for n in [33, 200, 256] {
            let pairs: Vec<(&[u8], u64)> =
                keys[..n].iter().enumerate().map(|(i, k)| (k.as_slice(), i as u64)).collect();
            assert_eq!(write(&pairs), crate_map(&pairs), "{n} transitions");
            let probe = 200.min(n - 1);
            let map = fst::Map::new(write(&pairs)).unwrap();
            assert_eq!(map.get([probe as u8; 2]), Some(probe as u64));
        }
    }

    #[test]
    fn refuses_keys_out_of_order() {
        let mut w = FstMapWriter::new();
        w.insert(b"b", 0).unwrap();
        assert!(w.insert(b"a", 1).is_err());
        assert!(w.insert(b"b", 1).is_err());
        assert!(w.insert(b"ba", 1).is_ok());
    }

    #[test]
    fn shares_suffixes_at_least_as_well_as_the_crate() {
        // Both registries are caches; this one is larger.
        let words: Vec<String> = (0..20_000).map(|i| format!("{:05}x{}", i, i % 7)).collect();
        let pairs: Vec<(&[u8], u64)> = words.iter().map(|w| (w.as_bytes(), 0)).collect();
        let ours = write(&pairs);
        assert!(ours.len() <= crate_map(&pairs).len());
        assert_eq!(read_back(ours).len(), words.len());
    }

    /// Sorted distinct random keys over `symbols` byte values (spread over
    /// 0..=255), lengths 0..=max_len.
    fn random_keys(rng: &mut SplitMix64, count: usize, symbols: u64, max_len: u64) -> Vec<Vec<u8>> {
        let step = 256 / symbols;
        let mut keys: Vec<Vec<u8>> = (0..count)
            .map(|_| (0..rng.below(max_len + 1)).map(|_| (rng.below(symbols) * step) as u8).collect())
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }

    /// Maps large enough that the registry evicts (it holds 65,536 nodes),
    /// over 2, 4, 26 and 256 symbols, with values that are ranks, that
    /// climb by random gaps up to u64::MAX, and that are random: the fst
    /// crate reads every key to its value, its `get_key` turns every value
    /// of an ascending map back into its key, and our own reader agrees.
    #[test]
    fn large_maps_read_back_in_the_fst_crate_and_ours() {
        use wordhoard_query::format::fst::FstMap;
        use wordhoard_query::format::SectionId;
        let mut rng = SplitMix64::new(1234);
        for (count, symbols, max_len) in
            [(1_000, 2, 24), (10_000, 4, 16), (100_000, 26, 12), (30_000, 256, 6), (100_000, 2, 40)]
        {
            let keys = random_keys(&mut rng, count, symbols, max_len);
            assert!(keys.len() > count / 2, "{count} keys over {symbols} symbols: {} distinct", keys.len());
            let gaps_up_to = u64::MAX / keys.len() as u64;
            // From 0, as `get_key` ignores the root's final output (the
            // empty key's value), then by random gaps close to u64::MAX.
            let mut at = 0u64;
            let ascending: Vec<u64> = (0..keys.len())
                .map(|i| {
                    if i > 0 {
                        at += 1 + rng.below(gaps_up_to - 1);
                    }
                    at
                })
                .collect();
            let value_sets: [(&str, Vec<u64>); 3] = [
                ("ranks", (0..keys.len() as u64).collect()),
                ("ascending towards u64::MAX", ascending),
                ("random", keys.iter().map(|_| rng.next_u64()).collect()),
            ];
            for (kind, values) in value_sets {
                let what = format!("{} keys over {symbols} symbols, values {kind}", keys.len());
                let pairs: Vec<(&[u8], u64)> = keys.iter().map(Vec::as_slice).zip(values.iter().copied()).collect();
                let mut writer = FstMapWriter::new();
                pairs.iter().for_each(|&(k, v)| writer.insert(k, v).unwrap());
                let evicted = writer.nodes.registry.evicted;
                let bytes = writer.finish();
                assert!(keys.len() < 5_000 || evicted > 0, "{what}: the registry never evicted");
                let want: Vec<(Vec<u8>, u64)> = pairs.iter().map(|&(k, v)| (k.to_vec(), v)).collect();
                assert!(read_back(bytes.clone()) == want, "{what}: the fst crate reads other pairs");
                let crate_map = fst::Map::new(bytes.clone()).unwrap();
                let ours = FstMap::new(&bytes, SectionId::Words).unwrap();
                assert_eq!(ours.len(), keys.len(), "{what}");
                let mut key = Vec::new();
                for (k, v) in &pairs {
                    assert_eq!(ours.get(k).unwrap(), Some(*v), "{what}: {k:?}");
                    if kind != "random" {
                        assert_eq!(crate_map.as_fst().get_key(*v).as_deref(), Some(*k), "{what}: value {v}");
                    }
                    if kind == "ranks" {
                        assert!(ours.key_of(*v, &mut key).unwrap() && key == *k, "{what}: rank {v}");
                    }
                }
                // Keys not in the map: none found.
                for probe in random_keys(&mut rng, 200, symbols, max_len + 1) {
                    let want = keys.binary_search(&probe).ok().map(|i| values[i]);
                    assert_eq!(ours.get(&probe).unwrap(), want, "{what}: probe {probe:?}");
                }
            }
        }
    }

    #[test]
    fn round_trips_random_maps() {
        let mut rng = SplitMix64::new(7);
        for round in 0..300 {
            let count = rng.below(60) as usize;
            let alphabet = if round % 3 == 0 { 3 } else { 26 };
            let mut keys: Vec<Vec<u8>> =
                (0..count).map(|_| (0..rng.below(7)).map(|_| b'a' + rng.below(alphabet) as u8).collect()).collect();
            keys.sort();
            keys.dedup();
            let pairs: Vec<(&[u8], u64)> = keys
                .iter()
                .map(|k| (k.as_slice(), if round % 2 == 0 { rng.below(1 << 40) } else { rng.below(4) }))
                .collect();
            let got = read_back(write(&pairs));
            let want: Vec<(Vec<u8>, u64)> = pairs.iter().map(|&(k, v)| (k.to_vec(), v)).collect();
            assert_eq!(got, want, "round {round}");
        }
    }
}
