"""Type stubs for wordhoard; the docstrings are in the package (help(wordhoard))."""

import os as _os
from . import _native
from __future__ import annotations
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Union
__version__: str
__all__ = ['Anigram', 'BadIndexError', 'Bee', 'Boxed', 'Index', 'LimitError', 'UsageError', 'WordhoardError', 'build', 'index_folder', 'open']

class WordhoardError(Exception):
    ...

class UsageError(WordhoardError, ValueError):
    param: Optional[str]

class BadIndexError(WordhoardError):
    ...

class LimitError(WordhoardError):
    ...
Json = Dict[str, Any]
PathLike = Union[str, '_os.PathLike[str]']

def open(name_or_path: Optional[PathLike]=None, *, mmap: bool=True) -> 'Index':
    ...

def index_folder() -> str:
    ...

def _is_path(item: Any) -> bool:
    ...

def build(lists: Union[PathLike, Iterable[Union[PathLike, str]]], name: Optional[str]=None, output: Optional[PathLike]=None, common: Optional[PathLike]=None, exclude: Sequence[PathLike]=(), alphabet: str='auto', fold: str='none', keep: str='', force: bool=False, proper_nouns: str='auto', endings: bool=True, letter_groups: Optional[bool]=None) -> Json:
    ...

def _sides(sides: Union[str, Sequence[str]]) -> List[str]:
    ...

def _words(words: Union[None, str, Iterable[str]]) -> List[str]:
    ...

class Index:
    bee: Bee
    boxed: Boxed
    anigram: Anigram

    def __init__(self, native: '_native.NativeIndex') -> None:
        ...

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview]) -> 'Index':
        ...

    @property
    def path(self) -> Optional[str]:
        ...

    def __repr__(self) -> str:
        ...

    def info(self) -> Json:
        ...

    def verify(self, *, deep: bool = False) -> Json:
        ...

    def find(self, pattern: str, *, len: Optional[int]=None, limit: Optional[int]=None, common_only: bool=False) -> Json:
        ...

    def iter_find(self, pattern: str, *, len: Optional[int]=None, limit: int=0, common_only: bool=False) -> Iterator[str]:
        ...

    def anagram(self, letters: Optional[str]=None, *, sub: bool=False, words: Union[bool, str]=False, min_len: Optional[int]=None, max_words: Optional[int]=None, include: Optional[str]=None, limit: Optional[int]=None, common_only: bool=False) -> Json:
        ...

    def iter_anagram(self, letters: Optional[str]=None, *, sub: bool=False, words: Union[bool, str]=False, min_len: Optional[int]=None, max_words: Optional[int]=None, include: Optional[str]=None, limit: int=0, common_only: bool=False) -> Iterator[Any]:
        ...

def _anagram_args(letters: Optional[str], sub: bool, words: Union[bool, str], min_len: Optional[int], max_words: Optional[int], include: Optional[str], limit: Optional[int], common_only: bool) -> Json:
    ...

class Bee:

    def __init__(self, native: '_native.NativeIndex') -> None:
        ...

    def solve(self, letters: str, center: Optional[str]=None, *, common_only: bool=False) -> Json:
        ...

    def report(self, letters: str, center: Optional[str]=None, *, common_only: bool=False) -> Json:
        ...

    def hints(self, letters: str, center: Optional[str]=None, *, common_only: bool=False) -> Json:
        ...

    def check(self, letters: str, words: Union[str, Iterable[str]]=(), *, center: Optional[str]=None, found: Union[None, PathLike, Iterable[str]]=None, common_only: bool=False) -> Json:
        ...

    def best(self, *, top: Optional[int]=None, exclude: Optional[str]=None, common_only: bool=False) -> Json:
        ...

    def stats(self, *, exclude: Optional[str]=None) -> Json:
        ...

    def generate(self, *, seed: Optional[int]=None, exclude: Optional[str]=None, min_score: Optional[int]=None, max_score: Optional[int]=None, min_words: Optional[int]=None, max_words: Optional[int]=None, common_only: bool=False) -> Json:
        ...

class Boxed:

    def __init__(self, native: '_native.NativeIndex') -> None:
        ...

    def solve(self, sides: Union[str, Sequence[str]], *, max_words: Optional[int]=None, min_len: Optional[int]=None, limit: Optional[int]=None, common_only: bool=False, fewest: bool=False, side_count: Optional[int]=None, size: Optional[int]=None) -> Json:
        ...

    def iter_solutions(self, sides: Union[str, Sequence[str]], *, max_words: Optional[int]=None, min_len: Optional[int]=None, limit: int=0, common_only: bool=False, fewest: bool=False, side_count: Optional[int]=None, size: Optional[int]=None) -> Iterator[List[str]]:
        ...

    def check(self, sides: Union[str, Sequence[str]], words: Union[str, Iterable[str]]=(), *, min_len: Optional[int]=None, common_only: bool=False, side_count: Optional[int]=None, size: Optional[int]=None) -> Json:
        ...

    def generate(self, *, seed: Optional[int]=None, sides: Optional[int]=None, size: Optional[int]=None, common_only: bool=False, min_solutions: Optional[int]=None, max_solutions: Optional[int]=None, limit: Optional[int]=None) -> Json:
        ...

class Anigram:

    def __init__(self, native: '_native.NativeIndex') -> None:
        ...

    def unscramble(self, letters: str) -> Json:
        ...

    def longest(self, *, from_: Optional[str]=None, start_len: Optional[int]=None, **kw: Any) -> Json:
        ...

    def count(self, *, from_: Optional[str]=None, start_len: Optional[int]=None, goal_len: Optional[int]=None, **kw: Any) -> Json:
        ...

    def top(self, *, top: Optional[int]=None, start_len: Optional[int]=None, goal_len: Optional[int]=None) -> Json:
        ...

    def check(self, words: Union[str, Iterable[str]]) -> Json:
        ...

    def generate(self, *, seed: Optional[int]=None, common_only: bool=False) -> Json:
        ...

def _from(from_: Optional[str], kw: Dict[str, Any]) -> Optional[str]:
    ...
