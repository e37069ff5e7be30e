"""The grammar itself: it builds with Lark's strict checks, Lark's cache works, and every
terminal the parser can expect has words a quest writer understands."""
from __future__ import annotations

import logging
import tempfile
from pathlib import Path

import pytest
from lark import Lark
from lark.exceptions import GrammarError, LexError

from questc.syntax import parse_source
from questc.syntax.parser import _SAME, _TERMINAL_WORDS, describe_expected, grammar_text, quest_parser

FIXTURES = Path(__file__).parent / "fixtures" / "syntax"
ALL_FEATURES = sorted((FIXTURES / "features").glob("*.quest")) + [FIXTURES / "language_example.quest"]


def test_grammar_builds_in_strict_mode():
    """strict=True (with interegular) fails on any shift/reduce conflict or terminal collision."""
    import interegular  # noqa: F401  -- without it Lark skips the collision check silently

    parser = quest_parser(strict=True)
    assert parser.options.strict is True
    assert parser.options.parser == "lalr"


def test_strict_mode_does_catch_collisions():
    """The check above can fail: Lark's strict mode rejects two terminals matching the same text."""
    colliding = 'start: A | B\nA: /a+/\nB: /ab?/\n'
    with pytest.raises((GrammarError, LexError)):
        Lark(colliding, parser="lalr", lexer="contextual", strict=True)


def test_strict_mode_does_catch_conflicts():
    ambiguous = 'start: a | b\na: "x"\nb: "x"\n'
    with pytest.raises(GrammarError):
        Lark(ambiguous, parser="lalr", strict=True)


@pytest.mark.parametrize("path", ALL_FEATURES, ids=lambda p: p.name)
def test_strict_parser_agrees_with_the_cached_one(path):
    """The strict parser and the (cached) parser questc uses build the same tree."""
    text = path.read_text(encoding="utf-8")
    strict_tree = quest_parser(strict=True).parse(text)
    assert quest_parser().parse(text) == strict_tree


def test_lark_cache_is_written_and_loaded(tmp_path, monkeypatch, caplog):
    """The parser tables are cached in the temp folder and loaded from there the next time."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    caplog.set_level(logging.DEBUG, logger="lark")
    quest_parser.cache_clear()
    try:
        built = quest_parser()
        assert built.options.cache is True
        caches = list(tmp_path.glob(".lark_cache_*.tmp"))
        assert len(caches) == 1, "building the parser wrote no cache file"
        quest_parser.cache_clear()
        caplog.clear()
        loaded = quest_parser()
        assert "Loading grammar from cache" in caplog.text
        assert loaded is not built
        text = (FIXTURES / "language_example.quest").read_text(encoding="utf-8")
        assert loaded.parse(text) == quest_parser(strict=True).parse(text)
        # The error-message words still work on a parser loaded from the cache.
        result = parse_source('quest "Q" { conquest 3 }\npiece R1 room_4x4 at 0,0 @\n')
        assert [d.code for d in result.diagnostics] == ["Q001"]
        assert "`turn`" in result.diagnostics[0].message
    finally:
        quest_parser.cache_clear()


def test_grammar_file_is_the_packaged_one():
    text = grammar_text()
    assert "LONG_STRING" in text and text.lstrip().startswith("//")


def _expectable_terminals():
    parser = quest_parser()
    ignored = set(parser.lexer_conf.ignore)
    return parser, [t for t in parser.terminals if t.name not in ignored and t.name != "COMMENT"]


def test_every_terminal_has_words_for_a_quest_writer():
    """No raw token name (NAME, _NL, __ANON_3, ...) can reach an error message."""
    parser, terminals = _expectable_terminals()
    for terminal in terminals:
        words = describe_expected(parser, {terminal.name})
        name = _SAME.get(terminal.name, terminal.name)
        if terminal.pattern.type == "str":
            assert words == f"`{terminal.pattern.value}`"
        else:
            assert name in _TERMINAL_WORDS, f"terminal {terminal.name} has no words for error messages"
            assert words == _TERMINAL_WORDS[name]
        assert terminal.name not in words and "__" not in words


def test_describe_expected_lists_and_shortens():
    parser = quest_parser()
    assert describe_expected(parser, {"INT"}) == "a number"
    assert describe_expected(parser, {"INT", "SIGNED"}) == "a number or a signed number like +2"
    # Three kinds of string read as one.
    assert describe_expected(parser, {"STRING", "LONG_STRING", "UNCLOSED_STRING"}) == "a string in quotes"
    many = {"PIECE", "DOOR", "AREA", "NAMED", "ON", "CHESTS", "OVERLORD", "VICTORY", "$END"}
    words = describe_expected(parser, many)
    assert words.startswith("the end of the file or a statement such as `area`")
    assert words.endswith(", ...")


def test_grammar_keeps_keywords_usable_as_names():
    """Keywords are not reserved where a name is expected (`piece at ...`, `area start "S" start`)."""
    text = 'quest "Q" { conquest 3 }\npiece area room_4x4 at 0,0\narea start "S" start { pieces area }\n'
    result = parse_source(text)
    assert result.diagnostics == ()
    piece, area = result.tree.items
    assert piece.id.value == "area"
    assert area.id.value == "start" and area.start is True


def test_describe_expected_of_nothing_is_still_a_sentence():
    assert describe_expected(quest_parser(), set()) == "something else"
