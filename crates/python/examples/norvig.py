#!/usr/bin/env python3
"""The seeds' headline results through the wordhoard package, each timed
beside a pure-Python version of the seed's own approach on the same list in
the same process:

- the best Spelling Bee honeycomb: 3,898 points without S, 8,681 with S
  (Norvig's points table over letter sets, 2020);
- Anigrams: 4,510,515 games from 4 to 9 letters, and the longest chains of
  13 words (Norvig's memoised add-one-letter search, 2022);
- Letter Boxed: 120 solutions of at most two words for RIU PGH LCS YAO
  (playable words, then pairs that chain and cover the box).

    python crates/python/examples/norvig.py [INDEX] [--wordlist enable1.txt] [--bench]

INDEX is a name in the index folder or a path (default: enable1). The word
list is found at --wordlist, $WORDHOARD_WORDLISTS/enable1.txt or
../shared/wordlists/enable1.txt. With --bench it also measures the
package's per-call overhead over the same question answered in Rust, and
how 4 threads sharing one index scale against 1 (`make bench` runs it so).
"""

from __future__ import annotations

import argparse
import functools
import os
import pathlib
import sys
import threading
import time
from collections import Counter
from itertools import combinations

import wordhoard


# --- Pure Python, after the seeds --------------------------------------------

def word_score(word: str) -> int:
    return 1 if len(word) == 4 else len(word) + (7 if len(set(word)) == 7 else 0)


def best_honeycomb(words: list[str], allow_s: bool) -> tuple[int, str, str]:
    """Norvig's best_honeycomb: a points table of letter sets, then the 64
    subsets of each pangram letter set with a centre (2020)."""
    valid = [w for w in words if len(w) >= 4 and (allow_s or "s" not in w) and len(set(w)) <= 7]
    table: Counter = Counter()
    for w in valid:
        table["".join(sorted(set(w)))] += word_score(w)
    best = (0, "", "")
    for pangram in (s for s in table if len(s) == 7):
        subsets = ["".join(c) for n in range(1, 8) for c in combinations(pangram, n)]
        for center in pangram:
            score = sum(table[s] for s in subsets if center in s)
            if (score, pangram, center) > best:
                best = (score, pangram, center)
    return best


def anigram_graph(words: list[str]):
    """Norvig's Anigrams (2022): terms are sorted letters, and a term leads
    to the terms one added letter makes."""
    all_terms = {"".join(sorted(w)): w for w in words}

    def add_one_letter(term: str) -> set[str]:
        terms = ("".join(sorted(term + c)) for c in "abcdefghijklmnopqrstuvwxyz")
        return {t for t in terms if t in all_terms}

    return [t for t in all_terms if len(t) == 4], add_one_letter


def anigram_games(words: list[str]) -> int:
    """Games from 4 to 9 letters: memoised recursion over additions."""
    starts, add_one_letter = anigram_graph(words)

    @functools.lru_cache(None)
    def games(term: str) -> int:
        return 1 if len(term) == 9 else sum(games(t) for t in add_one_letter(term))

    return sum(map(games, starts))


def anigram_longest(words: list[str]) -> int:
    """The longest chain from a 4-letter term, in words."""
    starts, add_one_letter = anigram_graph(words)

    @functools.lru_cache(None)
    def longest(term: str) -> int:
        return 1 + max((longest(t) for t in add_one_letter(term)), default=0)

    return max(map(longest, starts))


def letter_boxed(words: list[str], sides: list[str]) -> int:
    """Solutions of one or two words: playable words (box letters only, no
    two neighbours on one side, at least 3 letters), then pairs where the
    second starts with the first's last letter and together they use every
    letter."""
    side_of = {c: i for i, side in enumerate(sides) for c in side}
    letters = set(side_of)
    playable = [
        w for w in words
        if len(w) >= 3 and set(w) <= letters and all(side_of[a] != side_of[b] for a, b in zip(w, w[1:]))
    ]
    by_first: dict[str, list[str]] = {}
    for w in playable:
        by_first.setdefault(w[0], []).append(w)
    count = sum(1 for w in playable if set(w) == letters)
    for w in playable:
        used = set(w)
        count += sum(1 for v in by_first.get(w[-1], []) if used | set(v) == letters)
    return count


# --- Measuring ------------------------------------------------------------------

def timed(f, repeat: int = 1):
    """The answer and the median seconds of `repeat` runs."""
    times, answer = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = f()
        times.append(time.perf_counter() - start)
    return answer, sorted(times)[len(times) // 2]


def find_wordlist(given: str | None) -> pathlib.Path:
    here = pathlib.Path(__file__).resolve()
    candidates = [given, os.environ.get("WORDHOARD_WORDLISTS") and os.path.join(os.environ["WORDHOARD_WORDLISTS"], "enable1.txt"),
                  here.parents[4] / "shared" / "wordlists" / "enable1.txt"]
    for c in candidates:
        if c and pathlib.Path(c).is_file():
            return pathlib.Path(c)
    sys.exit("norvig.py: enable1.txt not found (give --wordlist, or set $WORDHOARD_WORDLISTS)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("index", nargs="?", default="enable1")
    parser.add_argument("--wordlist")
    parser.add_argument("--bench", action="store_true", help="also per-call overhead and thread scaling")
    args = parser.parse_args()
    idx = wordhoard.open(args.index)
    words = pathlib.Path(find_wordlist(args.wordlist)).read_text().split()
    box = ["riu", "pgh", "lcs", "yao"]

    rows = []

    def compare(what, figure, package, python, repeat=3):
        got, t_package = timed(package, repeat)
        expected, t_python = timed(python, 1)
        assert got == expected == figure, f"{what}: package {got}, pure Python {expected}, seed {figure}"
        rows.append((what, f"{figure:,}", t_package, t_python))

    compare("best honeycomb, no S", 3898, lambda: idx.bee.best(top=1)["honeycombs"][0]["score"],
            lambda: best_honeycomb(words, allow_s=False)[0])
    compare("best honeycomb, with S", 8681, lambda: idx.bee.best(top=1, exclude="")["honeycombs"][0]["score"],
            lambda: best_honeycomb(words, allow_s=True)[0])
    compare("Anigram games (4 -> 9 letters)", 4_510_515, lambda: idx.anigram.count()["games"],
            lambda: anigram_games(words))
    compare("longest Anigram chain (words)", 13, lambda: idx.anigram.longest()["length"],
            lambda: anigram_longest(words))
    compare("RIU PGH LCS YAO in <= 2 words", 120, lambda: idx.boxed.solve(box, limit=0)["count"],
            lambda: letter_boxed(words, box))

    print(f"{'question':<34} {'answer':>10} {'wordhoard':>11} {'pure Python':>12} {'faster':>9}")
    for what, figure, t_package, t_python in rows:
        print(f"{what:<34} {figure:>10} {t_package * 1e3:>8.2f} ms {t_python * 1e3:>9.0f} ms {t_python / t_package:>8.0f}x")
    print("(wordhoard: the median of 3 calls; pure Python: one run, as the seeds time theirs)")

    if args.bench:
        bench(idx)


def bench(idx: wordhoard.Index) -> None:
    """Per-call overhead of a bee solve from Python over the same request in
    Rust, and bee solves per second on 1 and 4 threads sharing the index.
    Python's cost is making the answer's dicts (one per word), which holds
    the GIL; the query itself runs without it."""
    # NYT-like puzzles: generated ones (seeds 1-100), not the biggest.
    combs = [(g["letters"], g["center"]) for g in (idx.bee.generate(seed=s) for s in range(1, 101))]
    n = len(combs)
    words = sum(len(idx.bee.solve(letters, center)["words"]) for letters, center in combs) / n
    rounds = 5
    # Per puzzle: the request layer's parse and answer in Rust alone (no
    # Python objects), and the same call from Python; medians of 5 rounds.
    rust = [[] for _ in combs]
    python = [[] for _ in combs]
    for _ in range(rounds):
        for k, (letters, center) in enumerate(combs):
            rust[k].append(idx._native.time_ask("bee solve", {"letters": letters, "center": center}, 20) / 20)
            start = time.perf_counter()
            for _ in range(20):
                idx.bee.solve(letters, center)
            python[k].append((time.perf_counter() - start) / 20)
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    overheads = sorted((med(python[k]) - med(rust[k])) * 1e6 for k in range(n))
    sizes = sorted(len(idx.bee.solve(letters, center)["words"]) for letters, center in combs)
    rust_us = med([med(r) for r in rust]) * 1e6
    print(f"\nbee solve, {n} generated honeycombs (median {sizes[n // 2]} words, mean {words:.0f}):")
    print(f"  in Rust {rust_us:.1f} us a puzzle (median); from Python the overhead is {overheads[n // 2]:.1f} us "
          f"(median), {sum(overheads) / n:.1f} us (mean), {overheads[int(n * 0.9)]:.1f} us (90th percentile):")
    print("  making the answer's dicts, one per word, is most of it")

    def solves_per_second(threads: int, seconds: float = 1.5) -> float:
        counts = [0] * threads
        stop = time.perf_counter() + seconds

        def work(k: int) -> None:
            i = 0
            while time.perf_counter() < stop:
                letters, center = combs[i % n]
                idx.bee.solve(letters, center)
                i += 1
            counts[k] = i

        pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
        start = time.perf_counter()
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        return sum(counts) / (time.perf_counter() - start)

    one, four = solves_per_second(1), solves_per_second(4)
    print(f"  1 thread {one:,.0f} solves/s, 4 threads {four:,.0f} solves/s on {os.cpu_count()} cores: {four / one:.2f}x")


if __name__ == "__main__":
    main()
