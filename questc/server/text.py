"""Document text and LSP positions: offsets, 1-based spans and client positions in one place.

Two line models meet here. An LSP client ends a line at `\\n`, `\\r\\n` or a lone
`\\r`, and at nothing else (not U+2028/U+2029, a form feed or NEL, which Python's
`str.splitlines` breaks at), and counts columns in the code units of the position
encoding agreed at start-up (UTF-16 unless the client offers another). questc's spans
count lines by `\\n` alone (Lark's) and columns in code points (1-based, end
exclusive). A `LineIndex` holds both for one version of the text and converts through
offsets, so a span lands where the client sees it whatever characters the text holds.
A byte-order mark is not part of the quest as questc parses it (parse_source drops
it), so questc's columns on the first line are shifted past it.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from lsprotocol import types

from questc.api import Span

BOM = "\ufeff"
_LSP_BREAK = re.compile(r"\r\n?|\n")


def _units(text: str, encoding: str) -> int:
    """How many code units of `encoding` the text takes."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _newline_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    at = find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = find("\n", at + 1)
    return starts


class LineIndex:
    """Line starts of one text (the client's and questc's), and conversions between offsets,
    questc spans and LSP positions."""

    def __init__(self, text: str, encoding: str = "utf-16"):
        self.text = text
        self.encoding = encoding
        if "\r" in text:
            self.starts = [0] + [m.end() for m in _LSP_BREAK.finditer(text)]
            self._quest_starts: list[int] | None = None
        else:  # the usual text: both models agree, one scan
            self.starts = self._quest_starts = _newline_starts(text)
        self.bom = 1 if text.startswith(BOM) else 0

    @property
    def quest_starts(self) -> list[int]:
        """Line starts as questc counts lines (by `\\n` alone)."""
        if self._quest_starts is None:
            self._quest_starts = _newline_starts(self.text)
        return self._quest_starts

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def _line_end(self, line: int) -> int:
        """Where line `line` (0-based, in range) ends, before its line break."""
        if line + 1 >= len(self.starts):
            return len(self.text)
        end = self.starts[line + 1]
        return end - (2 if self.text.startswith("\r\n", end - 2) else 1)

    def quest_line(self, line: int) -> str:
        """Line `line` as questc counts lines (1-based, by `\\n` alone; a byte-order mark dropped), without
        its line break: index `column - 1` of it is the character at questc's (line, column)."""
        starts = self.quest_starts
        if line < 1 or line > len(starts):
            return ""
        start = starts[line - 1] + (self.bom if line == 1 else 0)
        end = starts[line] - 1 if line < len(starts) else len(self.text)
        return self.text[start:end].removesuffix("\r")

    def line_text(self, line: int) -> str:
        """Line `line` (0-based, as the client counts lines) without its line break."""
        if line < 0 or line >= len(self.starts):
            return ""
        return self.text[self.starts[line] : self._line_end(line)]

    # ---- offsets <-> client positions ---------------------------------------------
    def position(self, offset: int) -> types.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        offset = min(offset, self._line_end(line))  # never inside a line break
        return types.Position(line, _units(self.text[start:offset], self.encoding))

    def offset(self, position: types.Position) -> int:
        """A client position in, an offset into the text out: past the end of a line is its end
        (as LSP says), past the last line the end of the text."""
        line_number = max(0, position.line)
        if line_number >= len(self.starts):
            return len(self.text)
        start, end = self.starts[line_number], self._line_end(line_number)
        wanted = max(0, position.character)
        if self.encoding == "utf-32":
            return start + min(wanted, end - start)
        line = self.text[start:end]
        if line.isascii():
            return start + min(wanted, len(line))
        count = 0
        for index, ch in enumerate(line):
            if count >= wanted:
                return start + index
            step = _units(ch, self.encoding)
            if count + step > wanted:  # inside a character's code units: its start
                return start + index
            count += step
        return end

    def valid(self, position: types.Position) -> bool:
        """Does the position name a place in this text (a line that exists, a column on it or its end)?"""
        if position.line < 0 or position.character < 0 or position.line >= len(self.starts):
            return False
        return position.character <= _units(self.line_text(position.line), self.encoding)

    # ---- questc spans (1-based lines by `\n`, code-point columns) -------------------
    def span_offsets(self, span: Span) -> tuple[int, int]:
        """The offsets in this text of a span questc reported on it."""
        return self._span_offset(span.line, span.column), self._span_offset(span.end_line, span.end_column)

    def _span_offset(self, line: int, column: int) -> int:
        starts = self.quest_starts
        index = max(0, min(line - 1, len(starts) - 1))
        start = starts[index] + (self.bom if index == 0 else 0)
        end = starts[index + 1] if index + 1 < len(starts) else len(self.text)
        return max(start, min(start + max(column, 1) - 1, end))

    def range(self, span: Span) -> types.Range:
        start, end = self.span_offsets(span)
        return types.Range(self.position(start), self.position(max(start, end)))

    def quest_point(self, offset: int) -> tuple[int, int]:
        """An offset in, questc's (line, column) of the character at it out (1-based)."""
        starts = self.quest_starts
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(starts, offset) - 1
        return line + 1, offset - starts[line] + 1 - (self.bom if line == 0 else 0)

    def cursor(self, position: types.Position) -> tuple[int, int]:
        """A client position in, questc's (line, column) of the character at it out (1-based)."""
        return self.quest_point(self.offset(position))

    def whole(self) -> types.Range:
        return types.Range(types.Position(0, 0), self.position(len(self.text)))


def _scan(line: str) -> tuple[int | None, bool]:
    """Where a line's comment starts (a `#` outside a string; None), and whether it ends inside a string."""
    in_string = False
    i = 0
    while i < len(line):
        ch = line[i]
        if in_string:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "#":
            return i, False
        i += 1
    return None, in_string


def comment_start(line: str) -> int | None:
    """Where the line's comment starts (a `#` outside a string), or None."""
    return _scan(line)[0]


def place(line: str) -> str:
    """Where the end of this text (a line up to the cursor) is: "comment", "string" or "code"."""
    comment, in_string = _scan(line)
    return "comment" if comment is not None else ("string" if in_string else "code")


def apply_change(text: str, change, encoding: str = "utf-16") -> str:
    """One `TextDocumentContentChangeEvent` applied: a whole new text, or a range replaced."""
    change_range = getattr(change, "range", None)
    if change_range is None:
        return change.text
    index = LineIndex(text, encoding)
    start, end = index.offset(change_range.start), index.offset(change_range.end)
    if end < start:
        start, end = end, start
    return text[:start] + change.text + text[end:]
