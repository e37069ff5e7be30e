"""The grammar itself: it builds with Lark's strict checks, and every terminal the parser
can expect has words a quest writer understands."""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark
from lark.exceptions import GrammarError, LexError

from questc.syntax import parse_source
from questc.syntax.parser import _SAME, _TERMINAL_WORDS, LARK_OPTIONS, describe_expected, grammar_text, quest_parser

FIXTURES = Path(__file__).parent / "fixtures" / "syntax"
ALL_FEATURES = sorted((FIXTURES / "features").glob("*.quest")) + [FIXTURES / "language_example.quest"]


@pytest.mark.slow
def test_grammar_builds_in_strict_mode():
    """strict=True (with interegular) fails on any shift/reduce conflict or terminal collision."""
    import interegular  # noqa: F401  -- without it Lark skips the collision check silently

    parser = Lark(grammar_text(), **LARK_OPTIONS, strict=True)
    assert parser.options.strict is True
    assert parser.options.parser == "lalr"


def test_strict_mode_does_catch_collisions():
    """The check above can fail: Lark's strict mode rejects two terminals matching the same text."""
    colliding = "start: A | B\nA: /a+/\nB: /ab?/\n"
    with pytest.raises((GrammarError, LexError)):
        Lark(colliding, parser="lalr", lexer="contextual", strict=True)


def test_strict_mode_does_catch_conflicts():
    ambiguous = 'start: a | b\na: "x"\nb: "x"\n'
    with pytest.raises(GrammarError):
        Lark(ambiguous, parser="lalr", strict=True)


def test_grammar_file_is_the_packaged_one():
    text = grammar_text()
    assert "LONG_STRING" in text and text.lstrip().startswith("//")


def _expectable_terminals():
    parser = quest_parser()
    ignored = set(parser.lexer_conf.ignore)
    return [t for t in parser.terminals if t.name not in ignored and t.name != "COMMENT"]


def test_every_terminal_has_words_for_a_quest_writer():
    """No raw token name (NAME, _NL, __ANON_3, ...) can reach an error message."""
    terminals = _expectable_terminals()
    for terminal in terminals:
        words = describe_expected({terminal.name})
        name = _SAME.get(terminal.name, terminal.name)
        if terminal.pattern.type == "str":
            assert words == f"`{terminal.pattern.value}`"
        else:
            assert name in _TERMINAL_WORDS, f"terminal {terminal.name} has no words for error messages"
            assert words == _TERMINAL_WORDS[name]
        assert terminal.name not in words and "__" not in words


def test_describe_expected_lists_and_shortens():
    assert describe_expected({"INT"}) == "a number"
    assert describe_expected({"INT", "SIGNED"}) == "a number or a signed number like +2"
    # Three kinds of string read as one.
    assert describe_expected({"STRING", "LONG_STRING", "UNCLOSED_STRING"}) == "a string in quotes"
    many = {"PIECE", "DOOR", "AREA", "NAMED", "ON", "CHESTS", "OVERLORD", "VICTORY", "$END"}
    words = describe_expected(many)
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
    assert describe_expected(set()) == "something else"
