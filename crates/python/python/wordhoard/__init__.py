"""wordhoard: word-puzzle answers from a prebuilt index file.

An index is compiled once from a word list (``wordhoard.build`` or the
``wordhoard build`` command) into one file of FSTs and tables; questions are
then answered from a memory map of that file, without reading text again.

    >>> import wordhoard
    >>> idx = wordhoard.open("enable1")            # a NAME in the index folder, or a path
    >>> idx.bee.solve("aeginrt", center="r")["score"]
    >>> idx.boxed.solve("riu pgh lcs yao")["count"]
    >>> idx.anigram.unscramble("deir")["words"]
    >>> idx.find("c?t", limit=0)["words"]

Every method mirrors a command of the ``wordhoard`` CLI: its keyword
arguments are the command's long flags with ``-`` turned into ``_``
(``max_words=3``, ``common_only=True``, ``limit=0``), and it returns the dict
the CLI prints with ``--json`` for the same command and flags, key for key.
An argument left as ``None`` takes the CLI's default. ``limit=0`` and
``top=0`` list everything.

Errors are exceptions with the CLI's message: ``UsageError`` (a
``ValueError``) for bad letters and options, ``BadIndexError`` for a damaged
or hostile file, ``LimitError`` for a search past its bounds, and ``OSError``
subclasses (``FileNotFoundError``, ...) for files. A query is answered
without the GIL, so threads sharing one ``Index`` search in parallel; its
dicts are made with the GIL held, one thread at a time.
"""

from __future__ import annotations

import builtins as _builtins
import os as _os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Union

from . import _native

__version__: str = _native.__version__

__all__ = [
    "Anigram",
    "BadIndexError",
    "Bee",
    "Boxed",
    "Index",
    "LimitError",
    "UsageError",
    "WordhoardError",
    "build",
    "index_folder",
    "open",
]


class WordhoardError(Exception):
    """The base of wordhoard's own exceptions."""


class UsageError(WordhoardError, ValueError):
    """Bad input: letters not in the index's alphabet, an unknown or
    out-of-range option. The CLI exits 2 for these.

    ``param`` names the argument at fault (``"max_words"``), or is None
    when no one argument is."""

    param: Optional[str] = None


class BadIndexError(WordhoardError):
    """The index file is damaged, hostile, or not an index: rebuild it."""


class LimitError(WordhoardError):
    """The question would take more time or memory than a query may; the
    message says how to narrow it."""


_native._register_errors(WordhoardError, UsageError, BadIndexError, LimitError)

Json = Dict[str, Any]
PathLike = Union[str, "_os.PathLike[str]"]


def open(name_or_path: Optional[PathLike] = None, *, mmap: bool = True) -> "Index":
    """Opens an index the way the CLI's ``--index`` does: a NAME (no ``/``, no
    ``.hoard``) is ``NAME.hoard`` in the index folder (``$WORDHOARD_HOME``,
    else the platform's data folder); anything else is a path. With no
    argument: ``$WORDHOARD_INDEX``, else ``enable1``.

    ``mmap=False`` reads the file into memory instead of mapping it (for a
    file another program may change while it is read).

    Raises ``FileNotFoundError`` (saying where it looked and how to build
    one), ``BadIndexError`` for a file that is not a sound index.
    """
    return Index(_native.NativeIndex.open(name_or_path, mmap))


def index_folder() -> str:
    """The folder named indexes live in."""
    return _native.index_folder()


def _is_path(item: Any) -> bool:
    return isinstance(item, _os.PathLike) or (isinstance(item, str) and _os.path.isfile(item))


def build(
    lists: Union[PathLike, Iterable[Union[PathLike, str]]],
    name: Optional[str] = None,
    output: Optional[PathLike] = None,
    common: Optional[PathLike] = None,
    exclude: Sequence[PathLike] = (),
    alphabet: str = "auto",
    fold: str = "none",
    keep: str = "",
    force: bool = False,
    proper_nouns: str = "auto",
    endings: bool = True,
    letter_groups: Optional[bool] = None,
) -> Json:
    """Compiles word lists into an index file, as ``wordhoard build`` does,
    and returns its report (the dict ``wordhoard build --json`` prints, less
    ``peak_rss_kb``).

    ``lists`` is a path, a list of paths (``os.PathLike`` items, or strings
    that name files), or any other iterable of words (one list, named by
    ``name``). The index goes to ``output``, else ``NAME.hoard`` in the index
    folder, NAME being ``name`` or the first list's file stem. The file is
    written whole to a temporary file and renamed into place, so a reader
    never sees half an index; a file at ``output`` that is not an index is
    not replaced unless ``force=True``. ``alphabet`` is ``"auto"`` (a-z
    when 99% or more of the words are plain a-z, else every letter used) or
    the letters, ranges allowed (``"a-zäöüß"``); ``fold`` is ``"none"`` or
    ``"accents"``; ``keep`` names letters kept when folding accents;
    ``proper_nouns`` is ``"auto"`` (words with a capital are skipped when 3
    in 4 words have none), ``"skip"`` or ``"keep"``; ``endings=False``
    leaves out the table of words by their ending (4 bytes a word; ``find``
    patterns that start with ``*`` then read every word);
    ``letter_groups`` says whether to write the table of words grouped by
    their lowest letters (a copy of the words with no letter twice in a
    row, with their ids, from which Letter Boxed finds a box's words;
    ``None``, the default: for 500,000
    words or more; without it, Letter Boxed walks the words FST, which on
    a list of millions reads most of it).
    """
    if isinstance(lists, (str, bytes)) or isinstance(lists, _os.PathLike):
        items: List[Any] = [lists]
    else:
        items = list(lists)
    if items and all(_is_path(i) for i in items):
        paths, words = [_os.fspath(i) for i in items], None
    else:
        paths, words = [], [_os.fspath(i) if isinstance(i, _os.PathLike) else str(i) for i in items]
    return _native.build(
        paths,
        words=words,
        name=name,
        output=None if output is None else _os.fspath(output),
        common=None if common is None else _os.fspath(common),
        exclude=[_os.fspath(e) for e in exclude],
        alphabet=alphabet,
        fold=fold,
        keep=keep or None,
        force=force,
        proper_nouns=proper_nouns,
        endings=endings,
        letter_groups=letter_groups,
    )


def _sides(sides: Union[str, Sequence[str]]) -> List[str]:
    return [sides] if isinstance(sides, str) else list(sides)


def _words(words: Union[None, str, Iterable[str]]) -> List[str]:
    if words is None:
        return []
    if isinstance(words, str):
        return words.split()
    return list(words)


class Index:
    """An open index. Make one with ``wordhoard.open`` or
    ``Index.from_bytes``. It may be shared between threads; the file stays
    mapped while this object or any iterator from it lives."""

    __slots__ = ("_native", "bee", "boxed", "anigram")

    def __init__(self, native: "_native.NativeIndex") -> None:
        self._native = native
        self.bee = Bee(native)
        self.boxed = Boxed(native)
        self.anigram = Anigram(native)

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview]) -> "Index":
        """An index from the bytes of an index file (copied into memory)."""
        return cls(_native.NativeIndex.from_bytes(bytes(data)))

    @property
    def path(self) -> Optional[str]:
        """The file the index was read from; ``None`` for bytes."""
        return self._native.path

    def __repr__(self) -> str:
        where = self.path if self.path is not None else "bytes"
        return f"<wordhoard.Index {where}>"

    def info(self) -> Json:
        """The header, metadata and section table: ``wordhoard info --json``."""
        return self._native.ask("info", {})

    def verify(self, *, deep: bool = False) -> Json:
        """Every section's checksum and structure: ``wordhoard verify --json``.
        A damaged section is ``"ok": False`` in the answer, not an exception.
        With ``deep=True`` (``verify --deep``), when those pass, every table
        is rebuilt from the words and compared: ``"deep"`` lists each
        section with the first difference as its ``"problem"``."""
        return self._native.verify(deep)

    def find(
        self,
        pattern: str,
        *,
        len: Optional[int] = None,
        limit: Optional[int] = None,
        common_only: bool = False,
    ) -> Json:
        """Words matching a crossword pattern, a-z: a letter stands for
        itself, ``?`` for any one letter, ``*`` for any run, ``[abc]`` and
        ``[^abc]`` for one letter among or not among those. ``len``: only
        words of that many letters; ``limit`` (default 50, 0 all) how many to
        list; the count is always exact. ``wordhoard find --json``."""
        return self._native.ask(
            "find", {"pattern": pattern, "len": len, "limit": limit, "common_only": common_only}
        )

    def iter_find(
        self,
        pattern: str,
        *,
        len: Optional[int] = None,
        limit: int = 0,
        common_only: bool = False,
    ) -> Iterator[str]:
        """The words ``find`` lists, one at a time as they are found (all of
        them unless ``limit``)."""
        return self._native.stream(
            "find", {"pattern": pattern, "len": len, "limit": limit, "common_only": common_only}
        )

    def anagram(
        self,
        letters: Optional[str] = None,
        *,
        sub: bool = False,
        words: Union[bool, str] = False,
        min_len: Optional[int] = None,
        max_words: Optional[int] = None,
        include: Optional[str] = None,
        limit: Optional[int] = None,
        common_only: bool = False,
    ) -> Json:
        """Anagrams of ``letters`` (``?`` is a blank for any letter); with
        ``sub=True`` words of some of the letters; with ``words=True`` (or
        ``words="a phrase"``) sets of words whose letters are exactly the
        phrase's, at most ``max_words`` (default 3), each containing
        ``include`` if given. ``min_len`` (default 3) is the shortest word,
        ``limit`` (default 50, 0 all) how many to list. ``wordhoard anagram
        --json``."""
        return self._native.ask(
            "anagram",
            _anagram_args(letters, sub, words, min_len, max_words, include, limit, common_only),
        )

    def iter_anagram(
        self,
        letters: Optional[str] = None,
        *,
        sub: bool = False,
        words: Union[bool, str] = False,
        min_len: Optional[int] = None,
        max_words: Optional[int] = None,
        include: Optional[str] = None,
        limit: int = 0,
        common_only: bool = False,
    ) -> Iterator[Any]:
        """The items ``anagram`` lists (``{"word", "blanks"}`` dicts, or
        lists of words with ``words``), one at a time; all unless ``limit``."""
        return self._native.stream(
            "anagram",
            _anagram_args(letters, sub, words, min_len, max_words, include, limit, common_only),
        )


def _anagram_args(
    letters: Optional[str],
    sub: bool,
    words: Union[bool, str],
    min_len: Optional[int],
    max_words: Optional[int],
    include: Optional[str],
    limit: Optional[int],
    common_only: bool,
) -> Json:
    if isinstance(words, str):
        if letters is not None:
            raise UsageError("give the phrase once: as `letters` with words=True, or as words=PHRASE")
        letters, words = words, True
    if letters is None:
        raise UsageError("no letters given; e.g. `listen`, or `retain?` with a blank")
    return {
        "letters": letters,
        "sub": sub,
        "words": words,
        "min_len": min_len,
        "max_words": max_words,
        "include": include,
        "limit": limit,
        "common_only": common_only,
    }


class Bee:
    """The NYT Spelling Bee: ``idx.bee``."""

    __slots__ = ("_native",)

    def __init__(self, native: "_native.NativeIndex") -> None:
        self._native = native

    def solve(self, letters: str, center: Optional[str] = None, *, common_only: bool = False) -> Json:
        """Every word of a honeycomb, with scores and pangrams. ``center``
        defaults to the first letter. ``wordhoard bee solve --json``."""
        return self._native.ask("bee solve", {"letters": letters, "center": center, "common_only": common_only})

    def report(self, letters: str, center: Optional[str] = None, *, common_only: bool = False) -> Json:
        """The words grouped by letter set, pangrams first (Norvig's report):
        ``wordhoard bee report --json``."""
        return self._native.ask("bee report", {"letters": letters, "center": center, "common_only": common_only})

    def hints(self, letters: str, center: Optional[str] = None, *, common_only: bool = False) -> Json:
        """NYT-style hints, no words: counts by first letter and length, the
        two-letter list, pangrams, ranks. ``wordhoard bee hints --json``."""
        return self._native.ask("bee hints", {"letters": letters, "center": center, "common_only": common_only})

    def check(
        self,
        letters: str,
        words: Union[str, Iterable[str]] = (),
        *,
        center: Optional[str] = None,
        found: Union[None, PathLike, Iterable[str]] = None,
        common_only: bool = False,
    ) -> Json:
        """A verdict on each guess in ``words`` (in order; a string is split
        at whitespace), after the words ``found`` so far (a file of words, or
        an iterable); the score and rank reached, and hints for what is
        left. ``wordhoard bee check --json``."""
        if isinstance(found, (str, _os.PathLike)):
            with _builtins.open(_os.fspath(found), encoding="utf-8") as f:
                found_words = f.read().split()
        else:
            found_words = _words(found)
        return self._native.ask(
            "bee check",
            {
                "letters": letters,
                "center": center,
                "words": _words(words),
                "found": found_words,
                "common_only": common_only,
            },
        )

    def best(
        self, *, top: Optional[int] = None, exclude: Optional[str] = None, common_only: bool = False
    ) -> Json:
        """The highest-scoring honeycombs: ``top`` (default 10, 0 all), with
        no letter of ``exclude`` (default: S on an a-z index, none on
        others; ``""`` allows all). ``wordhoard bee best --json``."""
        return self._native.ask("bee best", {"top": top, "exclude": exclude, "common_only": common_only})

    def stats(self, *, exclude: Optional[str] = None) -> Json:
        """Counts of valid words, pangrams and candidate honeycombs:
        ``wordhoard bee stats --json``."""
        return self._native.ask("bee stats", {"exclude": exclude})

    def generate(
        self,
        *,
        seed: Optional[int] = None,
        exclude: Optional[str] = None,
        min_score: Optional[int] = None,
        max_score: Optional[int] = None,
        min_words: Optional[int] = None,
        max_words: Optional[int] = None,
        common_only: bool = False,
    ) -> Json:
        """A random valid honeycomb (it has a pangram) within the bounds, with
        its answers; the same seed and index give the same puzzle (default
        seed: from the clock). ``wordhoard bee generate --json``."""
        return self._native.ask(
            "bee generate",
            {
                "seed": seed,
                "exclude": exclude,
                "min_score": min_score,
                "max_score": max_score,
                "min_words": min_words,
                "max_words": max_words,
                "common_only": common_only,
            },
        )


class Boxed:
    """The NYT Letter Boxed: ``idx.boxed``."""

    __slots__ = ("_native",)

    def __init__(self, native: "_native.NativeIndex") -> None:
        self._native = native

    def solve(
        self,
        sides: Union[str, Sequence[str]],
        *,
        max_words: Optional[int] = None,
        min_len: Optional[int] = None,
        limit: Optional[int] = None,
        common_only: bool = False,
        fewest: bool = False,
        side_count: Optional[int] = None,
        size: Optional[int] = None,
    ) -> Json:
        """Solutions of at most ``max_words`` (default 2) words, best first,
        with exact counts. ``sides`` as typed: ``"riu pgh lcs yao"``,
        ``"riu-pgh-lcs-yao"``, ``["riu", "pgh", "lcs", "yao"]``, or
        ``"riupghlcsyao"`` cut into ``side_count`` sides (default 4) or sides
        of ``size`` letters. ``limit``
        (default 20, 0 all) solutions are listed; ``min_len`` (default 3) is
        the shortest playable word; ``fewest=True`` stops at the fewest words
        that solve the box. ``wordhoard boxed solve --json``."""
        return self._native.ask(
            "boxed solve",
            {"sides": _sides(sides), "max_words": max_words, "min_len": min_len, "limit": limit,
             "common_only": common_only, "fewest": fewest, "side_count": side_count, "size": size},
        )

    def iter_solutions(
        self,
        sides: Union[str, Sequence[str]],
        *,
        max_words: Optional[int] = None,
        min_len: Optional[int] = None,
        limit: int = 0,
        common_only: bool = False,
        fewest: bool = False,
        side_count: Optional[int] = None,
        size: Optional[int] = None,
    ) -> Iterator[List[str]]:
        """The solutions ``solve`` lists, in the same order, one at a time
        as the search finds them (all of them unless ``limit``)."""
        return self._native.stream(
            "boxed solve",
            {"sides": _sides(sides), "max_words": max_words, "min_len": min_len, "limit": limit,
             "common_only": common_only, "fewest": fewest, "side_count": side_count, "size": size},
        )

    def check(
        self,
        sides: Union[str, Sequence[str]],
        words: Union[str, Iterable[str]] = (),
        *,
        min_len: Optional[int] = None,
        common_only: bool = False,
        side_count: Optional[int] = None,
        size: Optional[int] = None,
    ) -> Json:
        """The player's words in order (a string is split at whitespace): a
        verdict each (``too_short``, ``bad_letter``, ``same_side`` with its
        ``position``, ``wrong_start``, ``not_in_list``, ``ok``), the letters
        used and left, solved or not, words played against par, and the
        one-word finishes left. ``wordhoard boxed check --json``."""
        return self._native.ask(
            "boxed check",
            {"sides": _sides(sides), "words": _words(words), "min_len": min_len, "common_only": common_only,
             "side_count": side_count, "size": size},
        )

    def generate(
        self,
        *,
        seed: Optional[int] = None,
        sides: Optional[int] = None,
        size: Optional[int] = None,
        common_only: bool = False,
        min_solutions: Optional[int] = None,
        max_solutions: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> Json:
        """A random box (default 4 sides of 3) with a solution of at most 2
        words, its solution count within the bounds; the same seed and index
        give the same box. ``wordhoard boxed generate --json``."""
        return self._native.ask(
            "boxed generate",
            {"seed": seed, "sides": sides, "size": size, "common_only": common_only,
             "min_solutions": min_solutions, "max_solutions": max_solutions, "limit": limit},
        )


class Anigram:
    """Anigrams, nested anagram chains: ``idx.anigram``."""

    __slots__ = ("_native",)

    def __init__(self, native: "_native.NativeIndex") -> None:
        self._native = native

    def unscramble(self, letters: str) -> Json:
        """Every word that is an anagram of ``letters``:
        ``wordhoard anigram unscramble --json``."""
        return self._native.ask("anigram unscramble", {"letters": letters})

    def longest(self, *, from_: Optional[str] = None, start_len: Optional[int] = None, **kw: Any) -> Json:
        """The longest chain, each term one letter longer than the last, from
        a word or term (``from_="ride"``, or ``**{"from": "ride"}``) or from
        the best term of ``start_len`` (default 4) letters.
        ``wordhoard anigram longest --json``."""
        return self._native.ask("anigram longest", {"from": _from(from_, kw), "start_len": start_len})

    def count(
        self,
        *,
        from_: Optional[str] = None,
        start_len: Optional[int] = None,
        goal_len: Optional[int] = None,
        **kw: Any,
    ) -> Json:
        """The number of games: chains from ``start_len`` (default 4) letters,
        or from one word or term, to ``goal_len`` (default 9).
        ``wordhoard anigram count --json``."""
        return self._native.ask(
            "anigram count", {"from": _from(from_, kw), "start_len": start_len, "goal_len": goal_len}
        )

    def top(
        self, *, top: Optional[int] = None, start_len: Optional[int] = None, goal_len: Optional[int] = None
    ) -> Json:
        """The starting terms with the most games (``top`` default 10, 0 all):
        ``wordhoard anigram top --json``."""
        return self._native.ask("anigram top", {"top": top, "start_len": start_len, "goal_len": goal_len})

    def check(self, words: Union[str, Iterable[str]]) -> Json:
        """A chain as played (a string is split at whitespace): each word
        ``ok`` (with the letter it ``added``), ``not_in_list`` or
        ``not_one_more``; the chain's length and how many more words the
        longest chain from its last word adds. ``wordhoard anigram check --json``."""
        return self._native.ask("anigram check", {"words": _words(words)})

    def generate(self, *, seed: Optional[int] = None, common_only: bool = False) -> Json:
        """A random game (4 -> 9 letters), reproducible by seed; with
        ``common_only``, one whose every step has a common word (and shows
        only those): ``wordhoard anigram generate --json``."""
        return self._native.ask("anigram generate", {"seed": seed, "common_only": common_only})


def _from(from_: Optional[str], kw: Dict[str, Any]) -> Optional[str]:
    # `from` is a Python keyword: `from_=...` or `**{"from": ...}`.
    extra = set(kw) - {"from"}
    if extra:
        raise TypeError(f"unexpected keyword argument {sorted(extra)[0]!r}")
    if from_ is not None and kw.get("from") is not None:
        raise UsageError("give `from` once")
    return from_ if from_ is not None else kw.get("from")
