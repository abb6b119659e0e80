//! The fst crate's map format (version 3), read with every address checked.
//!
//! The `words` section and the first column of `terms` are `fst::Map`
//! bytes, as the fst crate writes them. The crate's own reader trusts its
//! input: an address out of range panics, and a stated key count is not
//! checked against what the nodes encode. An index may come from anyone, so
//! this reader decodes the same bytes with every read bounds-checked:
//!
//! * every node lies inside the map, after its 16-byte header;
//! * every transition's target lies strictly before its node's first byte,
//!   so no path can revisit a node: a walk ends after at most as many steps
//!   as the map has bytes, and no key is longer than
//!   [`MAX_KEY_LEN`](crate::format::MAX_WORD_LEN) (longer keys are errors);
//! * a [`Search`] follows at most `len * (MAX_KEY_LEN + 1)` transitions and
//!   reports at most `len` keys, where `len` is the stated key count: an
//!   honest map, whose nodes all lead to a key, needs no more (each followed
//!   transition spells a distinct prefix of some key), so a small map that
//!   encodes far more keys than it states stops with an error instead of
//!   running for years;
//! * and, whatever the count, at most [`MAX_WALK_STEPS`] transitions: an
//!   honest map can still encode far more keys than bytes (16 levels of 3
//!   letters that all lead to one node make 64 million keys in a
//!   kilobyte), so one search stops there with an
//!   [`ErrorKind::Limit`](crate::ErrorKind::Limit) error, "too large",
//!   within seconds.
//!
//! These checks cost O(1) a node, so queries make them as they go.
//! [`FstMap::check_rank_map`] is the whole walk `verify` makes: each node
//! once, the key count equal to the stated one, every input a letter of
//! the alphabet, transitions in ascending order, no dead ends, and each
//! key's value its rank (what turning an id back into its key relies on).
//!
//! A node is read backwards from its address, its last byte (the state):
//!
//! ```text
//! state 11cccccc   one transition to the node just before this one, no
//!                  output; input: common code c, or the byte before
//! state 10cccccc   one transition; below the state: [input if c = 0],
//!                  sizes (address size << 4 | output size), the address
//!                  delta, the output
//! state 0Fnnnnnn   any transitions, F = final; below: [count if n = 0,
//!                  where 1 stands for 256], sizes, [a 256-byte index by
//!                  input when over 32 transitions], the inputs, the
//!                  address deltas, the outputs, [the final output]
//! ```
//!
//! Arrays hold the last transition first. A delta is the distance back
//! from the node's first byte; 0 means the empty final node (address 0).
//! After the nodes: the key count (`u64`), the root's address (`u64`) and a
//! CRC-32C of everything before it (not checked here: the section's own
//! CRC-32 covers these bytes).

use crate::alphabet::Alphabet;
use crate::error::{Error, Result};
use crate::fasthash::IntMap;
use crate::format::blocks::{check, LastBlock, Lazy};
use crate::format::{SectionId, MAX_WORD_LEN};

/// The fst format version this reader reads (and the builder writes).
pub const VERSION: u64 = 3;
/// The address of the final node with no transitions; never written.
pub const EMPTY_ADDRESS: usize = 0;
/// Bytes before the first node: the version and the fst type.
pub const HEADER_LEN: usize = 16;
/// Bytes after the last node: key count, root address, checksum.
pub const FOOTER_LEN: usize = 20;
/// Nodes with more transitions than this carry a 256-byte index by input.
pub const TRANS_INDEX_THRESHOLD: usize = 32;
/// The 63 input bytes a state byte can hold, in the order of their codes
/// 1..=63 (code 0: the input is in a byte of its own).
pub const COMMON_INPUTS: &[u8; 63] = b"te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHG";

/// The longest key a map of an index may hold: a word.
const MAX_KEY_LEN: usize = MAX_WORD_LEN;

/// The most transitions one [`Search`] follows, whatever the map states:
/// a second or two of walking. A walk of every word of enable1 follows
/// 387,880; of 9.25 million random words of 4 to 12 letters, 37.8 million.
pub const MAX_WALK_STEPS: u64 = 1 << 26;

/// A map from byte strings to `u64`, over `fst::Map` bytes.
#[derive(Clone, Copy, Debug)]
pub struct FstMap<'a> {
    /// The header and the nodes (the footer cut off).
    nodes: &'a [u8],
    root: usize,
    len: u64,
    section: SectionId,
    /// Checks the blocks under each node read, unless already checked.
    lazy: Option<Lazy<'a>>,
}

/// One transition of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Transition {
    input: u8,
    output: u64,
    target: usize,
}

/// A decoded node: where its parts lie, each position checked to be
/// inside the node, which is inside the map.
#[derive(Clone, Copy, Debug)]
struct Node {
    kind: Kind,
    is_final: bool,
    final_output: u64,
    ntrans: usize,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Exactly one transition, decoded.
    One(Transition),
    /// Any number: positions of the arrays, each ending (exclusive) where
    /// transition 0's entry ends; transition `i`'s entry is `i + 1` entries
    /// below the end.
    Any {
        first: usize,
        inputs_end: usize,
        deltas_end: usize,
        addr_size: usize,
        outputs_end: usize,
        out_size: usize,
        index_at: Option<usize>,
    },
}

impl Node {
    const EMPTY_FINAL: Node = Node {
        kind: Kind::Any {
            first: 0,
            inputs_end: 0,
            deltas_end: 0,
            addr_size: 0,
            outputs_end: 0,
            out_size: 0,
            index_at: None,
        },
        is_final: true,
        final_output: 0,
        ntrans: 0,
    };
}

impl<'a> FstMap<'a> {
    /// Opens map bytes: the version, the footer and the root's address are
    /// checked; nodes are checked as they are read. Errors name `section`,
    /// the section that holds the map.
    pub fn new(bytes: &'a [u8], section: SectionId) -> Result<FstMap<'a>> {
        FstMap::new_lazy(bytes, None, section)
    }

    /// [`FstMap::new`] over bytes read through their section's block
    /// checksums: the header and footer are checked now, each node's bytes
    /// when it is decoded, before the node is used.
    pub fn new_lazy(bytes: &'a [u8], lazy: Option<Lazy<'a>>, section: SectionId) -> Result<FstMap<'a>> {
        let corrupt = |msg: &str| section.corrupt(format!("the FST {msg}"));
        if bytes.len() < HEADER_LEN + FOOTER_LEN {
            return Err(corrupt("is too short to be an FST"));
        }
        let version = read_uint(bytes, 0, 8).ok_or_else(|| corrupt("is truncated"))?;
        if version != VERSION {
            return Err(corrupt(&format!("has fst format version {version}; this reader reads {VERSION}")));
        }
        let footer = bytes.len() - FOOTER_LEN;
        check(lazy, &bytes[..HEADER_LEN])?;
        check(lazy, &bytes[footer..])?;
        let len = read_uint(bytes, footer, 8).ok_or_else(|| corrupt("is truncated"))?;
        let root = read_uint(bytes, footer + 8, 8).ok_or_else(|| corrupt("is truncated"))?;
        let nodes = &bytes[..footer];
        let root = usize::try_from(root).ok().filter(|&r| r == EMPTY_ADDRESS || (HEADER_LEN..footer).contains(&r));
        let root = root.ok_or_else(|| corrupt("has its root outside its nodes"))?;
        Ok(FstMap { nodes, root, len, section, lazy })
    }

    /// The number of keys, as the map states it (a search never reports
    /// more; [`FstMap::check_rank_map`] confirms it).
    pub fn len(&self) -> usize {
        usize::try_from(self.len).unwrap_or(usize::MAX)
    }

    /// True when the map states no keys.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn corrupt(&self, msg: &str) -> Error {
        self.section.corrupt(format!("the FST {msg}"))
    }

    /// The value of `key`, if the map has it.
    pub fn get(&self, key: &[u8]) -> Result<Option<u64>> {
        let mut node = self.node(self.root)?;
        let mut value = 0u64;
        for &b in key {
            match self.find(&node, b)? {
                Some(t) => {
                    value = value.wrapping_add(t.output);
                    node = self.node(t.target)?;
                }
                None => return Ok(None),
            }
        }
        Ok(node.is_final.then(|| value.wrapping_add(node.final_output)))
    }

    /// The key whose value is `value` in a map whose values are the keys'
    /// ranks (an id back into its word), into `out`; false when no key has
    /// that value.
    pub fn key_of(&self, mut value: u64, out: &mut Vec<u8>) -> Result<bool> {
        out.clear();
        let mut node = self.node(self.root)?;
        loop {
            if node.is_final && value == node.final_output {
                return Ok(true);
            }
            // Outputs ascend along a node's transitions: the key lies under
            // the last one not past the value, found by a binary search on
            // the outputs alone (a damaged map's order gives a wrong key,
            // bounded like any other walk, never an output past the value).
            let (mut lo, mut hi) = (0, node.ntrans);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if self.output_of(&node, mid)? <= value {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            let Some(i) = lo.checked_sub(1) else { return Ok(false) };
            let t = self.transition(&node, i)?;
            if t.output > value {
                return Ok(false);
            }
            if out.len() == MAX_KEY_LEN {
                return Err(self.corrupt(&format!("holds a key longer than {MAX_KEY_LEN} bytes")));
            }
            value -= t.output;
            out.push(t.input);
            node = self.node(t.target)?;
        }
    }

    /// The keys the automaton matches, in key order, with their values.
    pub fn search<A: Automaton>(&self, aut: A) -> Search<'a, A> {
        let budget = self.len.saturating_mul(MAX_KEY_LEN as u64 + 1).saturating_add(1);
        Search {
            map: *self,
            aut,
            stack: Vec::new(),
            dead: IntMap::default(),
            key: Vec::new(),
            budget,
            steps: 0,
            found: 0,
            started: false,
            last: LastBlock::default(),
        }
    }

    /// Walks the whole map once and checks it is the rank map of a set of
    /// words over `alphabet`: see the module docs. Costs a visit of every
    /// node and a table entry per node.
    pub fn check_rank_map(&self, alphabet: &Alphabet) -> Result<()> {
        struct Frame {
            addr: usize,
            node: Node,
            next: usize,
            keys: u64,
            height: usize,
            last_input: Option<u8>,
        }
        // Keys below and the longest key below, per node already walked.
        let mut done: IntMap<usize, (u64, usize)> = IntMap::default();
        let root = self.node(self.root)?;
        if root.is_final {
            return Err(self.corrupt("holds the empty word"));
        }
        let start = |addr: usize, node: Node| -> Result<Frame> {
            if node.is_final && node.final_output != 0 {
                return Err(self.corrupt("has a final output where a rank map has none"));
            }
            Ok(Frame { addr, node, next: 0, keys: node.is_final as u64, height: 0, last_input: None })
        };
        let mut stack = vec![start(self.root, root)?];
        while let Some(top) = stack.last_mut() {
            if top.next == top.node.ntrans {
                if top.addr != self.root && !top.node.is_final && top.node.ntrans == 0 {
                    return Err(self.corrupt("has a node that leads to no key"));
                }
                let (addr, keys, height) = (top.addr, top.keys, top.height);
                done.insert(addr, (keys, height));
                stack.pop();
                if let Some(parent) = stack.last_mut() {
                    parent.keys = parent.keys.checked_add(keys).ok_or_else(|| self.corrupt("holds too many keys"))?;
                    parent.height = parent.height.max(height + 1);
                } else if keys != self.len {
                    return Err(self.corrupt(&format!("holds {keys} keys but states {}", self.len)));
                }
                continue;
            }
            let t = self.transition(&top.node, top.next)?;
            top.next += 1;
            if top.last_input.is_some_and(|last| t.input <= last) {
                return Err(self.corrupt("has transitions out of order"));
            }
            top.last_input = Some(t.input);
            if alphabet.index_of(t.input).is_none() {
                return Err(
                    self.corrupt(&format!("holds a key with {:?}, not a letter of the alphabet", t.input as char))
                );
            }
            // Each key's value is its rank: the transitions' outputs count
            // the keys before them in this node.
            if t.output != top.keys {
                return Err(self.corrupt("has values that are not the keys' ranks"));
            }
            if top.keys > self.len {
                return Err(self.corrupt(&format!("holds more keys than the {} it states", self.len)));
            }
            if let Some(&(keys, height)) = done.get(&t.target) {
                top.keys = top.keys.checked_add(keys).ok_or_else(|| self.corrupt("holds too many keys"))?;
                top.height = top.height.max(height + 1);
            } else if stack.len() > MAX_KEY_LEN {
                return Err(self.corrupt(&format!("holds a key longer than {MAX_KEY_LEN} bytes")));
            } else {
                let node = self.node(t.target)?;
                stack.push(start(t.target, node)?);
            }
        }
        Ok(())
    }

    /// Decodes the node at `addr`, its bytes checked against their blocks'
    /// checksums (a damaged byte may first make the decoding fail: an
    /// error either way).
    #[inline]
    fn node(&self, addr: usize) -> Result<Node> {
        self.node_checked(addr, |part| check(self.lazy, part))
    }

    /// [`FstMap::node`], its check two compares where the node lies in
    /// the block `last` checked: a walk meets many nodes near each other
    /// (in process, `anagram 'retain??' --sub` 707 to 690 us, a two-word
    /// box 337 to 336 us, one binary alternating).
    #[inline]
    fn node_near(&self, addr: usize, last: &mut LastBlock) -> Result<Node> {
        self.node_checked(addr, |part| last.check(self.lazy, part))
    }

    /// Decodes the node at `addr`, its bytes checked by `check_node`.
    #[inline(always)]
    fn node_checked(&self, addr: usize, check_node: impl FnOnce(&[u8]) -> Result<()>) -> Result<Node> {
        match self.decode(addr) {
            Ok((node, first)) => {
                if self.lazy.is_some() && addr != EMPTY_ADDRESS {
                    check_node(self.nodes.get(first..=addr).unwrap_or_default())?;
                }
                Ok(node)
            }
            // Damage that made the decoding fail is named as damage.
            Err(e) => {
                check(self.lazy, self.nodes.get(addr.saturating_sub(8)..=addr).unwrap_or_default())?;
                Err(e)
            }
        }
    }

    /// Decodes the node at `addr`, and gives the address of its first byte.
    fn decode(&self, addr: usize) -> Result<(Node, usize)> {
        if addr == EMPTY_ADDRESS {
            return Ok((Node::EMPTY_FINAL, EMPTY_ADDRESS));
        }
        let d = self.nodes;
        let out_of_bounds = || self.out_of_bounds();
        let state = *d.get(addr).filter(|_| addr >= HEADER_LEN).ok_or_else(out_of_bounds)?;
        let common = |code: u8| (code != 0).then(|| COMMON_INPUTS[code as usize - 1]);
        match state >> 6 {
            0b11 => {
                let (input, first) = match common(state & 0x3f) {
                    Some(input) => (input, addr),
                    None => (self.byte(self.below(addr, 1)?)?, self.below(addr, 1)?),
                };
                let target = self.below(first, 1)?;
                let node = Node {
                    kind: Kind::One(Transition { input, output: 0, target }),
                    is_final: false,
                    final_output: 0,
                    ntrans: 1,
                };
                Ok((node, first))
            }
            0b10 => {
                let (input, sizes_at) = match common(state & 0x3f) {
                    Some(input) => (input, self.below(addr, 1)?),
                    None => (self.byte(self.below(addr, 1)?)?, self.below(addr, 2)?),
                };
                let (addr_size, out_size) = self.sizes(self.byte(sizes_at)?)?;
                let delta_at = self.below(sizes_at, addr_size)?;
                let first = self.below(delta_at, out_size)?;
                let delta = read_uint(d, delta_at, addr_size).ok_or_else(out_of_bounds)?;
                let output = read_uint(d, first, out_size).ok_or_else(out_of_bounds)?;
                let target = self.target(first, delta)?;
                let node = Node {
                    kind: Kind::One(Transition { input, output, target }),
                    is_final: false,
                    final_output: 0,
                    ntrans: 1,
                };
                Ok((node, first))
            }
            _ => {
                let is_final = state & 0x40 != 0;
                let (ntrans, sizes_at) = match state & 0x3f {
                    0 => match self.byte(self.below(addr, 1)?)? {
                        1 => (256, self.below(addr, 2)?),
                        n => (n as usize, self.below(addr, 2)?),
                    },
                    n => (n as usize, self.below(addr, 1)?),
                };
                let (addr_size, out_size) = self.sizes(self.byte(sizes_at)?)?;
                let index_len = if ntrans > TRANS_INDEX_THRESHOLD { 256 } else { 0 };
                let inputs_end = self.below(sizes_at, index_len)?;
                let deltas_end = self.below(inputs_end, ntrans)?;
                let outputs_end = self.below(deltas_end, ntrans * addr_size)?;
                let first =
                    self.below(self.below(outputs_end, ntrans * out_size)?, if is_final { out_size } else { 0 })?;
                let final_output = if is_final { read_uint(d, first, out_size).ok_or_else(out_of_bounds)? } else { 0 };
                let index_at = (index_len > 0).then_some(inputs_end);
                let node = Node {
                    kind: Kind::Any { first, inputs_end, deltas_end, addr_size, outputs_end, out_size, index_at },
                    is_final,
                    final_output,
                    ntrans,
                };
                Ok((node, first))
            }
        }
    }

    /// `n` bytes below `at`, still among the nodes. A method, not a
    /// closure: it is a few instructions, called up to six times a node,
    /// and as a closure it was not inlined (a call each: 6% of a two-word
    /// Letter Boxed solve's instructions).
    #[inline(always)]
    fn below(&self, at: usize, n: usize) -> Result<usize> {
        match at.checked_sub(n) {
            Some(p) if p >= HEADER_LEN => Ok(p),
            _ => Err(self.out_of_bounds()),
        }
    }

    /// The byte at `at`, in bounds.
    #[inline(always)]
    fn byte(&self, at: usize) -> Result<u8> {
        self.nodes.get(at).copied().ok_or_else(|| self.out_of_bounds())
    }

    #[cold]
    fn out_of_bounds(&self) -> Error {
        self.corrupt("has a node out of bounds")
    }

    fn sizes(&self, byte: u8) -> Result<(usize, usize)> {
        let (addr_size, out_size) = ((byte >> 4) as usize, (byte & 0xf) as usize);
        if addr_size > 8 || out_size > 8 {
            return Err(self.corrupt("has a node with a bad size byte"));
        }
        Ok((addr_size, out_size))
    }

    /// A transition's target: `delta` bytes before its node's first byte,
    /// so always before the node, never before the nodes begin.
    fn target(&self, first: usize, delta: u64) -> Result<usize> {
        if delta == 0 {
            return Ok(EMPTY_ADDRESS);
        }
        usize::try_from(delta)
            .ok()
            .and_then(|delta| first.checked_sub(delta))
            .filter(|&t| t >= HEADER_LEN)
            .ok_or_else(|| self.corrupt("has a transition out of bounds"))
    }

    /// Transition `i` of a node (`i < ntrans`).
    fn transition(&self, node: &Node, i: usize) -> Result<Transition> {
        match node.kind {
            Kind::One(t) => Ok(t),
            Kind::Any { first, inputs_end, deltas_end, addr_size, outputs_end, out_size, .. } => {
                let d = self.nodes;
                let out_of_bounds = || self.out_of_bounds();
                let input = *d.get(inputs_end - 1 - i).ok_or_else(out_of_bounds)?;
                let delta = read_uint(d, deltas_end - (i + 1) * addr_size, addr_size).ok_or_else(out_of_bounds)?;
                let output = read_uint(d, outputs_end - (i + 1) * out_size, out_size).ok_or_else(out_of_bounds)?;
                Ok(Transition { input, output, target: self.target(first, delta)? })
            }
        }
    }

    /// The input byte of transition `i` of a node (`i < ntrans`), without
    /// decoding the rest of it.
    #[inline]
    fn input_of(&self, node: &Node, i: usize) -> Result<u8> {
        match node.kind {
            Kind::One(t) => Ok(t.input),
            Kind::Any { inputs_end, .. } => inputs_end
                .checked_sub(1 + i)
                .and_then(|at| self.nodes.get(at))
                .copied()
                .ok_or_else(|| self.out_of_bounds()),
        }
    }

    /// The output of transition `i` of a node (`i < ntrans`), without
    /// decoding the rest of it.
    #[inline]
    fn output_of(&self, node: &Node, i: usize) -> Result<u64> {
        match node.kind {
            Kind::One(t) => Ok(t.output),
            Kind::Any { outputs_end, out_size, .. } => {
                read_uint(self.nodes, outputs_end - (i + 1) * out_size, out_size).ok_or_else(|| self.out_of_bounds())
            }
        }
    }

    /// The transition on `input`, if the node has one.
    fn find(&self, node: &Node, input: u8) -> Result<Option<Transition>> {
        match node.kind {
            Kind::One(t) => Ok((t.input == input).then_some(t)),
            Kind::Any { index_at: Some(at), .. } => {
                let i = *self.nodes.get(at + input as usize).ok_or_else(|| self.out_of_bounds())?;
                if i as usize >= node.ntrans {
                    return Ok(None);
                }
                let t = self.transition(node, i as usize)?;
                Ok((t.input == input).then_some(t))
            }
            Kind::Any { inputs_end, .. } => {
                let inputs = self.nodes.get(inputs_end - node.ntrans..inputs_end).unwrap_or_default();
                match inputs.iter().rposition(|&b| b == input) {
                    Some(p) => self.transition(node, node.ntrans - 1 - p).map(Some),
                    None => Ok(None),
                }
            }
        }
    }
}

/// `n` bytes (at most 8) at `at`, little-endian.
#[inline]
fn read_uint(bytes: &[u8], at: usize, n: usize) -> Option<u64> {
    let raw = bytes.get(at..at.checked_add(n)?)?;
    // One 8-byte load, masked, where 8 bytes follow (nearly always); in
    // WebAssembly, where size counts more, byte by byte.
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(word) = at.checked_add(8).and_then(|end| bytes.get(at..end)).filter(|_| n <= 8) {
        let value = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        return Some(if n == 8 { value } else { value & ((1u64 << (8 * n)) - 1) });
    }
    Some(raw.iter().rev().fold(0u64, |v, &b| v << 8 | b as u64))
}

/// A deterministic automaton over bytes, run against a map's keys by
/// [`FstMap::search`].
pub trait Automaton {
    /// The automaton's state.
    type State: Clone;
    /// The state before any byte.
    fn start(&self) -> Self::State;
    /// True when a key ending in this state matches.
    fn is_match(&self, state: &Self::State) -> bool;
    /// False when no key going through this state can match: the search
    /// does not go below it.
    fn can_match(&self, state: &Self::State) -> bool;
    /// The state after `byte`.
    fn accept(&self, state: &Self::State, byte: u8) -> Self::State;

    /// A key for `state` under which a search may remember that a node
    /// reached in it leads to no match (an FST shares the nodes of common
    /// suffixes, so a walk under `*` meets the same node in the same state
    /// along many paths: `*ly` tries each word's ending once a node, not
    /// once a word). `None`, the default: nothing remembered.
    fn memo_key(&self, _state: &Self::State) -> Option<(u64, u64)> {
        None
    }
}

/// Every key: a walk of the whole FST.
#[derive(Clone, Copy, Debug)]
pub struct Everything;

impl Automaton for Everything {
    type State = ();

    fn start(&self) {}

    fn is_match(&self, _: &()) -> bool {
        true
    }

    fn can_match(&self, _: &()) -> bool {
        true
    }

    fn accept(&self, _: &(), _: u8) {}
}

/// The keys that start with some bytes: a walk of the FST below them.
#[derive(Clone, Copy, Debug)]
pub struct StartsWith<'a>(pub &'a [u8]);

impl Automaton for StartsWith<'_> {
    /// How many of the bytes the key has matched so far; `None` once it
    /// has left them.
    type State = Option<usize>;

    fn start(&self) -> Option<usize> {
        Some(0)
    }

    fn is_match(&self, state: &Option<usize>) -> bool {
        *state == Some(self.0.len())
    }

    fn can_match(&self, state: &Option<usize>) -> bool {
        state.is_some()
    }

    fn accept(&self, state: &Option<usize>, byte: u8) -> Option<usize> {
        match *state {
            Some(n) if n == self.0.len() => Some(n),
            Some(n) if self.0.get(n) == Some(&byte) => Some(n + 1),
            _ => None,
        }
    }
}

/// The most nodes a search remembers as leading nowhere (in a state):
/// 24 bytes each and the table's overhead, some 14 MB at most.
const MAX_DEAD_PAIRS: usize = 1 << 19;

/// One node on a search's path.
struct Frame<S> {
    node: Node,
    /// The next transition to follow.
    next: usize,
    state: S,
    output: u64,
    /// The node's address and state key, when the automaton gives one.
    memo: Option<(usize, (u64, u64))>,
    /// Matches found before the node: none more when it is left means
    /// it leads nowhere in this state.
    found_before: u64,
}

/// The matches of an automaton over a map, in key order; see
/// [`FstMap::search`] for its bounds.
pub struct Search<'a, A: Automaton> {
    map: FstMap<'a>,
    aut: A,
    stack: Vec<Frame<A::State>>,
    /// (node, state key) pairs known to lead to no match.
    /// Per node, a state key it was found to lead nowhere in (one a
    /// node: a cache, which forgets but is never wrong).
    dead: IntMap<usize, (u64, usize)>,
    key: Vec<u8>,
    /// Transitions the stated key count allows still.
    budget: u64,
    /// Transitions followed, up to [`MAX_WALK_STEPS`].
    steps: u64,
    found: u64,
    started: bool,
    /// The block of nodes checked last (see [`FstMap::node_near`]).
    last: LastBlock,
}

impl<A: Automaton> Search<'_, A> {
    /// The next matching key and its value, or `None` after the last.
    #[allow(clippy::should_implement_trait)] // the key borrows the search
    pub fn next(&mut self) -> Result<Option<(&[u8], u64)>> {
        if !self.started {
            self.started = true;
            let root = self.map.node(self.map.root)?;
            let state = self.aut.start();
            if !self.aut.can_match(&state) {
                return Ok(None);
            }
            let matched = root.is_final && self.aut.is_match(&state);
            let memo = self.aut.memo_key(&state).map(|k| (self.map.root, k));
            self.stack.push(Frame { node: root, next: 0, state, output: 0, memo, found_before: 0 });
            if matched {
                return self.found(root.final_output);
            }
        }
        while let Some(top) = self.stack.last_mut() {
            if top.next == top.node.ntrans {
                if let Some((addr, (a, b))) = top.memo.filter(|_| top.found_before == self.found) {
                    if self.dead.len() < MAX_DEAD_PAIRS {
                        self.dead.insert(addr, (a, b as usize));
                    }
                }
                self.stack.pop();
                self.key.pop();
                continue;
            }
            // The input alone first: most transitions lead where the
            // automaton cannot match, and need no more of them decoded.
            let i = top.next;
            top.next += 1;
            let state = self.aut.accept(&top.state, self.map.input_of(&top.node, i)?);
            if self.budget == 0 {
                return Err(self.too_many());
            }
            self.budget -= 1;
            self.steps += 1;
            if self.steps > MAX_WALK_STEPS {
                return Err(too_long_a_walk());
            }
            if !self.aut.can_match(&state) {
                continue;
            }
            let t = self.map.transition(&top.node, i)?;
            let output = top.output.wrapping_add(t.output);
            if self.key.len() == MAX_KEY_LEN {
                return Err(self.map.corrupt(&format!("holds a key longer than {MAX_KEY_LEN} bytes")));
            }
            let memo = self.aut.memo_key(&state).map(|k| (t.target, k));
            if memo.is_some_and(|(addr, (a, b))| self.dead.get(&addr) == Some(&(a, b as usize))) {
                continue;
            }
            let node = self.map.node_near(t.target, &mut self.last)?;
            self.key.push(t.input);
            let matched = node.is_final && self.aut.is_match(&state);
            self.stack.push(Frame { node, next: 0, state, output, memo, found_before: self.found });
            if matched {
                return self.found(output.wrapping_add(node.final_output));
            }
        }
        Ok(None)
    }

    fn found(&mut self, value: u64) -> Result<Option<(&[u8], u64)>> {
        self.found += 1;
        if self.found > self.map.len {
            return Err(self.too_many());
        }
        Ok(Some((&self.key, value)))
    }

    fn too_many(&self) -> Error {
        self.map.corrupt(&format!("encodes more keys than the {} it states", self.map.len))
    }
}

/// The error of a search that reached [`MAX_WALK_STEPS`].
fn too_long_a_walk() -> Error {
    Error::new(crate::ErrorKind::Limit(format!(
        "too large: the question walks more than {MAX_WALK_STEPS} steps through the index's words (the limit of one search); narrow it"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::fst::Streamer;

    /// An automaton that goes everywhere and matches every key or none.
    struct Everywhere(bool);
    const ALL: Everywhere = Everywhere(true);
    const NEVER: Everywhere = Everywhere(false);
    impl Automaton for Everywhere {
        type State = ();
        fn start(&self) {}
        fn is_match(&self, _: &()) -> bool {
            self.0
        }
        fn can_match(&self, _: &()) -> bool {
            true
        }
        fn accept(&self, _: &(), _: u8) {}
    }

    fn crate_map(keys: &[Vec<u8>], rank: bool) -> Vec<u8> {
        let mut b = ::fst::MapBuilder::memory();
        for (i, k) in keys.iter().enumerate() {
            b.insert(k, if rank { i as u64 } else { (i as u64 * 7919) % 1000 }).unwrap();
        }
        b.into_inner().unwrap()
    }

    fn all(map: &FstMap, aut: impl Automaton) -> Result<Vec<(Vec<u8>, u64)>> {
        let mut search = map.search(aut);
        let mut out = Vec::new();
        while let Some((k, v)) = search.next()? {
            out.push((k.to_vec(), v));
        }
        Ok(out)
    }

    fn random_keys(rng: &mut crate::rng::SplitMix64, round: usize) -> Vec<Vec<u8>> {
        let count = if round % 10 == 0 { 400 } else { rng.below(60) as usize };
        let (letters, max_len) = if round % 3 == 0 { (3, 9) } else { (26, 7) };
        let mut keys: Vec<Vec<u8>> =
            (0..count).map(|_| (0..rng.below(max_len)).map(|_| b'a' + rng.below(letters) as u8).collect()).collect();
        if round % 5 == 0 {
            // Nodes with more transitions than the index threshold.
            keys.extend((0..=255u8).filter(|b| b.is_ascii_alphanumeric()).map(|b| vec![b'q', b]));
        }
        keys.sort();
        keys.dedup();
        keys
    }

    #[test]
    fn reads_what_the_fst_crate_reads() {
        let mut rng = crate::rng::SplitMix64::new(11);
        for round in 0..300 {
            let keys = random_keys(&mut rng, round);
            let rank = round % 2 == 0;
            let bytes = crate_map(&keys, rank);
            let theirs = ::fst::Map::new(bytes.clone()).unwrap();
            let ours = FstMap::new(&bytes, SectionId::Words).unwrap();
            assert_eq!(ours.len(), theirs.len());
            let mut want = Vec::new();
            let mut stream = theirs.stream();
            while let Some((k, v)) = stream.next() {
                want.push((k.to_vec(), v));
            }
            assert_eq!(all(&ours, ALL).unwrap(), want, "round {round}");
            for probe in keys.iter().take(20).chain([&b"zzz".to_vec(), &b"".to_vec(), &b"qa".to_vec()]) {
                assert_eq!(ours.get(probe).unwrap(), theirs.get(probe), "round {round} {probe:?}");
                let prefix = &probe[..probe.len().min(2)];
                let want: Vec<_> = want.iter().filter(|(k, _)| k.starts_with(prefix)).cloned().collect();
                assert_eq!(all(&ours, StartsWith(prefix)).unwrap(), want);
            }
            if rank {
                let alphabet = Alphabet::new("abcdefghijklmnopqrstuvwxyz").unwrap();
                let mut key = Vec::new();
                for (i, k) in keys.iter().enumerate() {
                    assert!(ours.key_of(i as u64, &mut key).unwrap());
                    assert_eq!(&key, k);
                }
                assert!(!ours.key_of(keys.len() as u64, &mut key).unwrap());
                let plain = keys.iter().all(|k| alphabet.is_word(k) && !k.is_empty());
                assert_eq!(ours.check_rank_map(&alphabet).is_ok(), plain, "round {round}");
            } else if keys.len() > 1 && keys.iter().all(|k| !k.is_empty()) {
                let alphabet = Alphabet::new("abc").unwrap();
                let _ = ours.check_rank_map(&alphabet); // never panics
            }
        }
    }

    /// Writes an any-transitions node with 8-byte deltas and outputs;
    /// returns its address.
    fn any_node(out: &mut Vec<u8>, is_final: bool, transitions: &[(u8, u64, usize)]) -> usize {
        let first = out.len();
        if is_final {
            out.extend_from_slice(&0u64.to_le_bytes());
        }
        for &(_, output, _) in transitions.iter().rev() {
            out.extend_from_slice(&output.to_le_bytes());
        }
        for &(_, _, target) in transitions.iter().rev() {
            let delta = if target == EMPTY_ADDRESS { 0 } else { first.wrapping_sub(target) as u64 };
            out.extend_from_slice(&delta.to_le_bytes());
        }
        out.extend(transitions.iter().rev().map(|t| t.0));
        out.push(0x88);
        let state = if is_final { 0b0100_0000 } else { 0 };
        match transitions.len() {
            n @ 1..=63 => out.push(state | n as u8),
            n => out.extend_from_slice(&[n as u8, state]),
        }
        out.len() - 1
    }

    fn finish(mut out: Vec<u8>, len: u64, root: usize) -> Vec<u8> {
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(root as u64).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out
    }

    fn start() -> Vec<u8> {
        let mut out = VERSION.to_le_bytes().to_vec();
        out.extend_from_slice(&0u64.to_le_bytes());
        out
    }

    #[test]
    fn a_bomb_of_many_keys_stops_at_the_stated_count() {
        // 48 levels of two transitions to the same node: 2^48 keys in
        // under 2 KB, stating 3.
        let mut out = start();
        let mut below = EMPTY_ADDRESS;
        for _ in 0..48 {
            below = any_node(&mut out, false, &[(b'a', 0, below), (b'b', 0, below)]);
        }
        let bytes = finish(out, 3, below);
        let map = FstMap::new(&bytes, SectionId::Words).unwrap();
        let err = all(&map, ALL).unwrap_err().to_string();
        assert!(err.contains("more keys than the 3 it states"), "{err}");
        let err = map.check_rank_map(&Alphabet::new("ab").unwrap()).unwrap_err().to_string();
        assert!(err.contains("ranks") || err.contains("more keys"), "{err}");
        // A search that never matches is bounded by the same budget.
        assert!(all(&map, NEVER).unwrap_err().to_string().contains("more keys"));
    }

    #[test]
    fn a_walk_stops_at_its_step_limit_whatever_the_count() {
        // The same bomb, stating as many keys as the format allows: the
        // walk stops at MAX_WALK_STEPS, with a limit error, not damage.
        let mut out = start();
        let mut below = EMPTY_ADDRESS;
        for _ in 0..48 {
            below = any_node(&mut out, false, &[(b'a', 0, below), (b'b', 0, below)]);
        }
        let bytes = finish(out, u64::from(u32::MAX), below);
        let map = FstMap::new(&bytes, SectionId::Words).unwrap();
        let mut search = map.search(NEVER);
        let err = loop {
            match search.next() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("the walk ended"),
                Err(e) => break e,
            }
        };
        assert!(matches!(err.kind(), crate::ErrorKind::Limit(m) if m.starts_with("too large")), "{err}");
        assert_eq!(search.steps, MAX_WALK_STEPS + 1);
    }

    #[test]
    fn addresses_out_of_bounds_are_errors() {
        // The root past the nodes.
        let bytes = finish(start(), 0, 500);
        assert!(FstMap::new(&bytes, SectionId::Words).unwrap_err().to_string().contains("root outside"));
        // A transition whose delta reaches before the nodes, or wraps.
        for delta_target in [3usize, usize::MAX - 5] {
            let mut out = start();
            let root = any_node(&mut out, false, &[(b'a', 0, delta_target)]);
            let bytes = finish(out, 1, root);
            let map = FstMap::new(&bytes, SectionId::Words).unwrap();
            assert!(map.get(b"a").is_err());
            assert!(all(&map, ALL).is_err());
            assert!(map.key_of(0, &mut Vec::new()).is_err());
            assert!(map.check_rank_map(&Alphabet::new("a").unwrap()).is_err());
        }
        // A state byte whose arrays would start before the nodes.
        let mut out = start();
        out.extend_from_slice(&[0x88, 60, 0]);
        let root = out.len() - 1;
        let bytes = finish(out, 1, root);
        assert!(FstMap::new(&bytes, SectionId::Words).unwrap().get(b"a").is_err());
        // Sizes over 8 bytes.
        let mut out = start();
        out.extend_from_slice(&[0, 0xf9, 1, 0]);
        let root = out.len() - 1;
        let bytes = finish(out, 1, root);
        assert!(FstMap::new(&bytes, SectionId::Words)
            .unwrap()
            .get(b"a")
            .unwrap_err()
            .to_string()
            .contains("size byte"));
    }

    #[test]
    fn the_walk_checks_counts_letters_order_and_dead_ends() {
        let alphabet = Alphabet::new("abc").unwrap();
        let check = |out: Vec<u8>, len: u64, root: usize| {
            let bytes = finish(out, len, root);
            FstMap::new(&bytes, SectionId::Words).unwrap().check_rank_map(&alphabet).map_err(|e| e.to_string())
        };
        // a, b: fine; stating 3 is not.
        let mut out = start();
        let root = any_node(&mut out, false, &[(b'a', 0, EMPTY_ADDRESS), (b'b', 1, EMPTY_ADDRESS)]);
        assert_eq!(check(out.clone(), 2, root), Ok(()));
        assert!(check(out, 3, root).unwrap_err().contains("holds 2 keys but states 3"));
        // Out of order, off the alphabet, not ranks.
        for (transitions, want) in [
            (vec![(b'b', 0, EMPTY_ADDRESS), (b'a', 1, EMPTY_ADDRESS)], "out of order"),
            (vec![(b'a', 0, EMPTY_ADDRESS), (b'z', 1, EMPTY_ADDRESS)], "not a letter"),
            (vec![(b'a', 0, EMPTY_ADDRESS), (b'b', 5, EMPTY_ADDRESS)], "ranks"),
        ] {
            let mut out = start();
            let root = any_node(&mut out, false, &transitions);
            assert!(check(out, 2, root).unwrap_err().contains(want), "{want}");
        }
        // A node that leads nowhere.
        let mut out = start();
        let dead = any_node(&mut out, false, &[]);
        let root = any_node(&mut out, false, &[(b'a', 0, EMPTY_ADDRESS), (b'b', 1, dead)]);
        assert!(check(out, 1, root).unwrap_err().contains("leads to no key"));
        // A key longer than any word.
        let mut out = start();
        let mut below = EMPTY_ADDRESS;
        for _ in 0..=MAX_KEY_LEN {
            below = any_node(&mut out, false, &[(b'a', 0, below)]);
        }
        let bytes = finish(out, 1, below);
        let map = FstMap::new(&bytes, SectionId::Words).unwrap();
        let err = map.check_rank_map(&alphabet).unwrap_err().to_string();
        assert!(err.contains("longer than"), "{err}");
        assert!(all(&map, ALL).unwrap_err().to_string().contains("longer than"));
        assert!(map.key_of(0, &mut Vec::new()).unwrap_err().to_string().contains("longer than"));
    }

    #[test]
    fn never_panics_on_random_bytes() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let keys: Vec<Vec<u8>> = ["ab", "abc", "b", "ca", "cab"].iter().map(|k| k.as_bytes().to_vec()).collect();
        let good = crate_map(&keys, true);
        let alphabet = Alphabet::new("abc").unwrap();
        for _ in 0..20_000 {
            let mut bytes = good.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() as u64) as usize;
                bytes[at] = rng.below(256) as u8;
            }
            if let Ok(map) = FstMap::new(&bytes, SectionId::Words) {
                let _ = map.get(b"cab");
                let _ = map.key_of(rng.below(6), &mut Vec::new());
                let _ = all(&map, ALL);
                let _ = map.check_rank_map(&alphabet);
            }
        }
    }
}
