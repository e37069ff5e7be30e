"""Helpers the test modules share: checking inline quests and reading spans back from source."""

from __future__ import annotations

import textwrap
from collections import Counter

from questc.api import CompiledQuest, check_file, check_source
from questc.emit.text import TextRenderer


def dedent(source: str) -> str:
    """An inline quest as written in a test: common indentation and the first blank line removed."""
    return textwrap.dedent(source).lstrip("\n")


def render(result) -> str:
    """Every diagnostic of a QuestResult (infos too), as `questc lint` prints them."""
    return TextRenderer({result.path: result.source}).render_all(result.all_diagnostics) or "(no diagnostic)"


def assert_codes(source: str, *codes: str, path: str = "<quest>", options=None):
    """Dedent `source`, run the whole pipeline on it and compare the codes reported, in any order.

    Counts matter (`assert_codes(src, "Q001", "Q001")` wants exactly two Q001s). On failure
    the rendered diagnostics are shown. Returns the QuestResult for further checks.
    """
    text = dedent(source)
    result = check_source(text, path, options)
    got = Counter(d.code for d in result.diagnostics)
    want = Counter(codes)
    assert got == want, f"expected codes {sorted(want.elements())}, got {sorted(got.elements())}:\n{render(result)}"
    return result


def compile_source(source: str, path: str = "<quest>", options=None) -> CompiledQuest:
    """A quest's text that must compile clean (no error) in; its CompiledQuest out."""
    result = check_source(source, path, options)
    assert result.buildable() and result.compiled is not None, render(result)
    return result.compiled


def compile_file(path, options=None) -> CompiledQuest:
    """A quest file that must compile clean (no error) in; its CompiledQuest out."""
    result = check_file(path, options)
    assert result.buildable() and result.compiled is not None, render(result)
    return result.compiled


def offset_of(text: str, line: int, column: int) -> int:
    """The 0-based offset of a 1-based (line, column) in `text`."""
    lines = text.split("\n")
    assert 1 <= line <= len(lines), f"line {line} is outside the text ({len(lines)} lines)"
    assert 1 <= column <= len(lines[line - 1]) + 1, f"column {column} is outside line {line}"
    return sum(len(each) + 1 for each in lines[: line - 1]) + column - 1


def span_text(text: str, span) -> str:
    """The source a span covers, read by its line and columns (end column exclusive).

    Also checks that the span's offsets agree with its lines and columns, so a test
    that compares this text checks all six numbers of the span.
    """
    start = offset_of(text, span.line, span.column)
    end = offset_of(text, span.end_line, span.end_column)
    assert (span.start, span.end) == (start, end), (
        f"span {span} has offsets {span.start}..{span.end}, but its lines and columns say {start}..{end}"
    )
    return text[start:end]


def where(span) -> tuple[int, int, int, int]:
    """(line, column, end_line, end_column) of a span."""
    return (span.line, span.column, span.end_line, span.end_column)


def ctrl_c_works() -> None:
    """`preexec_fn` for a process a test will stop with Ctrl-C (SIGINT): a shell that starts the
    test run in the background (`pytest &`) makes its children ignore SIGINT, and Python then never
    raises KeyboardInterrupt; the process under test gets the default back, as in a terminal."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def console_sessions(text: str, first_line: int, page: str) -> list[tuple[str, str, int, int]]:
    """(command, what the page shows it printing, its line, the line ending its output) of each `$ `
    line of a console block whose text begins on line `first_line` of `page`."""
    lines = text.split("\n")[:-1]
    out, i = [], 0
    while i < len(lines):
        assert lines[i].startswith("$ "), f"{page} line {first_line + i}: a console line starts with `$ `"
        j = i + 1
        while j < len(lines) and not lines[j].startswith("$ "):
            j += 1
        out.append((lines[i][2:], "".join(x + "\n" for x in lines[i + 1 : j]), first_line + i, first_line + j - 1))
        i = j
    return out
