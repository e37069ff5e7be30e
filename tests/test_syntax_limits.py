"""The syntax stage on hostile input and with a broken cache: it stays linear, stops
reporting after a cap, and parses whatever state the per-user cache folder is in."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from questc.syntax import parse_source
from questc.syntax.parser import MAX_SYNTAX_ERRORS

REPO = Path(__file__).resolve().parent.parent
HEAD = 'quest "Q" {\n  conquest 3\n}\n'


def _timed(text: str):
    started = time.perf_counter()
    result = parse_source(text, "hostile.quest")
    return result, time.perf_counter() - started


@pytest.mark.slow
def test_forty_thousand_unclosed_parentheses_are_one_error_at_once():
    """Unwinding a 40,000-deep parser stack once per state asked Lark's accepts() each
    time, which copies the stack: 66 s. Now well under a second."""
    result, seconds = _timed(HEAD + "victory heroes when " + "(" * 40_000 + "\n")
    assert seconds < 5, seconds
    assert [d.code for d in result.diagnostics] == ["Q001"]
    assert result.diagnostics[0].span.line == 4


@pytest.mark.parametrize("stray", ["x", "{", "}", "(", "1"])
@pytest.mark.slow
def test_a_long_line_of_separators_with_stray_tokens(stray):
    """A 100 kB line of `;` with four stray tokens: the word before each error was found
    by a regex search that restarts at every `;` (45 s). Each stray token is one error."""
    run = ";" * 25_000
    line = "".join(f"{run} {stray} " for _ in range(4))
    result, seconds = _timed(HEAD + line + "\n")
    assert seconds < 5, seconds
    assert len(result.diagnostics) == 4
    assert all(d.span.line == 4 for d in result.diagnostics)


def test_reported_syntax_errors_are_capped_with_a_final_word():
    text = HEAD + "piece @\n" * 5_000
    result, seconds = _timed(text)
    assert seconds < 5, seconds
    assert len(result.diagnostics) == MAX_SYNTAX_ERRORS + 1
    assert {d.code for d in result.diagnostics[:-1]} == {"Q001"}
    last = result.diagnostics[-1]
    assert last.code == "Q006"
    assert f"more than {MAX_SYNTAX_ERRORS} syntax errors" in last.message
    assert last.span.line == 4 + MAX_SYNTAX_ERRORS  # where reading stopped


def test_fewer_errors_than_the_cap_are_all_reported():
    result, _ = _timed(HEAD + "piece @\n" * MAX_SYNTAX_ERRORS)
    assert [d.code for d in result.diagnostics] == ["Q001"] * MAX_SYNTAX_ERRORS


# -- the per-user cache of Lark's tables ------------------------------------------

PARSE = (
    "from questc.syntax import parse_source\n"
    "import sys\n"
    "r = parse_source(open(sys.argv[1], encoding='utf-8').read(), 'q')\n"
    "print('tree' if r.tree is not None else 'none', len(r.diagnostics))\n"
)
QUEST = REPO / "quests" / "three_seals.quest"


def _parse_with_cache(cache_home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-c", PARSE, str(QUEST)], capture_output=True, text=True, env=env, timeout=120
    )


def _entries(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "questc").glob("grammar-*.parser"))


def _valid(entry: Path) -> bool:
    data = entry.read_bytes()
    return len(data) > 4 and int.from_bytes(data[:4], "big") == zlib.crc32(data[4:])


@pytest.mark.slow
def test_a_missing_cache_folder_is_made_and_filled(tmp_path):
    done = _parse_with_cache(tmp_path / "new")
    assert (done.stdout.strip(), done.stderr) == ("tree 0", "")
    [entry] = _entries(tmp_path / "new")
    assert _valid(entry)
    again = _parse_with_cache(tmp_path / "new")  # read back
    assert (again.stdout.strip(), again.stderr) == ("tree 0", "")


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "good crc, bad pickle"])
@pytest.mark.slow
def test_a_corrupt_cache_entry_is_rebuilt_silently(tmp_path, damage):
    assert _parse_with_cache(tmp_path).returncode == 0
    [entry] = _entries(tmp_path)
    data = entry.read_bytes()
    broken = {
        "garbage": os.urandom(len(data)),
        "truncated": data[: len(data) // 2],
        "empty": b"",
        "good crc, bad pickle": zlib.crc32(b"not a pickle").to_bytes(4, "big") + b"not a pickle",
    }[damage]
    entry.write_bytes(broken)
    done = _parse_with_cache(tmp_path)
    assert (done.stdout.strip(), done.stderr) == ("tree 0", "")
    assert _valid(entry) and entry.read_bytes() != broken


@pytest.mark.slow
def test_a_cache_folder_that_cannot_be_made_means_no_cache(tmp_path):
    """XDG_CACHE_HOME names a file, so the folder cannot exist (this holds for root too,
    unlike a read-only mode)."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    done = _parse_with_cache(blocker)
    assert (done.stdout.strip(), done.stderr) == ("tree 0", "")
    assert blocker.read_text(encoding="utf-8") == "x"


# -- the parser as cached: pickled whole --------------------------------------------------------


def _sources() -> list[tuple[str, str]]:
    """Every quest the repository holds (shipped, the acceptance copy, the syntax error fixtures)."""
    from conftest import ACCEPTANCE, TESTS

    folders = [REPO / "quests", ACCEPTANCE, TESTS / "fixtures" / "syntax" / "errors"]
    return [(str(p), p.read_text(encoding="utf-8")) for folder in folders for p in sorted(folder.glob("*.quest"))]


@pytest.mark.slow
def test_the_pickled_parser_parses_as_the_one_lark_built(monkeypatch):
    """The parser the cache holds (pickled whole) against a freshly built one: the same trees,
    positions and diagnostics (panic-mode recovery included) for every quest in the repository."""
    import pickle

    from lark import Lark

    from questc.syntax import parser as module

    fresh = Lark(module.grammar_text(), **module.LARK_OPTIONS)
    copy = pickle.loads(module.pickled_parser(Lark(module.grammar_text(), **module.LARK_OPTIONS)))
    sources = _sources()
    assert len(sources) > 40 and sum("errors" in name for name, _ in sources) > 5
    results = {}
    for label, parser in (("fresh", fresh), ("copy", copy)):
        monkeypatch.setattr(module, "quest_parser", lambda parser=parser: parser)
        results[label] = [module.parse_source(text, name) for name, text in sources]
    assert results["copy"] == results["fresh"]
    assert any(d.help for r in results["copy"] for d in r.diagnostics if d.code == "Q001")
    assert any(r.diagnostics for r in results["copy"]) and any(r.tree for r in results["copy"])


def test_the_pickled_parser_holds_every_lexer_state_compiled(monkeypatch):
    """Every state's expressions come back from the pickle compiled, each equal (same pattern,
    flags and compiled code) to what re compiles; when the compiled form cannot be had (another
    interpreter's internals), the expressions are pickled as re pickles them and still match."""
    import pickle
    import re

    from lark import Lark

    from questc.syntax import parser as module

    def expressions(parser):
        lexer = parser.parser.lexer
        return [
            mre
            for state in (*lexer.lexers.values(), lexer.root_lexer)
            if state._scanner is not None
            for mre in state._scanner._mres
        ]

    made, args = module._compiled_expression(re.compile("(?P<A>piece)|(?P<B>[a-z]+)"))
    assert made(*args).match("pit").lastgroup == "B"  # CPython's compiled form, not a fallback
    built = Lark(module.grammar_text(), **module.LARK_OPTIONS)
    copy = pickle.loads(module.pickled_parser(built))
    loaded = expressions(copy)
    assert len(loaded) == len(expressions(built)) > 100  # a state's lexer is compiled before it lexes
    assert all(mre == re.compile(mre.pattern, mre.flags) for mre in loaded)
    assert copy.parse("piece R1 room_4x4 at 0,0\n")

    def broken():
        raise ImportError("no re internals here")

    monkeypatch.setattr(module, "_re_internals", broken)
    assert module._compiled_expression(re.compile("a|b")) is None
    plain = pickle.loads(module.pickled_parser(Lark(module.grammar_text(), **module.LARK_OPTIONS)))
    assert all(mre == re.compile(mre.pattern, mre.flags) for mre in expressions(plain))
    assert plain.parse("piece R1 room_4x4 at 0,0\n")


@pytest.mark.slow
def test_a_parser_pickle_cannot_carry_is_cached_in_larks_format(tmp_path, monkeypatch):
    """The check before caching can fail: without Lark's Shift and Reduce pickled by reference,
    the copy does not parse; the entry is then Lark's own format, and it loads."""
    from lark import Lark

    from questc.syntax import parser as module

    monkeypatch.setattr(module, "_module_objects", lambda name: {})
    with pytest.raises(ValueError):
        module.pickled_parser(Lark(module.grammar_text(), **module.LARK_OPTIONS))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    module.quest_parser.cache_clear()
    try:
        module.quest_parser()
        [entry] = _entries(tmp_path)
        assert entry.read_bytes()[4:5] == module._SAVED
        module.quest_parser.cache_clear()
        loaded = module.quest_parser()
        assert module._probe(loaded) == module._probe(Lark(module.grammar_text(), **module.LARK_OPTIONS))
        assert len(module._probe(loaded)) > 20
    finally:
        module.quest_parser.cache_clear()


@pytest.mark.slow
def test_two_grammars_keep_an_entry_each_and_the_entries_are_bounded(tmp_path, monkeypatch):
    """Two installs of questc with different grammars on one account (two venvs): each reads its
    own entry on every run, neither rewrites the other's; and only GRAMMARS_KEPT entries stay."""
    from questc.syntax import parser as module

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar = module.grammar_text()
    built = []
    pickled = module.pickled_parser

    def counting(parser):  # called once for each parser built (and cached)
        built.append(parser)
        return pickled(parser)

    monkeypatch.setattr(module, "pickled_parser", counting)

    def run(text: str):
        monkeypatch.setattr(module, "grammar_text", lambda: text)
        module.quest_parser.cache_clear()
        try:
            return module.quest_parser()
        finally:
            module.quest_parser.cache_clear()

    other = grammar + "\n// another install's grammar\n"
    run(grammar)
    run(other)
    assert len(built) == 2 and len(_entries(tmp_path)) == 2
    written = {p: p.stat().st_mtime_ns for p in _entries(tmp_path)}
    for _ in range(3):
        run(grammar)
        run(other)
    assert len(built) == 2  # read back, never rebuilt
    assert {p: p.stat().st_mtime_ns for p in _entries(tmp_path)} == written  # nor rewritten
    for version in range(module.GRAMMARS_KEPT + 2):
        run(grammar + f"\n// version {version}\n")
    names = {p.name for p in _entries(tmp_path)}
    assert len(names) == module.GRAMMARS_KEPT
    assert module.parser_cache_name(grammar + f"\n// version {module.GRAMMARS_KEPT + 1}\n") in names
    assert module.parser_cache_name(grammar) not in names  # the oldest went
