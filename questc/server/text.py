"""Document text and LSP positions: offsets, 1-based spans and client positions in one place.

questc's spans count lines by `\\n` and columns in code points (1-based, end exclusive);
an LSP client counts lines the same way and columns in the code units of the position
encoding agreed at start-up (UTF-16 unless the client offers another). A `LineIndex`
converts between them for one version of the text, so every feature converts the same
way. A byte-order mark is not part of the quest as questc parses it (parse_source drops
it), so columns on the first line are shifted past it.
"""
from __future__ import annotations

from bisect import bisect_right

from lsprotocol import types

from questc.api import Span

BOM = "\ufeff"


def _units(text: str, encoding: str) -> int:
    """How many code units of `encoding` the text takes."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class LineIndex:
    """Line starts of one text, and conversions between offsets, spans and LSP positions."""

    def __init__(self, text: str, encoding: str = "utf-16"):
        self.text = text
        self.encoding = encoding
        self.starts = [0]
        find = text.find
        at = find("\n")
        while at >= 0:
            self.starts.append(at + 1)
            at = find("\n", at + 1)
        self.bom = 1 if text.startswith(BOM) else 0

    def line_text(self, line: int) -> str:
        """Line `line` (0-based) without its line break."""
        if line < 0 or line >= len(self.starts):
            return ""
        start = self.starts[line]
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[start:end].removesuffix("\r")

    # ---- offsets <-> client positions ---------------------------------------------
    def position(self, offset: int) -> types.Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        return types.Position(line, _units(self.text[start:offset], self.encoding))

    def offset(self, position: types.Position) -> int:
        """A client position in, an offset into the text out (clamped to the line and the text)."""
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[position.line]
        line = self.line_text(position.line)
        wanted = position.character
        if self.encoding == "utf-32" or line.isascii():
            return start + min(wanted, len(line))
        count = 0
        for index, ch in enumerate(line):
            if count >= wanted:
                return start + index
            count += _units(ch, self.encoding)
        return start + len(line)

    # ---- questc spans (1-based lines, code-point columns) ----------------------------
    def span_offsets(self, span: Span) -> tuple[int, int]:
        """The offsets in this text of a span questc reported on it."""
        return self._span_offset(span.line, span.column), self._span_offset(span.end_line, span.end_column)

    def _span_offset(self, line: int, column: int) -> int:
        index = max(0, min(line - 1, len(self.starts) - 1))
        start = self.starts[index] + (self.bom if index == 0 else 0)
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.text)
        return max(start, min(start + max(column, 1) - 1, end))

    def range(self, span: Span) -> types.Range:
        start, end = self.span_offsets(span)
        return types.Range(self.position(start), self.position(max(start, end)))

    def cursor(self, position: types.Position) -> tuple[int, int]:
        """A client position in, questc's (line, column) of the character at it out (1-based)."""
        offset = self.offset(position)
        line = bisect_right(self.starts, offset) - 1
        column = offset - self.starts[line] + 1 - (self.bom if line == 0 else 0)
        return line + 1, column

    def whole(self) -> types.Range:
        return types.Range(types.Position(0, 0), self.position(len(self.text)))


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
