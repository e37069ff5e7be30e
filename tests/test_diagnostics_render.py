"""Rendering diagnostics: rustc-like text (INTERFACE.md's example to the character), colour
only on a terminal and never under NO_COLOR, the summary line, and the `--format json` object."""

from __future__ import annotations

import io
import json
import os

import pytest

from questc.api import check_source
from questc.diagnostics.core import Diagnostic, Label, Severity, Span
from questc.emit.json_report import diagnostic_json, render_json
from questc.emit.report import Summary, display_path
from questc.emit.text import TextRenderer, use_colour

ESC = "\x1b["


def _interface_example():
    lines = [f"# line {i}" for i in range(1, 40)]
    lines[13] = "door vault between T1 R2 rune red"
    lines[30] = "  runekey red at 13,9"
    source = "\n".join(lines) + "\n"
    file = "quests/drowned.quest"
    d = Diagnostic(
        "Q303",
        Severity.ERROR,
        "the red rune door `vault` guards its own key",
        Span(file, 14, 6, 14, 11),
        "this door needs the red runekey",
        (Label(Span(file, 31, 3, 31, 10), "the only red runekey is behind it"),),
        "move the runekey to an area reachable without opening `vault`",
    )
    return source, file, d


def test_text_matches_the_interface_example_exactly():
    source, file, d = _interface_example()
    expected = (
        "error[Q303]: the red rune door `vault` guards its own key\n"
        "  --> quests/drowned.quest:14:6\n"
        "   |\n"
        "14 | door vault between T1 R2 rune red\n"
        "   |      ^^^^^ this door needs the red runekey\n"
        "...\n"
        "31 |   runekey red at 13,9\n"
        "   |   ------- the only red runekey is behind it\n"
        "   = help: move the runekey to an area reachable without opening `vault`"
    )
    assert TextRenderer({file: source}).render(d) == expected


def _render(source, span, label="here", labels=(), help=None, severity=Severity.ERROR, colour=False):
    d = Diagnostic("Q001", severity, "msg", span, label, tuple(labels), help)
    return TextRenderer({"f.quest": source}, colour=colour).render(d)


def test_adjacent_lines_have_no_gap_marker_and_labels_sort_by_line():
    source = "a b c\nd e f\n"
    out = _render(source, Span("f.quest", 2, 3, 2, 4), labels=[Label(Span("f.quest", 1, 1, 1, 2), "first")])
    assert out.splitlines()[3:] == ["1 | a b c", "  | - first", "2 | d e f", "  |   ^ here"]


def test_several_marks_on_one_line_primary_first():
    source = "piece R1 room_4x4 at 0,0\n"
    out = _render(source, Span("f.quest", 1, 22, 1, 25), label="p", labels=[Label(Span("f.quest", 1, 7, 1, 9), "s")])
    assert out.splitlines()[3:] == ["1 | piece R1 room_4x4 at 0,0", "  |                      ^^^ p", "  |       -- s"]


def test_tabs_keep_the_marks_under_the_text():
    source = "\tglyph at 0,0 actve\n"
    out = _render(source, Span("f.quest", 1, 15, 1, 20))
    line, mark = out.splitlines()[3:5]
    assert line == "1 |  glyph at 0,0 actve"
    assert mark.index("^") == line.index("actve") and mark.count("^") == 5


def test_multi_line_span_marks_to_the_end_of_its_first_line():
    source = 'intro """\n  text\n"""\n'
    out = _render(source, Span("f.quest", 1, 7, 3, 4))
    assert out.splitlines()[4] == "  |       ^^^ here"


def test_empty_span_still_gets_one_mark_and_no_label_no_trailing_space():
    out = _render("abc\n", Span("f.quest", 1, 4, 1, 4), label="")
    assert out.splitlines()[4] == "  |    ^"


def test_label_in_another_file():
    d = Diagnostic(
        "Q106",
        Severity.ERROR,
        "msg",
        Span("a.quest", 1, 1, 1, 4),
        "here",
        (Label(Span("pack.yaml", 2, 3, 2, 5), "there"),),
    )
    out = TextRenderer({"a.quest": "use\n", "pack.yaml": "x:\n  yy: 1\n"}).render(d)
    assert "::: pack.yaml:2:3" in out
    assert out.splitlines()[-2:] == ["2 |   yy: 1", "  |   -- there"]


def test_unknown_source_prints_no_snippet_but_never_fails():
    d = Diagnostic("Q001", Severity.WARNING, "msg", Span("gone.quest", 7, 1, 7, 2), "x")
    out = TextRenderer({}).render(d)
    assert out.splitlines() == ["warning[Q001]: msg", " --> gone.quest:7:1", "  |"]


def test_colour_only_when_asked():
    source, file, d = _interface_example()
    plain = TextRenderer({file: source}).render(d)
    painted = TextRenderer({file: source}, colour=True).render(d)
    assert ESC not in plain
    assert painted.startswith("\x1b[1;31merror[Q303]")
    assert (
        painted.replace("\x1b[1;31m", "").replace("\x1b[1;34m", "").replace("\x1b[1m", "").replace("\x1b[0m", "")
        == plain
    )


class _Stream(io.StringIO):
    def __init__(self, tty):
        super().__init__()
        self._tty = tty

    def isatty(self):
        return self._tty


@pytest.mark.parametrize(
    "tty, no_color, expected",
    [
        (True, None, True),
        (True, "1", False),
        (True, "", True),  # no-color.org: only a non-empty value counts
        (False, None, False),
        (False, "1", False),
    ],
)
def test_use_colour(monkeypatch, tty, no_color, expected):
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert use_colour(_Stream(tty)) is expected
    assert use_colour(object()) is False


@pytest.mark.parametrize(
    "tty, env, mode, expected",
    [
        (False, {"FORCE_COLOR": "1"}, "auto", True),  # force-color.org: colour into a pipe (a CI log)
        (False, {"FORCE_COLOR": "0"}, "auto", True),  # any non-empty value counts
        (False, {"FORCE_COLOR": ""}, "auto", False),
        (True, {"FORCE_COLOR": "1", "NO_COLOR": "1"}, "auto", False),  # NO_COLOR wins, as in Python 3.13
        (True, {"TERM": "dumb"}, "auto", False),
        (True, {"TERM": "dumb", "FORCE_COLOR": "1"}, "auto", True),
        (False, {}, "always", True),
        (False, {"NO_COLOR": "1"}, "always", True),  # the command line wins over the environment
        (True, {}, "never", False),
        (True, {"FORCE_COLOR": "1"}, "never", False),
    ],
)
def test_colour_modes_and_force_color(monkeypatch, tty, env, mode, expected):
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert use_colour(_Stream(tty), mode) is expected


@pytest.mark.parametrize(
    "counts, infos, sentence",
    [
        ((1, 0, 0, 3), False, "0 errors, 0 warnings in 1 file"),
        ((3, 2, 1, 0), False, "2 errors, 1 warning in 3 files"),
        ((2, 1, 2, 3), False, "1 error, 2 warnings in 2 files"),
        ((2, 1, 2, 3), True, "1 error, 2 warnings, 3 infos in 2 files"),
        ((2, 1, 2, 1), True, "1 error, 2 warnings, 1 info in 2 files"),
    ],
)
def test_summary_sentence(counts, infos, sentence):
    files, errors, warnings, n_infos = counts
    assert Summary(files, errors, warnings, n_infos).sentence(with_infos=infos) == sentence


def test_summary_counts_by_severity():
    span = Span("f", 1, 1, 1, 2)
    ds = [Diagnostic("Q1", s, "m", span) for s in (Severity.ERROR, Severity.ERROR, Severity.WARNING, Severity.INFO)]
    assert Summary.of(ds, 4) == Summary(4, 2, 1, 1)


# ---- JSON -------------------------------------------------------------------------------


def test_json_document_shape(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = 'quest "Q" {\n  conquest 3\n  conquest 4\n}\n'
    path = str(tmp_path / "quests" / "twice.quest")
    result = check_source(source, path)
    document = json.loads(render_json(result.diagnostics, 2))
    assert list(document) == ["format_version", "generator", "diagnostics", "summary"]
    assert document["format_version"] == 1
    from questc import __version__

    assert document["generator"] == {"name": "questc", "version": __version__}
    assert document["summary"] == {"files": 2, "errors": 1, "warnings": 0, "infos": 0}
    (d,) = document["diagnostics"]
    assert list(d) == [
        "code",
        "severity",
        "message",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "help",
        "labels",
        "fixes",
    ]
    assert d == {
        "code": "Q004",
        "severity": "error",
        "message": "the header field `conquest` is given twice",
        "file": "quests/twice.quest",
        "line": 3,
        "column": 3,
        "end_line": 3,
        "end_column": 11,
        "help": "keep one `conquest` line",
        "labels": [
            {
                "file": "quests/twice.quest",
                "line": 2,
                "column": 3,
                "end_line": 2,
                "end_column": 13,
                "message": "first given here",
            }
        ],
        "fixes": [
            {
                "message": "remove the second `conquest` line",
                "applicability": "unsafe",
                "edits": [{"line": 3, "column": 1, "end_line": 4, "end_column": 1, "text": ""}],
            }
        ],
    }


def test_json_help_is_null_when_there_is_none_and_text_is_not_escaped():
    d = Diagnostic("Q001", Severity.WARNING, "found `é`", Span("x.quest", 1, 1, 1, 2))
    out = diagnostic_json(d)
    assert out["help"] is None and out["labels"] == []
    assert "é" in render_json([d], 1)


def test_display_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert display_path(str(tmp_path / "a" / "b.quest")) == "a/b.quest"
    assert display_path("a/b.quest") == "a/b.quest"
    outside = os.path.join(os.path.dirname(str(tmp_path)), "elsewhere.quest")
    assert display_path(outside) == outside.replace(os.sep, "/")


def test_no_line_ends_in_white_space():
    """Not even for an empty source line or a span on a blank line (snapshots stay stable)."""
    source = 'quest "Q" {\n\n  conquest 3\n  conquest 4   \n}\n'
    d = Diagnostic(
        "Q004",
        Severity.ERROR,
        "m",
        Span("f.quest", 4, 3, 4, 11),
        "again",
        (Label(Span("f.quest", 2, 1, 2, 1), ""), Label(Span("f.quest", 3, 3, 3, 13), "first")),
    )
    out = TextRenderer({"f.quest": source}).render(d)
    assert "2 |\n" in out + "\n"
    for line in out.splitlines():
        assert line == line.rstrip(), repr(line)


def test_a_very_long_source_line_is_shown_as_a_window_around_the_span():
    from questc.api import check_source
    from questc.emit.text import TextRenderer

    source = (
        'quest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0; # ' + "x" * 5000 + "\n"
        'area A "H" start { pieces R1; glyph at 0,0 active; monster beastmen at 2,2 }; # '
        + "y" * 5000
        + "\nvictory heroes when revealed A\n"
    )
    result = check_source(source, "w.quest")
    text = TextRenderer({"w.quest": source}).render_all(result.diagnostics)
    source_line = next(line for line in text.splitlines() if line.startswith("5 |"))
    marker_line = next(line for line in text.splitlines() if "^" in line)
    assert len(source_line) < 260 and source_line.endswith("...")
    # The carets stand right under the name they point at.
    start = marker_line.index("^")
    assert source_line[start : start + len("beastmen")] == "beastmen"
