"""The Python package against the CLI: every method gives the dict that
`wordhoard --json` prints for the same command and flags, on the golden
index and on enable1; errors are the right exceptions; hostile files give
errors, never a crash; threads share an index.

Run by `make test-python` (which builds the CLI and installs the package
into target/python-venv first).
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import threading

import pytest

import wordhoard

ROOT = pathlib.Path(__file__).resolve().parents[3]
CLI = os.environ.get("WORDHOARD_BIN", str(ROOT / "target" / "release" / "wordhoard"))
GOLDEN = ROOT / "tests" / "data" / "v3.hoard"


def wordlists() -> pathlib.Path | None:
    for folder in [os.environ.get("WORDHOARD_WORDLISTS"), ROOT.parent / "shared" / "wordlists"]:
        if folder and (pathlib.Path(folder) / "enable1.txt").is_file():
            return pathlib.Path(folder)
    if os.environ.get("WORDHOARD_REQUIRE_WORDLISTS") == "1":
        pytest.fail("the shared word lists are required (WORDHOARD_REQUIRE_WORDLISTS=1) but missing")
    return None


def cli(*args: str, index: pathlib.Path | str | None = None) -> subprocess.CompletedProcess:
    argv = [CLI] + (["--index", str(index)] if index is not None else []) + list(args)
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


def cli_json(index: pathlib.Path, *args: str):
    done = cli(*args, "--json", index=index)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="session")
def enable1(tmp_path_factory) -> pathlib.Path:
    lists = wordlists()
    if lists is None:
        pytest.skip("the shared word lists are missing (../shared/wordlists or $WORDHOARD_WORDLISTS)")
    out = tmp_path_factory.mktemp("enable1") / "enable1.hoard"
    report = wordhoard.build(
        [lists / "enable1.txt"], common=lists / "popular.txt", output=out, name="enable1"
    )
    assert report["words"] == 172_820
    return out


# (CLI arguments, the same question in Python), on both indexes. Seeds
# make the generators' answers reproducible.
CASES = [
    (["info"], lambda i: i.info()),
    (["verify"], lambda i: i.verify()),
    (["verify", "--deep"], lambda i: i.verify(deep=True)),
    (["bee", "solve", "aeginrt", "--center", "r"], lambda i: i.bee.solve("aeginrt", center="r")),
    (["bee", "solve", "aeginrt"], lambda i: i.bee.solve("aeginrt")),
    (["bee", "solve", "aeglmpx", "--common-only"], lambda i: i.bee.solve("aeglmpx", common_only=True)),
    (["bee", "report", "aeginrt", "--center", "r"], lambda i: i.bee.report("aeginrt", "r")),
    (["bee", "hints", "aeginrt", "--center", "r"], lambda i: i.bee.hints("aeginrt", center="r")),
    (
        ["bee", "check", "aeginrt", "--center", "r", "granite", "tearing", "rain", "xyz", "granite"],
        lambda i: i.bee.check("aeginrt", ["granite", "tearing", "rain", "xyz", "granite"], center="r"),
    ),
    (["bee", "best"], lambda i: i.bee.best()),
    (["bee", "best", "--top", "0", "--exclude", ""], lambda i: i.bee.best(top=0, exclude="")),
    (["bee", "best", "--common-only", "--top", "3"], lambda i: i.bee.best(common_only=True, top=3)),
    (["bee", "stats"], lambda i: i.bee.stats()),
    (["bee", "stats", "--exclude", ""], lambda i: i.bee.stats(exclude="")),
    (["bee", "generate", "--seed", "7"], lambda i: i.bee.generate(seed=7)),
    (["boxed", "solve", "riu", "pgh", "lcs", "yao"], lambda i: i.boxed.solve(["riu", "pgh", "lcs", "yao"])),
    (
        ["boxed", "solve", "riu-pgh-lcs-yao", "--max-words", "3", "--limit", "0"],
        lambda i: i.boxed.solve("riu,pgh,lcs,yao", max_words=3, limit=0),
    ),
    (["boxed", "solve", "gme", "alx", "--max-words", "1"], lambda i: i.boxed.solve("gme alx", max_words=1)),
    (
        ["boxed", "solve", "riu", "pgh", "lcs", "yao", "--fewest", "--max-words", "5"],
        lambda i: i.boxed.solve("riu pgh lcs yao", fewest=True, max_words=5),
    ),
    (
        ["boxed", "solve", "riu", "pgh", "lcs", "yao", "--common-only", "--min-len", "4"],
        lambda i: i.boxed.solve("riu pgh lcs yao", common_only=True, min_len=4),
    ),
    (
        ["boxed", "check", "riu-pgh-lcs-yao", "gracious", "sharp", "sharply", "yg", "soup", "pa"],
        lambda i: i.boxed.check("riu pgh lcs yao", "gracious sharp sharply yg soup pa"),
    ),
    (["boxed", "check", "gme alx", "game", "gel", "--min-len", "4"], lambda i: i.boxed.check(["gme", "alx"], ["game", "gel"], min_len=4)),
    (["boxed", "solve", "riupghlcsyao", "--sides", "3"], lambda i: i.boxed.solve("riupghlcsyao", side_count=3)),
    (["boxed", "check", "RIUPGHLCSYAO", "--size", "3", "gracious"], lambda i: i.boxed.check("RIUPGHLCSYAO", "gracious", size=3)),
    (["anigram", "check", "ride", "dried", "riddle", "xx", "riddles"], lambda i: i.anigram.check("ride dried riddle xx riddles")),
    (["anigram", "unscramble", "deir"], lambda i: i.anigram.unscramble("deir")),
    (["anigram", "longest"], lambda i: i.anigram.longest()),
    (["anigram", "longest", "--from", "ride"], lambda i: i.anigram.longest(from_="ride")),
    (["anigram", "count"], lambda i: i.anigram.count()),
    (["anigram", "count", "--from", "beep", "--goal-len", "6"], lambda i: i.anigram.count(**{"from": "beep", "goal_len": 6})),
    (["anigram", "top", "--top", "3"], lambda i: i.anigram.top(top=3)),
    (["find", "c?t"], lambda i: i.find("c?t")),
    (["find", "*ing", "--limit", "0"], lambda i: i.find("*ing", limit=0)),
    (["find", "[aeiou]*", "--len", "5", "--limit", "3"], lambda i: i.find("[aeiou]*", len=5, limit=3)),
    (["anagram", "listen"], lambda i: i.anagram("listen")),
    (["anagram", "retain?"], lambda i: i.anagram("retain?")),
    (["anagram", "orchestra", "--sub", "--min-len", "6"], lambda i: i.anagram("orchestra", sub=True, min_len=6)),
    (
        ["anagram", "--words", "tom marvolo riddle", "--max-words", "3"],
        lambda i: i.anagram(words="tom marvolo riddle", max_words=3),
    ),
    (["anagram", "--words", "dire ride", "--include", "ride"], lambda i: i.anagram("dire ride", words=True, include="ride")),
]

# Generators whose answers need an index with enough words.
ENABLE1_ONLY = [
    (["boxed", "generate", "--seed", "7"], lambda i: i.boxed.generate(seed=7)),
    (["boxed", "generate", "--seed", "3", "--common-only", "--limit", "0"], lambda i: i.boxed.generate(seed=3, common_only=True, limit=0)),
    (["anigram", "generate", "--seed", "42"], lambda i: i.anigram.generate(seed=42)),
    (["anigram", "generate", "--seed", "3", "--common-only"], lambda i: i.anigram.generate(seed=3, common_only=True)),
    (["bee", "generate", "--seed", "9", "--min-score", "100", "--max-score", "300"], lambda i: i.bee.generate(seed=9, min_score=100, max_score=300)),
]


def ids(cases):
    return [" ".join(argv) for argv, _ in cases]


@pytest.mark.parametrize("argv,ask", CASES, ids=ids(CASES))
def test_golden_answers_equal_the_cli(argv, ask):
    expected = cli_json(GOLDEN, *argv)
    assert ask(wordhoard.open(str(GOLDEN))) == expected


# Every honeycomb of enable1 (`bee best --top 0`) is left to the golden index.
ON_ENABLE1 = [c for c in CASES if c[0][:4] != ["bee", "best", "--top", "0"]] + ENABLE1_ONLY


@pytest.mark.parametrize("argv,ask", ON_ENABLE1, ids=ids(ON_ENABLE1))
def test_enable1_answers_equal_the_cli(enable1, argv, ask):
    expected = cli_json(enable1, *argv)
    assert ask(wordhoard.open(str(enable1))) == expected


def test_enable1_figures(enable1):
    idx = wordhoard.open(enable1)
    assert idx.bee.best(top=1)["honeycombs"][0]["score"] == 3898
    assert idx.bee.best(top=1, exclude="")["honeycombs"][0]["score"] == 8681
    assert idx.anigram.count()["games"] == 4_510_515
    assert idx.anigram.longest()["length"] == 13
    assert idx.boxed.solve("riu pgh lcs yao")["count"] == 120


def test_from_bytes_answers_as_the_file_does():
    from_file = wordhoard.open(GOLDEN)
    from_bytes = wordhoard.Index.from_bytes(GOLDEN.read_bytes())
    assert from_bytes.path is None and from_bytes.info()["path"] is None
    assert from_bytes.bee.solve("aeginrt", "r") == from_file.bee.solve("aeginrt", "r")
    assert from_bytes.info()["sections"] == from_file.info()["sections"]
    assert from_bytes.verify()["ok"] is True
    deep = from_bytes.verify(deep=True)
    assert deep["ok"] is True and [s["name"] for s in deep["deep"]][:3] == ["words", "word_text", "common"]


def test_lazy_listings_equal_the_full_ones(enable1):
    idx = wordhoard.open(enable1)
    box = ["riu", "pgh", "lcs", "yao"]
    assert list(idx.boxed.iter_solutions(box, max_words=3)) == idx.boxed.solve(box, max_words=3, limit=0)["solutions"]
    assert list(idx.boxed.iter_solutions(box, limit=5)) == idx.boxed.solve(box, limit=5)["solutions"]
    assert list(idx.iter_find("*ous")) == idx.find("*ous", limit=0)["words"]
    assert list(idx.iter_anagram("retain?")) == idx.anagram("retain?", limit=0)["words"]
    # A stream dropped early stops its thread; a huge one is read lazily.
    stream = idx.boxed.iter_solutions(box, max_words=4)
    first = [next(stream) for _ in range(3)]
    assert first == idx.boxed.solve(box, max_words=4, limit=3)["solutions"]
    stream.close()
    assert list(stream) == []
    with pytest.raises(wordhoard.UsageError):
        idx.iter_find("[ab")


def test_exceptions_carry_the_cli_message(tmp_path):
    idx = wordhoard.open(GOLDEN)
    with pytest.raises(wordhoard.UsageError) as bad_letter:
        idx.bee.solve("aeg1")
    assert isinstance(bad_letter.value, ValueError)
    assert bad_letter.value.param == "letters"
    done = cli("bee", "solve", "aeg1", index=GOLDEN)
    # The same problem; the library names its argument, the CLI its own.
    assert str(bad_letter.value).startswith("`letters` ")
    assert done.returncode == 2 and str(bad_letter.value).replace("`letters`", "letters") in done.stderr
    with pytest.raises(wordhoard.UsageError) as too_many:
        idx.boxed.solve("riu pgh lcs yao", max_words=99)
    assert too_many.value.param == "max_words" and "must be 1 to 8" in str(too_many.value)
    assert "--max-words must be 1 to 8" in cli("boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "9", index=GOLDEN).stderr
    with pytest.raises(wordhoard.UsageError, match="unknown field `centre`"):
        idx._native.ask("bee solve", {"letters": "aeginrt", "centre": "r"})
    with pytest.raises(wordhoard.UsageError):
        idx.boxed.solve("riu pgh lcs yao", max_words=99)
    with pytest.raises(wordhoard.UsageError):
        idx.bee.best(top=-1)
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(wordhoard.UsageError, match="nest too deeply"):
        idx.bee.check("aeginrt", [deep])
    with pytest.raises(TypeError):
        idx.bee.solve("aeginrt", centre="r")
    with pytest.raises(FileNotFoundError, match="no index at"):
        wordhoard.open(tmp_path / "missing.hoard")
    with pytest.raises(IsADirectoryError):
        wordhoard.open(str(tmp_path) + "/")
    not_index = tmp_path / "words.txt"
    not_index.write_text("not an index\n" * 100)
    with pytest.raises(wordhoard.BadIndexError, match="not a wordhoard index"):
        wordhoard.open(not_index)
    with pytest.raises(wordhoard.BadIndexError):
        wordhoard.Index.from_bytes(b"")


def test_limits_are_limit_errors(enable1):
    idx = wordhoard.open(enable1)
    with pytest.raises(wordhoard.LimitError):
        idx.anagram(words="abcdefghijklmnopqrstuvwxyzabcdefghijklmn", max_words=6, min_len=1)


def flipped_copies(data: bytes, step: int):
    for at in range(0, len(data), step):
        damaged = bytearray(data)
        damaged[at] ^= 0x5A
        yield at, bytes(damaged)


QUESTIONS = [
    (["bee", "solve", "aeginrt"], lambda i: i.bee.solve("aeginrt")),
    (["bee", "best", "--top", "3"], lambda i: i.bee.best(top=3)),
    (["boxed", "solve", "riu", "pgh", "lcs", "yao"], lambda i: i.boxed.solve("riu pgh lcs yao")),
    (["anigram", "count"], lambda i: i.anigram.count()),
    (["anigram", "longest"], lambda i: i.anigram.longest()),
    (["find", "*e*"], lambda i: i.find("*e*")),
    (["anagram", "retain?", "--sub"], lambda i: i.anagram("retain?", sub=True)),
]


def python_outcome(path: pathlib.Path, ask):
    try:
        return ask(wordhoard.open(path))
    except (wordhoard.WordhoardError, OSError) as e:
        return e


def test_hostile_files_give_errors_as_the_cli_does(tmp_path):
    """Every 61st byte of the golden index flipped, and the fuzzers'
    committed findings: each question either answers as the CLI does or
    raises where the CLI fails; nothing crashes."""
    files = [(f"flip@{at}", data) for at, data in flipped_copies(GOLDEN.read_bytes(), 61)]
    regressions = ROOT / "fuzz" / "regressions" / "index_bytes"
    files += [(p.name, p.read_bytes()) for p in sorted(regressions.iterdir()) if p.is_file()]
    assert len(files) > 20
    errors = 0
    for name, data in files:
        path = tmp_path / "hostile.hoard"
        path.write_bytes(data)
        for argv, ask in QUESTIONS:
            got = python_outcome(path, ask)
            done = cli(*argv, "--json", index=path)
            if isinstance(got, Exception):
                errors += 1
                assert done.returncode != 0, f"{name} {argv}: Python raised {got!r}, the CLI answered"
                assert str(got) in done.stderr or done.returncode == 1, (name, argv, str(got), done.stderr)
            else:
                assert done.returncode == 0, f"{name} {argv}: the CLI failed ({done.stderr}), Python answered"
                assert got == json.loads(done.stdout), (name, argv)
            # The same bytes in memory agree with the file.
            try:
                from_bytes = ask(wordhoard.Index.from_bytes(data))
            except wordhoard.WordhoardError as e:
                from_bytes = e
            assert type(from_bytes) is type(got)
    assert errors > 0, "no flipped byte was caught: the sweep checks nothing"


def test_threads_share_an_index_and_agree(enable1):
    idx = wordhoard.open(enable1)
    combs = [c for c in idx.bee.best(top=40)["honeycombs"]]
    expected = {(c["letters"], c["center"]): idx.bee.solve(c["letters"], c["center"]) for c in combs}
    failures: list = []

    def work():
        try:
            for _ in range(5):
                for (letters, center), answer in expected.items():
                    assert idx.bee.solve(letters, center) == answer
        except BaseException as e:  # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_build_from_words_and_from_files(tmp_path, monkeypatch):
    # One build time for every build here (the CLI's inherits it): two
    # builds a second apart differ in their metadata.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1795392000")
    out = tmp_path / "tiny.hoard"
    report = wordhoard.build(iter(["ride", "dire", "ired", "Ride", "game"]), output=out, name="tiny")
    assert report["words"] == 4 and report["output"] == str(out) and report["name"] == "tiny"
    # 4 of the 5 words have no capital: Ride is a proper noun, unless kept.
    assert report["skipped_by_reason"]["proper_noun"] == 1 and report["proper_nouns"]["policy"] == "skip"
    kept = wordhoard.build(["ride", "Ride", "dire"], output=tmp_path / "k.hoard", proper_nouns="keep")
    assert (kept["skipped"], kept["duplicates"]) == (0, 1)
    assert wordhoard.open(out).anigram.unscramble("deir")["words"] == ["dire", "ired", "ride"]
    # The same as the CLI from the same list, section for section.
    listed = tmp_path / "tiny.txt"
    listed.write_text("ride\ndire\nired\nRide\ngame\n")
    by_cli = tmp_path / "cli.hoard"
    done = cli("build", str(listed), "-o", str(by_cli), "--name", "tiny", "--json")
    assert done.returncode == 0, done.stderr
    by_python = tmp_path / "python.hoard"
    wordhoard.build([listed], output=by_python, name="tiny")
    py_info, cli_info = wordhoard.open(by_python).info(), wordhoard.open(by_cli).info()
    assert py_info["sections"] == cli_info["sections"]
    # Paths given as strings that name files are lists, too.
    assert wordhoard.build(str(listed), output=tmp_path / "s.hoard")["sources"] == json.loads(done.stdout)["sources"]


def test_a_build_without_endings_answers_the_same(tmp_path):
    listed = tmp_path / "t.txt"
    listed.write_text("ride\ndire\nired\nspire\nfire\nfired\ngame\n")
    full, lean, by_cli = tmp_path / "full.hoard", tmp_path / "lean.hoard", tmp_path / "cli.hoard"
    wordhoard.build([listed], output=full)
    wordhoard.build([listed], output=lean, endings=False)
    done = cli("build", str(listed), "-o", str(by_cli), "--no-endings")
    assert done.returncode == 0, done.stderr

    def sections(path):
        return [s["name"] for s in wordhoard.open(path).info()["sections"]]

    assert "endings" in sections(full) and "endings" not in sections(lean)
    assert sections(lean) == sections(by_cli)
    for pattern in ["*ire", "*re?", "?i*e"]:
        assert wordhoard.open(lean).find(pattern) == wordhoard.open(full).find(pattern)
    assert wordhoard.open(lean).verify(deep=True)["ok"]


def test_a_build_with_letter_groups_answers_the_same(tmp_path):
    listed = tmp_path / "t.txt"
    listed.write_text("gracious\nsharply\nsly\nyoga\nparish\nsharp\npolo\nypsilon\noil\nlisp\n")
    full, lean, by_cli = tmp_path / "full.hoard", tmp_path / "lean.hoard", tmp_path / "cli.hoard"
    wordhoard.build([listed], output=full, letter_groups=True)
    wordhoard.build([listed], output=lean)
    done = cli("build", str(listed), "-o", str(by_cli), "--letter-groups")
    assert done.returncode == 0, done.stderr

    def sections(path):
        return [s["name"] for s in wordhoard.open(path).info()["sections"]]

    assert "letter_groups" in sections(full) and "letter_groups" not in sections(lean)
    assert sections(full) == sections(by_cli)
    assert "letter_groups" not in sections(lean)
    for box in ["riu pgh lcs yao", "gra cio ush", "sly pao hig"]:
        assert wordhoard.open(lean).boxed.solve(box, limit=0) == wordhoard.open(full).boxed.solve(box, limit=0)
    assert wordhoard.open(full).boxed.solve("riu pgh lcs yao")["solutions"][0] == ["gracious", "sharply"]
    assert wordhoard.open(full).verify(deep=True)["ok"]
    no = tmp_path / "no.hoard"
    wordhoard.build([listed], output=no, letter_groups=False)
    assert sections(no) == sections(lean)


def test_build_errors_are_the_cli_errors(tmp_path):
    listed = tmp_path / "list.txt"
    listed.write_text("ride\ndire\n")
    with pytest.raises(wordhoard.UsageError, match="`keep`"):
        wordhoard.build([listed], output=tmp_path / "a.hoard", keep="ñ")
    with pytest.raises(wordhoard.UsageError, match="`proper_nouns`"):
        wordhoard.build([listed], output=tmp_path / "a.hoard", proper_nouns="maybe")
    with pytest.raises(wordhoard.UsageError, match="runs backwards"):
        wordhoard.build([listed], output=tmp_path / "a.hoard", alphabet="z-a")
    with pytest.raises(wordhoard.UsageError, match="`fold`"):
        wordhoard.build([listed], output=tmp_path / "a.hoard", fold="everything")
    with pytest.raises(IsADirectoryError):
        wordhoard.build([listed], output=tmp_path)
    precious = tmp_path / "precious.txt"
    precious.write_text("not an index")
    with pytest.raises(OSError, match="not a wordhoard index"):
        wordhoard.build([listed], output=precious)
    assert precious.read_text() == "not an index", "nothing the user had is lost"
    wordhoard.build([listed], output=precious, force=True)
    assert wordhoard.open(precious).info()["words"] == 2
    with pytest.raises(FileNotFoundError):
        wordhoard.build([pathlib.Path(tmp_path / "missing.txt")], output=tmp_path / "b.hoard")
    assert not (tmp_path / "b.hoard").exists()


def test_open_by_name_uses_the_index_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDHOARD_HOME", str(tmp_path))
    listed = tmp_path / "mine.txt"
    listed.write_text("ride\ndire\n")
    report = wordhoard.build([listed])
    assert report["output"] == str(tmp_path / "mine.hoard")
    assert wordhoard.open("mine").path == str(tmp_path / "mine.hoard")
    assert wordhoard.index_folder() == str(tmp_path)
    monkeypatch.setenv("WORDHOARD_INDEX", "mine")
    assert wordhoard.open().info()["words"] == 2
    with pytest.raises(FileNotFoundError, match="it holds mine"):
        wordhoard.open("other")


def test_help_reads_well():
    doc = wordhoard.__doc__ or ""
    assert "--json" in doc and "UsageError" in doc
    for cls in [wordhoard.Index, wordhoard.Bee, wordhoard.Boxed, wordhoard.Anigram]:
        for name, member in vars(cls).items():
            if callable(member) and not name.startswith("_"):
                assert member.__doc__, f"{cls.__name__}.{name} has no docstring"
    assert wordhoard.open.__doc__ and wordhoard.build.__doc__
    assert set(wordhoard._native.commands()) >= {"bee solve", "boxed solve", "anigram count", "find", "anagram"}
