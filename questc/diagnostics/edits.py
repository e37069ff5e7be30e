"""Source text and spans in; the Edits of machine-applicable fixes out (replace, insert, delete a line).

Every Edit carries a full Span: 0-based offsets for the applier (questc.fixes) and
1-based lines and columns for editors (the language server's code actions, SARIF's
replacements). Offsets count from after a byte-order mark, as the parser's do.
Inserted statements take the indentation of the statement they follow, so a fix
applied to a formatted quest leaves it formatted.
"""

from __future__ import annotations

from bisect import bisect_right

from questc.diagnostics.core import Applicability, Edit, Fix, Span

__all__ = ["SourceText", "replace", "insert_after", "insert_before", "fix"]


def replace(span: Span, text: str) -> Edit:
    """Replace what `span` covers with `text`."""
    return Edit(span, text)


def insert_after(span: Span, text: str) -> Edit:
    """Insert `text` just after `span` (an empty span at its end)."""
    at = Span(span.file, span.end_line, span.end_column, span.end_line, span.end_column, span.end, span.end)
    return Edit(at, text)


def insert_before(span: Span, text: str) -> Edit:
    """Insert `text` just before `span` (an empty span at its start)."""
    at = Span(span.file, span.line, span.column, span.line, span.column, span.start, span.start)
    return Edit(at, text)


def fix(message: str, *edits: Edit, safe: bool = False) -> tuple[Fix, ...]:
    """A one-fix tuple for `Descriptor.at(..., fixes=...)`; unsafe unless said otherwise (a guess is unsafe)."""
    return (Fix(message, tuple(edits), Applicability.SAFE if safe else Applicability.UNSAFE),)


class SourceText:
    """One quest's text (after any byte-order mark) and its file name, for edits that need whole lines."""

    def __init__(self, text: str, file: str):
        self.text = text.removeprefix("\ufeff")
        self.file = file
        self._starts: list[int] | None = None

    def _line_starts(self) -> list[int]:
        if self._starts is None:
            starts = [0]
            find = self.text.find
            at = find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = find("\n", at + 1)
            self._starts = starts
        return self._starts

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column), 1-based, of an offset."""
        starts = self._line_starts()
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(self.file, line, column, end_line, end_column, start, end)

    def line_start(self, offset: int) -> int:
        return self.text.rfind("\n", 0, offset) + 1

    def line_end(self, offset: int) -> int:
        """The offset of the newline ending the line that holds `offset` (or the text's end)."""
        end = self.text.find("\n", offset)
        return len(self.text) if end < 0 else end

    def indentation(self, offset: int) -> str:
        """The spaces and tabs that open the line holding `offset`."""
        start = self.line_start(offset)
        end = start
        while end < len(self.text) and self.text[end] in " \t":
            end += 1
        return self.text[start:end]

    def newline(self) -> str:
        """The file's line ending: CRLF when its first line ends so, else LF."""
        first = self.text.find("\n")
        return "\r\n" if first > 0 and self.text[first - 1] == "\r" else "\n"

    def alone_on_line(self, span: Span) -> bool:
        """True when nothing but spaces stands before `span` and after it on its lines."""
        before = self.text[self.line_start(span.start) : span.start]
        after = self.text[span.end : self.line_end(span.end)]
        return not before.strip() and not after.strip()

    def insert_line_after(self, span: Span, line: str, indent: str | None = None) -> Edit:
        """A new line holding `line` after the line where `span` ends, indented as the line `span` starts on."""
        indent = self.indentation(span.start) if indent is None else indent
        end = self.line_end(span.end)
        nl = self.newline()
        if end >= len(self.text):  # the last line has no newline: add one before ours
            return Edit(self.span(end, end), nl + indent + line)
        return Edit(self.span(end + 1, end + 1), indent + line + nl)

    def delete_lines(self, span: Span) -> Edit:
        """Remove the whole lines `span` covers, their line ending included."""
        start = self.line_start(span.start)
        end = self.line_end(span.end)
        if end < len(self.text):
            end += 1  # a last line without a newline goes alone: the line before keeps its own
        return Edit(self.span(start, end), "")

    def delete_trailing(self, span: Span) -> Edit:
        """Remove `span` and the spaces before it (a trailing comment or word), keeping the line."""
        start = span.start
        while start > 0 and self.text[start - 1] in " \t":
            start -= 1
        return Edit(self.span(start, span.end), "")

    def delete_word(self, span: Span) -> Edit:
        """Remove a word and one side's spaces, so `area B "X" start {` loses ` start`."""
        if span.start > 0 and self.text[span.start - 1] in " \t":
            return self.delete_trailing(span)
        end = span.end
        while end < len(self.text) and self.text[end] in " \t":
            end += 1
        return Edit(self.span(span.start, end), "")
