"""Diagnostics -> rustc-style text: header, source lines as written, ^^^ and labels, help, summary."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from questc.diagnostics.core import Diagnostic, Severity, Span

_COLOURS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m", Severity.INFO: "\x1b[1;36m"}
_BLUE, _BOLD, _RESET = "\x1b[1;34m", "\x1b[1m", "\x1b[0m"


def use_colour(stream: object, mode: str = "auto") -> bool:
    """Whether to colour what goes to `stream`. `--color always`/`never` decide outright;
    `auto` follows the environment, as Python 3.13 itself does: NO_COLOR set (no-color.org)
    means no colour, else FORCE_COLOR set (force-color.org) means colour even into a pipe
    (CI logs show it), else colour only on a terminal that is not TERM=dumb. Both
    variables count only when set to something, not when empty."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


# Control characters from a quest (or its file name) would drive the reader's terminal:
# an ESC can recolour, clear or retitle it. Each is shown as one visible character, so
# the ^^^ under a line still line up: C0 and DEL as their Control Pictures (U+2400..,
# ESC is ␛), C1 (which some terminals also obey) as U+FFFD. Tabs are spaces already.
_VISIBLE = {c: 0x2400 + c for c in range(32) if c != 9} | {0x7F: 0x2421} | {c: 0xFFFD for c in range(0x80, 0xA0)}


def visible(text: str) -> str:
    """Text from the input, safe to print: control characters shown, never sent."""
    return text.translate(_VISIBLE)


class TextRenderer:
    """Renders diagnostics against the source texts they point into."""

    def __init__(self, sources: Mapping[str, str], colour: bool = False) -> None:
        self.sources = sources
        self.colour = colour
        self._lines: dict[str, list[str]] = {}

    def _paint(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.colour else text

    def _line(self, file: str, number: int) -> str | None:
        if file not in self._lines:
            text = self.sources.get(file)
            self._lines[file] = text.split("\n") if text is not None else []
        lines = self._lines[file]
        if 1 <= number <= len(lines):
            return visible(lines[number - 1].rstrip("\r").replace("\t", " "))
        return None

    def render(self, d: Diagnostic) -> str:
        sev = self._paint(_COLOURS[d.severity], f"{d.severity.value}[{d.code}]")
        out = [f"{sev}{self._paint(_BOLD, ': ' + visible(d.message))}"]
        places = [(d.span, d.label and visible(d.label), True)] + [
            (label.span, visible(label.message), False) for label in d.labels
        ]
        same_file = [p for p in places if p[0].file == d.span.file]
        width = max(len(str(p[0].line)) for p in places)
        pad = " " * width
        out.append(f"{pad}{self._paint(_BLUE, '-->')} {visible(d.span.file)}:{d.span.line}:{d.span.column}")
        out.append(f"{pad} {self._paint(_BLUE, '|')}")
        out += self._snippet(same_file, d.severity, width)
        for span, message, _ in places:
            if span.file != d.span.file:
                out.append(f"{pad}{self._paint(_BLUE, ':::')} {visible(span.file)}:{span.line}:{span.column}")
                out += self._snippet([(span, message, False)], d.severity, width)
        if d.help:
            out.append(f"{pad} {self._paint(_BLUE, '=')} {self._paint(_BOLD, 'help')}: {visible(d.help)}")
        return "\n".join(out)

    def _snippet(self, places: Sequence[tuple[Span, str | None, bool]], severity: Severity, width: int) -> list[str]:
        out: list[str] = []
        by_line: dict[int, list[tuple[Span, str | None, bool]]] = {}
        for span, message, primary in places:
            by_line.setdefault(span.line, []).append((span, message, primary))
        previous = None
        bar = self._paint(_BLUE, "|")
        for number in sorted(by_line):
            source = self._line(places[0][0].file, number)
            if source is None:
                continue
            if previous is not None and number > previous + 1:
                out.append(self._paint(_BLUE, "..."))
            spans = by_line[number]
            shift, shown = _window(source, min(span.column for span, _, _ in spans))
            out.append(f"{self._paint(_BLUE, str(number).rjust(width))} {bar} {shown}".rstrip())
            for span, message, primary in sorted(spans, key=lambda p: (not p[2], p[0].column)):
                marker = self._marker(span, source, message, primary, severity, shift, len(shown))
                out.append(f"{' ' * width} {bar} {marker}")
            previous = number
        return out

    def _marker(
        self,
        span: Span,
        source: str,
        message: str | None,
        primary: bool,
        severity: Severity,
        shift: int = 0,
        shown: int | None = None,
    ) -> str:
        start = max(span.column - 1, 0)
        end = span.end_column - 1 if span.end_line == span.line else len(source)
        end = max(end, start + 1)
        start, end = start - shift, end - shift
        if shown is not None:
            end = max(min(end, shown), start + 1)
        marks = ("^" if primary else "-") * (end - start)
        text = f"{marks} {message}" if message else marks
        return " " * start + self._paint(_COLOURS[severity] if primary else _BLUE, text)

    def render_all(self, diagnostics: list[Diagnostic]) -> str:
        return "\n\n".join(self.render(d) for d in diagnostics)


_WIDEST = 200  # source lines longer than this are shown as a window around the span


def _window(source: str, column: int) -> tuple[int, str]:
    """A long source line cut to a window that holds `column`: (characters cut from the
    left, the text shown). Short lines are shown whole, as written."""
    if len(source) <= _WIDEST:
        return 0, source
    start = max(0, min(column - 1 - 40, len(source) - _WIDEST))
    text = source[start : start + _WIDEST]
    if start:
        text = "..." + text[3:]
    if start + _WIDEST < len(source):
        text = text[:-3] + "..."
    return start, text
