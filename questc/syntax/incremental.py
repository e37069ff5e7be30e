"""Parsing successive versions of one quest's text, re-parsing only what an edit touched.

The language server parses the whole file again after every keystroke; on a 600-line map
Lark's parse and the tree's transform were most of a keystroke's check. An
`IncrementalParser` keeps the last version's text and result. On a new version it finds
the one stretch that changed (the common start and end of the two texts), widens it to
whole lines and to the top-level statements those lines belong to (the "region"), parses
the region alone with the same grammar, and reuses every other statement's nodes with
their spans moved (offsets and line numbers; a region ends at a line's end, so no column
after it moves).

That gives the tree a full parse gives, node for node, when the text outside the region
lexes and parses as it did: the region starts at a line start between statements and ends
at a line end after one, and the region on its own parses cleanly, so the lexer and the
parser leave it where they entered it. Whenever that is not certain, it parses the whole
text (`parse_source`), which also makes every syntax diagnostic with its recovery:
- no version without syntax diagnostics was parsed yet (a new version is parsed against the
  last such version, so the keystroke that mends a broken statement is parsed in part);
- the region does not parse on its own, holds a string that does not close, or gives any
  diagnostic (a value out of range, a nesting too deep);
- the header would not be the one first statement (Q004, Q005 are the whole file's);
- a region left without tokens where the file's first or last token was;
- a form feed or a line continued with `\\` anywhere in the text (see _SPLIT_SEPARATOR);
- a text over the size limit.
tests/test_incremental_parse.py compares it with `parse_source` over random edits.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from operator import attrgetter
from typing import Any, cast

from lark import v_args
from lark.exceptions import UnexpectedInput

from questc.diagnostics.core import Span
from questc.records import record
from questc.syntax import nodes as n
from questc.syntax.parser import (
    MAX_SOURCE_CHARS,
    ParseResult,
    _line_end,
    _scan,
    _too_deep,
    parse_source,
    quest_parser,
)
from questc.syntax.transform import ToNodes

__all__ = ["IncrementalParser"]


class IncrementalParser:
    """Parses versions of one file's text in turn; `parse(text)` equals `parse_source(text, file)`.

    A new version is parsed against the last sound one (without syntax diagnostics), not the
    last one: a keystroke that breaks the syntax is parsed whole (its diagnostics need the
    whole parse's recovery), the one that mends it is parsed in part again."""

    def __init__(self, file: str = "<quest>"):
        self.file = file
        self.full_parses = 0  # how each version was parsed (the benchmark's trace, the tests)
        self.partial_parses = 0
        self.last_region = 0  # the characters the last partial parse read
        self._text: str | None = None  # the last sound version, its parse and its statements
        self._result: ParseResult | None = None
        self._chunks: _Chunks | None = None

    def parse(self, text: str) -> ParseResult:
        if text.startswith("\ufeff"):  # as parse_source: the spans are the text's after the mark
            text = text[1:]
        result = self._partial(text)
        if result is None:
            result = parse_source(text, self.file)
            self.full_parses += 1
        else:
            self.partial_parses += 1
        if result is not self._result and result.tree is not None and not result.diagnostics:
            self._text, self._result, self._chunks = text, result, None
        return result

    # ---- the partial parse -------------------------------------------------------------
    def _partial(self, text: str) -> ParseResult | None:
        old_text, old = self._text, self._result
        if old_text is None or old is None or old.tree is None:
            return None
        if len(text) > MAX_SOURCE_CHARS or _SPLIT_SEPARATOR.search(text):
            return None
        if text is old_text or text == old_text:
            return old
        tree = old.tree
        chunks = self._chunks
        if chunks is None:
            chunks = self._chunks = _chunks(old_text, tree)
            if chunks is None:
                return None
        # The edit: old_text[low:old_high] became text[low:len(text) - same_end].
        low = _common_prefix(old_text, text)
        same_end = _common_suffix(old_text, text, min(len(old_text), len(text)) - low)
        old_high = len(old_text) - same_end
        # Its lines, widened to the statements on them.
        start = old_text.rfind("\n", 0, low) + 1
        old_end = _region_end(old_text, old_high)
        first = bisect_left(chunks.ends, start)  # the first chunk ending at or after the region's start
        last = bisect_right(chunks.starts, old_end)  # the chunks starting at or before its end
        if first < last:
            start = min(start, chunks.starts[first])
            old_end = max(old_end, chunks.ends[last - 1])
            items_before, items_after = chunks.first_item[first], chunks.first_item[last]
        else:  # only lines between statements (blank, comments)
            items_before = items_after = chunks.first_item[first]
        delta = len(text) - len(old_text)
        new_end = old_end + delta
        region = text[start:new_end]
        comments, unclosed = _scan(self.file, region)
        if unclosed:
            return None
        try:
            parsed = quest_parser().parse(region)
        except UnexpectedInput:
            return None
        if _too_deep(parsed) is not None:
            return None
        builder = _RegionNodes(self.file, header_written=True, source=region)
        # (_RegionNodes.start gives the pair, not the QuestFile ToNodes is typed to give)
        meta_span, region_items = cast("tuple[Span | None, list[Any]]", builder.transform(parsed))
        if builder.diagnostics:
            return None
        lines_before = old_text.count("\n", 0, start)
        into_place = _Shift(start, lines_before)
        moved = _Shift(delta, region.count("\n") - old_text.count("\n", start, old_end))
        ordered = chunks.items
        items = [
            *ordered[:items_before],
            *(into_place.node(item) for item in region_items),
            *(moved.node(item) for item in ordered[items_after:]),
        ]
        if not items or not isinstance(items[0], n.Header) or any(isinstance(i, n.Header) for i in items[1:]):
            return None
        file_span = _file_span(tree.span, meta_span and into_place.span(meta_span), moved, start, old_end)
        if file_span is None:
            return None
        new_tree = n.QuestFile(file_span, tree.path, items[0], tuple(items[1:]))
        kept_comments = [c for c in old.comments if c[0].start < start]
        kept_comments += [(into_place.span(span), body) for span, body in comments]
        kept_comments += [(moved.span(span), body) for span, body in old.comments if span.start > old_end]
        self.last_region = len(region)
        return ParseResult(new_tree, (), tuple(kept_comments))


# What the grammar ignores between two separators (`\n\f\n`, a line continued into a blank one)
# makes them two tokens where the grammar wants one: a region cut there would parse when the
# file does not. Without these, any run of separators is one token wherever it is cut.
_SPLIT_SEPARATOR = re.compile(r"\f|\\\r?\n")


@record(slots=True, eq=False)
class _Chunks:
    """The last version's top-level statements (the header first), grouped so that no two groups
    share a line: `starts[i]` is the start of the first line of group i, `ends[i]` the end of its
    last line (its newline, or the text's end), `first_item[i]` the index of its first statement in
    `items` (`first_item` has one more entry: the count of statements)."""

    items: list[Any]
    starts: list[int]
    ends: list[int]
    first_item: list[int]


def _chunks(text: str, tree: n.QuestFile) -> _Chunks | None:
    if tree.header is None:
        return None
    items: list[Any] = [tree.header, *tree.items]
    starts: list[int] = []
    ends: list[int] = []
    first_item: list[int] = []
    last_line = last_end = 0
    for index, item in enumerate(items):
        span = item.span
        if span.start < last_end:
            return None  # not in the order of the text: nothing this module expects
        if starts and span.line <= last_line:  # on the line the group before ends on: the same group
            ends[-1] = _region_end(text, span.end)
        else:
            starts.append(text.rfind("\n", 0, span.start) + 1)
            ends.append(_region_end(text, span.end))
            first_item.append(index)
        last_line, last_end = span.end_line, span.end
    first_item.append(len(items))
    return _Chunks(items, starts, ends, first_item)


def _file_span(old: Span, region: Span | None, moved: _Shift, start: int, old_end: int) -> Span | None:
    """The whole file's span (its first token's start to its last token's end), or None when it
    cannot be told without parsing all of it."""
    if old.start < start:  # the first token lies before the region: where it was
        head = (old.line, old.column, old.start)
    elif region is not None:
        head = (region.line, region.column, region.start)
    elif old.start > old_end:
        after = moved.span(old)
        head = (after.line, after.column, after.start)
    else:
        return None
    if old.end > old_end:  # the last token ends after the region
        after = moved.span(old)
        tail = (after.end_line, after.end_column, after.end)
    elif region is not None:
        tail = (region.end_line, region.end_column, region.end)
    elif old.end <= start:
        tail = (old.end_line, old.end_column, old.end)
    else:
        return None
    return Span(old.file, head[0], head[1], tail[0], tail[1], head[2], tail[2])


@v_args(meta=True)  # as ToNodes: a subclass's own methods are wrapped by its own decorator
class _RegionNodes(ToNodes):
    """ToNodes for a region: its statements in order (the header among them) and the region's
    span, None without tokens; the whole file's checks (Q004, Q005) are the caller's."""

    def start(self, meta: Any, items: list[Any]) -> Any:  # a region is no file
        return (None if getattr(meta, "empty", True) else self._span(meta)), items


# The values in nodes that hold no span.
_PLAIN = frozenset({str, int, bool, float, type(None)})


class _Shift:
    """Copies of nodes with every span moved by `offset` characters and `lines` lines."""

    def __init__(self, offset: int, lines: int):
        self.offset, self.lines = offset, lines

    def span(self, span: Span) -> Span:
        return _moved_span(span, self.offset, self.lines)

    def node(self, value: Any) -> Any:
        if not (self.offset or self.lines):
            return value
        return _moved(value, self.offset, self.lines)


def _moved(value: Any, offset: int, lines: int) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    copier = _COPIERS.get(kind) or _copier(kind)
    return copier(value, offset, lines)


def _moved_span(span: Span, offset: int, lines: int) -> Span:
    if not span.end:  # ToNodes' span of a rule without tokens: no place in the text, never moved
        return span
    return Span(
        span.file,
        span.line + lines,
        span.column,
        span.end_line + lines,
        span.end_column,
        span.start + offset,
        span.end + offset,
    )


def _moved_tuple(values: tuple, offset: int, lines: int) -> tuple:
    return tuple([_moved(value, offset, lines) for value in values])


# A copier for each kind of node, made when first needed (a quarter of a keystroke's parse on a
# 600-line map is moving spans) and kept: made per parse, they were garbage for the collector,
# which the language server leaves off while the writer types (26 kB an edit).
_COPIERS: dict[type, Callable[[Any, int, int], Any]] = {Span: _moved_span, tuple: _moved_tuple}


def _copier(kind: type) -> Callable[[Any, int, int], Any]:
    if not dataclasses.is_dataclass(kind):
        raise TypeError(f"a syntax node holds a {kind.__name__}: say how its spans move")
    names = [f.name for f in dataclasses.fields(kind) if f.init]
    fields = attrgetter(*names) if len(names) > 1 else (lambda value: (getattr(value, names[0]),))
    plain = _PLAIN

    def copy_node(value: Any, offset: int, lines: int) -> Any:
        return kind(*[v if type(v) in plain else _moved(v, offset, lines) for v in fields(value)])

    _COPIERS[kind] = copy_node
    return copy_node


def _region_end(text: str, pos: int) -> int:
    """Where the line holding `pos` ends, as the parser's _line_end says, but before its `\r\n`'s
    `\r` (a region never ends on a lone `\r`, which the grammar does not take)."""
    end = _line_end(text, pos)
    return end - 1 if pos < end < len(text) and text[end - 1] == "\r" else end


def _common_prefix(a: str, b: str) -> int:
    """The length of the start `a` and `b` share: halving the stretch still unknown, each
    comparison of slices done in C (a character at a time in Python is 100 times slower)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the end `a` and `b` share, at most `limit`."""
    low, high = 0, limit
    la, lb = len(a), len(b)
    while low < high:
        middle = (low + high + 1) // 2
        if a[la - middle : la - low] == b[lb - middle : lb - low]:
            low = middle
        else:
            high = middle - 1
    return low
