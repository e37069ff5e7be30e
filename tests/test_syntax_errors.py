"""Syntax errors (Q001-Q005): a fixture per kind with its text output as a snapshot, messages in
a quest writer's words, recovery that reports every cause once and no consequence, and never a
traceback whatever the input.

Snapshots live in tests/snapshots/syntax/; regenerate them with QUESTC_UPDATE_SNAPSHOTS=1.
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import ACCEPTANCE
from helpers import assert_codes, span_text, where
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from questc.api import check_file, check_source
from questc.cli.output import print_report
from questc.syntax import parse_source
from questc.syntax.parser import HINT_EXAMPLES, quest_parser

HERE = Path(__file__).parent
ERRORS = HERE / "fixtures" / "syntax" / "errors"
FEATURES = HERE / "fixtures" / "syntax" / "features"
SNAPSHOTS = HERE / "snapshots" / "syntax"
UPDATE = os.environ.get("QUESTC_UPDATE_SNAPSHOTS") == "1"

# fixture -> the codes it must give, exactly (any order, counts matter)
EXPECTED = {
    "q001_bad_character": ["Q001"],
    "q001_bad_direction": ["Q001"],
    "q001_file_ends_in_block": ["Q001"],
    "q001_line_ends_early": ["Q001"],
    "q001_missing_at": ["Q001"],
    "q001_points_with_commas": ["Q001"],
    "q001_unclosed_block": ["Q001"],
    "q001_victory_without_when": ["Q001"],
    "q002_single_quoted": ["Q002"],
    "q002_triple_quoted": ["Q002"],
    "q003_backwards_range": ["Q003"],
    "q003_bad_turn": ["Q003"],
    "q003_open_range": ["Q003"],
    "q003_piece_point_and_rect": ["Q003", "Q003"],
    "q003_point_trailing_comma": ["Q003"],
    "q004_duplicate_field": ["Q004"],
    "q004_second_header": ["Q004"],
    "q004_unknown_field": ["Q004"],
    "q005_comments_only": ["Q005"],
    "q005_empty": ["Q005"],
    "q005_no_header": ["Q005"],
    "three_independent_errors": ["Q003", "Q001", "Q001"],
    "many_errors": ["Q003", "Q004", "Q003", "Q001", "Q001", "Q003", "Q001", "Q001"],
    "string_then_other_error": ["Q002", "Q003"],
}


def _terminal_names() -> set[str]:
    literals = {t.name for t in quest_parser().terminals if t.pattern.type == "str"}
    return literals | {"$END", "_NL", "NAME", "INT", "COMMENT"}


RAW = re.compile(r"__ANON|\$END|\b_NL\b|__IGNORE")


def assert_writer_words(diagnostic) -> None:
    """No grammar token name in anything a writer reads."""
    names = _terminal_names()
    texts = [diagnostic.message, diagnostic.label or "", diagnostic.help or ""]
    texts += [label.message for label in diagnostic.labels]
    for text in texts:
        assert not RAW.search(text), f"raw token name in {text!r}"
        prose = re.sub(r"`[^`]*`", "", text)  # quoted syntax (`piece ID TYPE at X,Y`) is the writer's own
        words = set(re.findall(r"[A-Z_][A-Z0-9_]+", prose))
        assert not words & names, f"token name {words & names} in {text!r}"


def fixture(name: str) -> tuple[str, Path]:
    path = ERRORS / f"{name}.quest"
    return path.read_text(encoding="utf-8"), path


def test_every_error_fixture_is_listed():
    assert {p.stem for p in ERRORS.glob("*.quest")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_error_fixture_codes_and_snapshot(name):
    text, _ = fixture(name)
    result = check_source(text, f"{name}.quest")
    assert Counter(d.code for d in result.diagnostics) == Counter(EXPECTED[name])
    assert result.tree is not None, "recovery always gives a tree"
    assert result.model is None, "no later stage runs on a file with syntax errors"
    for d in result.diagnostics:
        assert_writer_words(d)
        assert span_text(text, d.span) is not None  # lines, columns and offsets agree
        for label in d.labels:
            span_text(text, label.span)
    stream = io.StringIO()
    print_report([result], "text", stream)
    rendered = stream.getvalue()
    assert "Traceback" not in rendered and "\x1b[" not in rendered
    snapshot = SNAPSHOTS / f"{name}.txt"
    if UPDATE:
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        snapshot.write_text(rendered, encoding="utf-8")
    assert snapshot.exists(), f"no snapshot {snapshot.name}: run with QUESTC_UPDATE_SNAPSHOTS=1"
    assert rendered == snapshot.read_text(encoding="utf-8")


def test_no_stale_snapshots():
    assert {p.stem for p in SNAPSHOTS.glob("*.txt")} == set(EXPECTED)


# ---- exact places ------------------------------------------------------------------


def _only(name):
    text, path = fixture(name)
    result = parse_source(text, str(path))
    assert len(result.diagnostics) == 1, [d.message for d in result.diagnostics]
    return text, result.diagnostics[0]


def test_q003_trailing_comma_points_at_the_whole_value():
    text, d = _only("q003_point_trailing_comma")
    assert d.code == "Q003" and where(d.span) == (4, 22, 4, 24) and span_text(text, d.span) == "4,"
    assert d.message == "`4,` is not a point" and "4,2" in d.help


def test_q003_open_and_backwards_ranges():
    text, d = _only("q003_open_range")
    assert where(d.span) == (2, 11, 2, 14) and d.message == "`3..` is not a range"
    text, d = _only("q003_backwards_range")
    assert where(d.span) == (2, 11, 2, 15) and d.help == "write `2..5`"


def test_q003_bad_turn():
    text, d = _only("q003_bad_turn")
    assert span_text(text, d.span) == "45" and "0, 90, 180 or 270" in d.help


def test_q004_duplicate_points_at_both():
    text, d = _only("q004_duplicate_field")
    assert d.code == "Q004" and where(d.span) == (3, 3, 3, 11) and span_text(text, d.span) == "conquest"
    (first,) = d.labels
    assert where(first.span) == (2, 3, 2, 13) and first.message == "first given here"


def test_q004_treachery_colour_given_twice_labels_the_first_and_is_not_summed():
    source = (
        'quest "T" {\n  conquest 3\n  treachery event 2, trap 3, event 1\n}\n'
        'piece R1 room_4x4 at 0,0\narea A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        "victory heroes when revealed A\n"
    )
    result = assert_codes(source, "Q004")
    (d,) = result.diagnostics
    assert d.message == "the treachery colour `event` is given twice"
    assert span_text(result.source, d.span) == "event" and where(d.span) == (3, 30, 3, 35)
    (first,) = d.labels
    assert span_text(result.source, first.span) == "event 2" and first.message == "first given here"
    assert "`event 3`" in d.help
    # Near misses: each colour once, and a colour left out, are fine.
    assert_codes(source.replace(", event 1", ", monster 1"))
    assert_codes(source.replace(", event 1", ""))
    parse = parse_source(result.source, "<quest>")
    assert [(p.colour.value, p.amount) for p in parse.tree.header.get("treachery").value] == [("event", 2), ("trap", 3)]


def test_q004_unknown_field_lists_the_fields():
    text, d = _only("q004_unknown_field")
    assert span_text(text, d.span) == "colour" and d.message == "`colour` is not a header field"
    assert "conquest" in d.help and "expansions" in d.help


def test_q002_spans_are_the_opening_quotes():
    text, d = _only("q002_single_quoted")
    assert where(d.span) == (1, 7, 1, 8)
    text, d = _only("q002_triple_quoted")
    assert where(d.span) == (3, 9, 3, 12) and span_text(text, d.span) == '"""' and '"""' in d.help


def test_q002_single_quoted_string_spoils_only_its_line():
    text, path = fixture("q002_single_quoted")
    tree = parse_source(text, str(path)).tree
    assert [type(i).__name__ for i in tree.items] == ["Piece", "Area", "Victory"]


def test_q005_places():
    _, d = _only("q005_no_header")
    assert where(d.span) == (2, 1, 2, 6)  # the first statement's keyword, after the comment
    _, d = _only("q005_empty")
    assert where(d.span) == (1, 1, 1, 1) and d.label == "this file holds no quest"


def test_unclosed_block_is_one_error_pointing_at_its_brace():
    text, d = _only("q001_unclosed_block")
    assert span_text(text, d.span) == "victory" and "line 5" in d.message
    (opener,) = d.labels
    assert where(opener.span) == (5, 21, 5, 22) and opener.message == "this block is never closed"


def test_file_ending_in_a_block():
    text, d = _only("q001_file_ends_in_block")
    assert d.message.startswith("the file ends: expected")
    assert [where(label.span) for label in d.labels] == [(5, 21, 5, 22)]


# ---- recovery: every cause once, no cascade ----------------------------------------------


def test_three_independent_errors_give_exactly_three():
    text, path = fixture("three_independent_errors")
    result = parse_source(text, str(path))
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("Q003", 3), ("Q001", 8), ("Q001", 10)]
    # What survived around the errors is in the tree.
    assert [type(i).__name__ for i in result.tree.items] == ["Piece", "Area"]
    assert result.tree.header.get("conquest").value == 3


def test_many_errors_each_once_in_order():
    text, path = fixture("many_errors")
    result = parse_source(text, str(path))
    assert sorted((d.span.line, d.code) for d in result.diagnostics) == [
        (3, "Q003"),
        (4, "Q004"),
        (6, "Q003"),
        (9, "Q001"),
        (10, "Q001"),
        (11, "Q003"),
        (13, "Q001"),
        (14, "Q001"),
    ]
    # Recovery keeps every statement it could parse, and the value checks run on them
    # (the bad turn on line 6 is found by the transformer, after the parse).
    assert [type(i).__name__ for i in result.tree.items] == ["Piece", "Area", "Victory"]
    assert result.tree.header.get("conquest").value == 3
    assert result.tree.of(__import__("questc.syntax.nodes", fromlist=["Area"]).Area)[0].statements


def test_an_unclosed_string_hides_its_consequences_not_later_causes():
    text, path = fixture("string_then_other_error")
    result = parse_source(text, str(path))
    assert [(d.code, d.span.line) for d in result.diagnostics] == [("Q002", 7), ("Q003", 12)]


@pytest.mark.parametrize("hint, example", [(h, e) for h, examples in HINT_EXAMPLES.items() for e in examples])
def test_each_hint_example_gets_its_own_hint(hint, example):
    result = parse_source(example)
    assert result.diagnostics[0].code == "Q001"
    assert result.diagnostics[0].help == hint


@pytest.mark.parametrize(
    "source, codes",
    [
        ('quest "Q" {\n  players 3 5\n  conquest 3\n}\n', ["Q001"]),
        ('quest "Q" { conquest 3 }\npiece R1 room_4x4 at 4\n', ["Q003"]),
        ('quest "Q" { conquest 3 }\npiece R1 room_4x4 at 1.5,0\n', ["Q003"]),
        ('quest "Q" { conquest 3 }\npiece R1 room_4x4 at 0, 0\n', ["Q003"]),
        ('quest "Q" { conquest 3 }\narea A { glyph at R1:2 }\n', ["Q003"]),
        ('quest "Q" { conquest }\n', ["Q001"]),
        ('quest "Q" { conquest 3; conquest 3; id a; id b }\n', ["Q004", "Q004"]),
        ('quest "Q" { conquest 3 }\nvictory heroes when conquest == 3\n', ["Q001"]),
        ('quest "Q" { conquest 3 }\nvictory heroes when (killed boss\n', ["Q001"]),
        ('quest "Q" { conquest 3 }\nnamed n "N" giant { wounds ++1 }\n', ["Q001"]),
        ('quest "Q" { conquest 3 }\noverlord { card Danger x2 }\n', ["Q001"]),
        ('quest "Q" { conquest 3 }\nchests { silver 1 silver }\n', ["Q001"]),
        ('quest "Q" { conquest 3 }\n}\n', ["Q001"]),
        (
            'quest "Q" {\n  conquest 3\npiece R1 room_4x4 at 0,0\narea A { pieces R1 }\nvictory heroes when revealed A\n',
            ["Q001"],
        ),
        ("\n\n   \n", ["Q005"]),
    ],
)
def test_inline_syntax_errors(source, codes):
    result = assert_codes(source, *codes)
    for d in result.diagnostics:
        assert_writer_words(d)


def test_a_bad_character_says_exactly_what_may_follow():
    result = parse_source('quest "Q" { conquest 3 }\npiece R1 room_4x4 at 0,0 @\n')
    (d,) = result.diagnostics
    assert d.message == "found `@`: expected the end of the file, the end of the statement or `turn`"


def test_not_utf8_is_a_diagnostic(tmp_path):
    path = tmp_path / "latin1.quest"
    path.write_bytes('quest "Caf\xe9" { conquest 3 }\n'.encode("latin-1"))
    result = check_file(path)
    assert [d.code for d in result.diagnostics] == ["Q001"]
    assert where(result.diagnostics[0].span)[:2] == (1, 11)


@pytest.mark.skipif(not ACCEPTANCE.is_dir(), reason="acceptance cases not present")
@pytest.mark.parametrize(
    "case", ["q001_syntax_error", "q003_bad_range", "q004_duplicate_header_field", "q005_no_header"]
)
def test_acceptance_syntax_cases(case):
    result = check_file(ACCEPTANCE / f"{case}.quest")
    assert [d.code for d in result.diagnostics] == [case[:4].upper()]


# ---- never a traceback ------------------------------------------------------------------

SOURCES = [p.read_text(encoding="utf-8") for p in sorted(FEATURES.glob("*.quest")) + sorted(ERRORS.glob("*.quest"))]
PIECES = list('{}();:,."#\\\n\t +-x0123456789') + [
    '"""',
    "quest",
    "area",
    "at",
    "..",
    "on",
    "victory",
    "\r\n",
    "\ufeff",
    "é",
    "R1:",
    "not",
    "{ }",
    "\x00",
]


@st.composite
def mutated_sources(draw):
    text = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["insert", "delete", "copy"]))
        at = draw(st.integers(0, len(text)))
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 12)) :]
        else:
            start = draw(st.integers(0, len(text)))
            text = text[:at] + text[start : start + draw(st.integers(1, 40))] + text[at:]
    return text


@settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_sources())
@pytest.mark.slow
def test_mutated_sources_never_raise(text):
    result = parse_source(text, "fuzz.quest")
    assert result.tree is not None or result.diagnostics
    for d in result.diagnostics:
        assert d.code in {"Q001", "Q002", "Q003", "Q004", "Q005"}
        assert_writer_words(d)
        assert 1 <= d.span.line <= d.span.end_line and d.span.column >= 1
        assert (d.span.line, d.span.column) <= (d.span.end_line, d.span.end_column)


REPO_QUESTS = Path(__file__).resolve().parent.parent / "quests"


# ---- a misspelt block statement is one error, not one per line of its block ---------------------


@pytest.mark.parametrize("keyword", ["Named", "nmed", "namedd"])
def test_a_misspelt_block_statement_is_one_error(keyword):
    """`Named grubba ... {` gave six errors: its own and one for each line of its block."""
    source = (
        (REPO_QUESTS / "chandlers_cellar.quest")
        .read_text(encoding="utf-8")
        .replace('named grubba "Grubba Wickmaw" ogre {', f'{keyword} grubba "Grubba Wickmaw" ogre {{')
    )
    result = check_source(source, "cellar.quest")
    assert [d.code for d in result.diagnostics] == ["Q001"], [d.message for d in result.diagnostics]
    assert f"`{keyword}`" in result.diagnostics[0].message


def test_an_error_after_the_skipped_block_is_still_reported():
    source = (
        (REPO_QUESTS / "chandlers_cellar.quest")
        .read_text(encoding="utf-8")
        .replace('named grubba "Grubba Wickmaw" ogre {', 'Named grubba "Grubba Wickmaw" ogre {')
        .replace("victory heroes", "victorie heroes")
    )
    assert [d.code for d in check_source(source, "cellar.quest").diagnostics] == ["Q001", "Q001"]


def test_an_unclosed_misspelt_block_does_not_swallow_the_file():
    source = 'quest "T" {\n  conquest 3\n}\nNamed boss "B" ogre {\n  wounds +2\npiece R1 room_4x4 at 0,0\n'
    result = check_source(source, "t.quest")
    assert result.diagnostics and result.diagnostics[0].code == "Q001"
