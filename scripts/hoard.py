#!/usr/bin/env python3
"""A second reader of the wordhoard index format, written from its spec
(crates/query/FORMAT.md) alone, with Python's standard library.

    python3 scripts/hoard.py INDEX.hoard         # what `wordhoard info --json` prints

It checks what the spec says a reader checks before using a section (the
magic, the version, the header's CRC-32, each section's bounds, alignment,
padding and CRC-32), decodes the metadata, checks the word count against
the words FST's footer, walks the words and terms FSTs node by node to
count their keys (each node once), and prints the same JSON as `wordhoard
--index INDEX.hoard info --json`. A damaged file is one line on stderr and
exit 1.
"""

import json
import os
import stat
import struct
import sys
import zlib

MAGIC = b"\x89HOARD\r\n"
FORMAT_VERSION = 3
BLOCK_LEN = 1 << 16
MAX_SECTIONS = 256
MAX_METADATA_BYTES = 1 << 20
SECTION_NAMES = {
    1: "meta",
    2: "words",
    3: "common",
    4: "proper_nouns",
    5: "spellings",
    6: "word_text",
    7: "endings",
    9: "letter_groups",
    16: "lettersets",
    17: "honeycombs",
    18: "common_honeycombs",
    32: "terms",
    33: "chains",
}
FST_HEADER_LEN = 16
FST_FOOTER_LEN = 20


class BadIndex(Exception):
    """The file breaks a rule of the spec."""


def section_name(code):
    return SECTION_NAMES.get(code, "section-%d" % code)


def u32(data, at):
    if at + 4 > len(data):
        raise BadIndex("header is truncated")
    return struct.unpack_from("<I", data, at)[0]


def u64(data, at):
    if at + 8 > len(data):
        raise BadIndex("header is truncated")
    return struct.unpack_from("<Q", data, at)[0]


class IndexFile:
    """The index, read a range at a time (never whole: an index can be
    larger than the memory this reader should take)."""

    def __init__(self, f, size):
        self.f, self.size = f, size

    def read(self, offset, length):
        if offset + length > self.size:
            raise BadIndex("header is truncated")
        self.f.seek(offset)
        data = self.f.read(length)
        if len(data) != length:
            raise BadIndex("the file changed while it was read")
        return data

    def block_crcs(self, offset, length):
        """The CRC-32 of each BLOCK_LEN block of a range, and of the whole
        range, read a block at a time."""
        crcs, whole, done = [], 0, 0
        self.f.seek(offset)
        while done < length:
            block = self.f.read(min(BLOCK_LEN, length - done))
            if not block:
                raise BadIndex("the file changed while it was read")
            crcs.append(zlib.crc32(block))
            whole, done = zlib.crc32(block, whole), done + len(block)
        return crcs, whole


def read_header(index):
    """The section table: a list of (code, offset, length, crc), checked."""
    if index.size < 8 or index.read(0, 8) != MAGIC:
        raise BadIndex("not a wordhoard index (wrong magic bytes)")
    head = index.read(8, 8)
    version, count = u32(head, 0), u32(head, 4)
    if version < FORMAT_VERSION:
        raise BadIndex("index format %d is older than this reader reads (%d); rebuild it" % (version, FORMAT_VERSION))
    if version > FORMAT_VERSION:
        raise BadIndex("index format %d is newer than this reader reads (%d)" % (version, FORMAT_VERSION))
    if count > MAX_SECTIONS:
        raise BadIndex("section count %d is over %d" % (count, MAX_SECTIONS))
    table_end = 16 + 32 * count
    # The block count, bounded by the file's size before the table is read.
    blocks = u32(index.read(table_end, 4), 0)
    crcs_end = table_end + 4 + 4 * blocks
    data = index.read(0, crcs_end + 8)
    if zlib.crc32(data[:crcs_end]) != u32(data, crcs_end):
        raise BadIndex("header fails its checksum")
    if u32(data, crcs_end + 4) != 0:
        raise BadIndex("header's reserved field is not zero")
    block_crcs = struct.unpack_from("<%dI" % blocks, data, table_end + 4)
    header_end = crcs_end + 8
    sections = []
    for i in range(count):
        at = 16 + 32 * i
        code, offset, length, crc = u32(data, at), u64(data, at + 8), u64(data, at + 16), u32(data, at + 24)
        name = section_name(code)
        if offset % 8 or offset < header_end or offset + length > index.size:
            raise BadIndex("section `%s` is misplaced or ends past the end of the file" % name)
        sections.append((code, offset, length, crc))
    codes = [s[0] for s in sections]
    if len(set(codes)) != len(codes):
        raise BadIndex("a section appears twice")
    cursor = header_end
    for code, offset, length, _ in sorted(sections, key=lambda s: s[1]):
        if offset < cursor or offset - cursor >= 8 or index.read(cursor, offset - cursor).strip(b"\0"):
            raise BadIndex("section `%s` overlaps another or follows non-zero padding" % section_name(code))
        cursor = offset + length
    # At most the zero padding to the next multiple of 8 follows the last.
    if cursor + (-cursor % 8) < index.size or index.read(cursor, index.size - cursor).strip(b"\0"):
        raise BadIndex("the file has bytes after its last section")
    if sum(-(-length // BLOCK_LEN) for _, _, length, _ in sections) != blocks:
        raise BadIndex("header lists %d block checksums where its sections have another number of blocks" % blocks)
    first = 0
    for code, offset, length, crc in sections:
        crcs, whole = index.block_crcs(offset, length)
        if whole != crc or tuple(crcs) != block_crcs[first : first + len(crcs)]:
            raise BadIndex("section `%s` fails its checksum" % section_name(code))
        first += len(crcs)
    return version, sections


class Fields:
    """A cursor over the `meta` section's fields."""

    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, n, what):
        if self.at + n > len(self.data):
            raise BadIndex("section `meta` is truncated at %s" % what)
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def u64(self, what):
        return struct.unpack("<Q", self.take(8, what))[0]

    def u32(self, what):
        return struct.unpack("<I", self.take(4, what))[0]

    def string(self, what):
        raw = self.take(self.u32(what), what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadIndex("section `meta`: %s is not UTF-8" % what)

    def digest(self, what):
        return self.take(32, what).hex()

    def sources(self, what):
        count = self.u32(what)
        if count > (len(self.data) - self.at) // 36:
            raise BadIndex("section `meta`: %s %d is more than its bytes hold" % (what, count))
        return [{"name": self.string(what), "sha256": self.digest(what)} for _ in range(count)]


def read_meta(data):
    f = Fields(data)
    meta = {}
    for key in ("word_count", "lines_read", "lines_skipped", "common_count", "excluded_count", "built_at_unix"):
        meta[key] = f.u64(key)
    if meta["word_count"] > 0xFFFFFFFF:
        raise BadIndex("section `meta` states %d words; an index holds at most 4294967295" % meta["word_count"])
    meta["name"] = f.string("name")
    meta["alphabet"] = f.string("alphabet")
    folding = f.u32("the folding")
    if folding not in (0, 1):
        raise BadIndex("section `meta` has folding %d (0 or 1)" % folding)
    meta["fold_accents"] = folding == 1
    meta["kept_letters"] = f.string("the kept letters")
    meta["tool_version"] = f.string("tool_version")
    meta["sources"] = f.sources("the source count")
    if not meta["sources"]:
        raise BadIndex("section `meta` names no word list")
    meta["source_sha256"] = f.digest("the sources' digest")
    common = f.sources("the common list count")
    if len(common) > 1:
        raise BadIndex("section `meta` names %d common lists" % len(common))
    meta["common_source"] = common[0] if common else None
    meta["exclude_sources"] = f.sources("the exclusion list count")
    if f.at != len(data):
        raise BadIndex("section `meta` has bytes after its last field")
    return meta


def fst_key_count(index, offset, length):
    """The key count in an FST's footer (its header and footer only), its
    root checked to be 0 (the empty final node) or among its nodes."""
    if length < FST_HEADER_LEN + FST_FOOTER_LEN:
        raise BadIndex("the words FST is too short")
    version = u64(index.read(offset, 8), 0)
    if version != 3:
        raise BadIndex("the words FST has fst format version %d" % version)
    footer = length - FST_FOOTER_LEN
    tail = index.read(offset + footer, 16)
    root = u64(tail, 8)
    if root != 0 and not FST_HEADER_LEN <= root < footer:
        raise BadIndex("the words FST has its root outside its nodes")
    return u64(tail, 0)


COMMON_INPUTS = b"te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHG"
MAX_KEY_LEN = 255


class Fst:
    """An FST's nodes (FORMAT.md, "Nodes"), every read bounds-checked."""

    def __init__(self, data, what):
        self.what = what
        if len(data) < FST_HEADER_LEN + FST_FOOTER_LEN:
            raise self.bad("is too short to be an FST")
        if u64(data, 0) != 3:
            raise self.bad("has fst format version %d" % u64(data, 0))
        footer = len(data) - FST_FOOTER_LEN
        self.nodes = data[:footer]
        self.len, self.root = u64(data, footer), u64(data, footer + 8)
        if self.root != 0 and not FST_HEADER_LEN <= self.root < footer:
            raise self.bad("has its root outside its nodes")

    def bad(self, what):
        return BadIndex("%s %s" % (self.what, what))

    def below(self, at, n):
        if at - n < FST_HEADER_LEN:
            raise self.bad("has a node out of bounds")
        return at - n

    def byte(self, at):
        if not FST_HEADER_LEN <= at < len(self.nodes):
            raise self.bad("has a node out of bounds")
        return self.nodes[at]

    def uint(self, at, n):
        if at + n > len(self.nodes):
            raise self.bad("has a node out of bounds")
        return int.from_bytes(self.nodes[at:at + n], "little")

    def sizes(self, at):
        b = self.byte(at)
        if b >> 4 > 8 or b & 15 > 8:
            raise self.bad("has a node with a bad size byte")
        return b >> 4, b & 15

    def target(self, first, delta):
        if delta == 0:
            return 0
        if first - delta < FST_HEADER_LEN:
            raise self.bad("has a transition out of bounds")
        return first - delta

    def node(self, addr):
        """(is_final, final_output, [(input, output, target)...])."""
        if addr == 0:
            return True, 0, []
        state = self.byte(addr)
        code = state & 0x3F
        if state >> 6 == 0b11:
            if code:
                inp, first = COMMON_INPUTS[code - 1], addr
            else:
                first = self.below(addr, 1)
                inp = self.byte(first)
            return False, 0, [(inp, 0, self.below(first, 1))]
        if state >> 6 == 0b10:
            if code:
                inp, sizes_at = COMMON_INPUTS[code - 1], self.below(addr, 1)
            else:
                inp, sizes_at = self.byte(self.below(addr, 1)), self.below(addr, 2)
            asize, osize = self.sizes(sizes_at)
            delta_at = self.below(sizes_at, asize)
            first = self.below(delta_at, osize)
            delta, output = self.uint(delta_at, asize), self.uint(first, osize)
            return False, 0, [(inp, output, self.target(first, delta))]
        is_final = bool(state & 0x40)
        if code:
            n, sizes_at = code, self.below(addr, 1)
        else:
            n = self.byte(self.below(addr, 1))
            n, sizes_at = (256 if n == 1 else n), self.below(addr, 2)
        asize, osize = self.sizes(sizes_at)
        inputs_end = self.below(sizes_at, 256 if n > 32 else 0)
        deltas_end = self.below(inputs_end, n)
        outputs_end = self.below(deltas_end, n * asize)
        first = self.below(self.below(outputs_end, n * osize), osize if is_final else 0)
        final_output = self.uint(first, osize) if is_final else 0
        transitions = []
        for i in range(n):
            inp = self.byte(inputs_end - 1 - i)
            delta = self.uint(deltas_end - (i + 1) * asize, asize)
            output = self.uint(outputs_end - (i + 1) * osize, osize)
            transitions.append((inp, output, self.target(first, delta)))
        return is_final, final_output, transitions

    def count_keys(self, letter_codes):
        """Walks every node once and returns the key count, checking that
        the map is a rank map of words over the letters: each key's value
        its rank, inputs ascending and letters, no key longer than 255, no
        node that leads nowhere, no empty key."""
        done = {}
        is_final, final_output, transitions = self.node(self.root)
        if is_final:
            raise self.bad("holds the empty word")
        # Frames: [address, transitions, next, keys so far, height].
        stack = [[self.root, transitions, 0, 0, 0]]
        while stack:
            top = stack[-1]
            addr, transitions, i, keys, height = top
            if i == len(transitions):
                stack.pop()
                done[addr] = (keys, height)
                if stack:
                    stack[-1][3] += keys
                    stack[-1][4] = max(stack[-1][4], height + 1)
                continue
            inp, output, target = transitions[i]
            top[2] += 1
            if i and inp <= transitions[i - 1][0]:
                raise self.bad("has transitions out of order")
            if inp not in letter_codes:
                raise self.bad("holds a key with a byte that is not a letter of the alphabet")
            if output != keys:
                raise self.bad("has values that are not the keys' ranks")
            if keys > self.len:
                raise self.bad("holds more keys than the %d it states" % self.len)
            if target in done:
                below, h = done[target]
                top[3] += below
                top[4] = max(height, h + 1)
            elif len(stack) > MAX_KEY_LEN:
                raise self.bad("holds a key longer than %d bytes" % MAX_KEY_LEN)
            else:
                is_final, final_output, transitions = self.node(target)
                if is_final and final_output != 0:
                    raise self.bad("has a final output where a rank map has none")
                if not is_final and not transitions:
                    raise self.bad("has a node that leads to no key")
                stack.append([target, transitions, 0, 1 if is_final else 0, 0])
        keys = done[self.root][0]
        if keys != self.len:
            raise self.bad("holds %d keys but states %d" % (keys, self.len))
        return keys


def letter_codes(alphabet):
    """The byte of each letter: ASCII as itself, the k-th letter past
    ASCII as 0x80 + k."""
    codes, k = set(), 0
    for c in alphabet:
        if ord(c) < 0x80:
            codes.add(ord(c))
        else:
            codes.add(0x80 + k)
            k += 1
    return codes


def column_bytes(section, column, name):
    """Column `column` of a column table, its bounds checked."""
    if len(section) < 8:
        raise BadIndex("section `%s` is truncated" % name)
    count = u32(section, 0)
    entries_end = 8 + 16 * count
    if entries_end > len(section):
        raise BadIndex("section `%s` has a bad column count" % name)
    for i in range(count):
        offset, length = u64(section, 8 + 16 * i), u64(section, 16 + 16 * i)
        if offset % 8 or offset < entries_end or offset + length > len(section):
            raise BadIndex("section `%s` column %d is out of bounds" % (name, i))
    if column >= count:
        raise BadIndex("section `%s` lacks column %d" % (name, column))
    offset, length = u64(section, 8 + 16 * column), u64(section, 16 + 16 * column)
    return section[offset:offset + length]


def read_proper_nouns(section):
    """The `proper_nouns` section: a column table whose column 0 is
    u64[4] = policy (1 skipped, 2 kept), auto (0 or 1), capitalised, words."""
    def bad(what):
        return BadIndex("section `proper_nouns` %s" % what)
    if len(section) < 8:
        raise bad("is truncated")
    count = u32(section, 0)
    entries_end = 8 + 16 * count
    if entries_end > len(section):
        raise bad("has a bad column count")
    for i in range(count):
        offset, length = u64(section, 8 + 16 * i), u64(section, 16 + 16 * i)
        if offset % 8 or offset < entries_end or offset + length > len(section):
            raise bad("column %d is out of bounds" % i)
    if count < 1:
        raise bad("lacks column 0")
    offset, length = u64(section, 8), u64(section, 16)
    if length % 8:
        raise bad("column 0 is not u64s")
    if length != 32:
        raise bad("does not hold 4 numbers")
    policy, auto, capitalised, words = struct.unpack_from("<4Q", section, offset)
    if policy not in (1, 2):
        raise bad("has a policy other than 1 (skipped) or 2 (kept)")
    if auto not in (0, 1):
        raise bad("has an auto flag other than 0 or 1")
    if capitalised > words:
        raise bad("counts more capitalised words than words")
    return {"policy": "skip" if policy == 1 else "keep", "auto": auto == 1, "capitalised": capitalised, "words": words}


def iso_utc(unix_secs):
    """Unix seconds as ISO 8601 UTC: 2026-11-23T18:50:45Z, for any year (Howard
    Hinnant's civil_from_days, as wordhoard computes it)."""
    days, secs = divmod(unix_secs, 86400)
    z = days + 719468
    era, doe = divmod(z, 146097)
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (1 if m <= 2 else 0)
    return "%04d-%02d-%02dT%02d:%02d:%02dZ" % (y, m, d, secs // 3600, secs % 3600 // 60, secs % 60)


def info(path):
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        raise BadIndex("it is a directory, not an index file")
    if not stat.S_ISREG(mode):
        # A FIFO would block this reader; a device would never end.
        raise BadIndex("it is not a regular file (a FIFO, a device or a socket), not an index file")
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        return describe(path, IndexFile(f, size))


def describe(path, index):
    version, sections = read_header(index)
    by_name = {section_name(code): (offset, length) for code, offset, length, _ in sections}
    for required in ("meta", "words"):
        if required not in by_name:
            raise BadIndex("index has no `%s` section" % required)
    offset, length = by_name["meta"]
    if length > MAX_METADATA_BYTES:
        raise BadIndex("section `meta` is over 1 MiB")
    meta = read_meta(index.read(offset, length))
    proper_nouns = None
    if "proper_nouns" in by_name:
        offset, length = by_name["proper_nouns"]
        if length > MAX_METADATA_BYTES:
            raise BadIndex("section `proper_nouns` does not hold 4 numbers")
        proper_nouns = read_proper_nouns(index.read(offset, length))
    offset, length = by_name["words"]
    if fst_key_count(index, offset, length) != meta["word_count"]:
        raise BadIndex("the words FST and the metadata disagree on the word count")
    # Both FSTs walked: the count each states is the count it holds.
    codes = letter_codes(meta["alphabet"])
    Fst(index.read(offset, length), "the words FST").count_keys(codes)
    if "terms" in by_name:
        offset, length = by_name["terms"]
        terms = Fst(column_bytes(index.read(offset, length), 0, "terms"), "the terms FST")
        if terms.len > 0xFFFFFFFF:
            raise BadIndex("section `terms` states more terms than term ids (32 bits) address")
        terms.count_keys(codes)
    return {
        "path": path,
        "format_version": version,
        "name": meta["name"],
        "words": meta["word_count"],
        "alphabet": meta["alphabet"],
        "fold": "accents" if meta["fold_accents"] else "none",
        "keep": meta["kept_letters"],
        "proper_nouns": proper_nouns,
        "sources": meta["sources"],
        "source_sha256": meta["source_sha256"],
        "lines_read": meta["lines_read"],
        "lines_skipped": meta["lines_skipped"],
        "common_source": meta["common_source"],
        "common_words": meta["common_count"],
        "excluded_words": meta["excluded_count"],
        "exclude_sources": meta["exclude_sources"],
        "tool_version": meta["tool_version"],
        "built_at": iso_utc(meta["built_at_unix"]),
        "built_at_unix": meta["built_at_unix"],
        "bytes": index.size,
        "sections": [
            {"name": section_name(code), "offset": offset, "bytes": length, "crc32": "%08x" % crc}
            for code, offset, length, crc in sections
        ],
    }


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write("usage: hoard.py INDEX.hoard\n")
        return 2
    try:
        out = info(argv[1])
    except OSError as e:
        sys.stderr.write("hoard.py: error: cannot read %s: %s\n" % (argv[1], e.strerror or e))
        return 1
    except BadIndex as e:
        sys.stderr.write("hoard.py: error: %s: %s\n" % (argv[1], e))
        return 1
    sys.stdout.write(json.dumps(out, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
