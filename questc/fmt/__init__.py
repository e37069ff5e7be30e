"""The formatter: quest source text in; the same quest in the canonical layout out, comments kept.

    from questc.fmt import format_source
    formatted = format_source(text, "drowned.quest")
    if formatted.output is None: ...            # syntax errors: formatted.diagnostics
    elif formatted.changed: write(formatted.output)

Every result is checked before it is returned: the output must parse without error
to a tree equal to the input's (spans aside) and keep every comment; otherwise
FormatterError is raised and the caller leaves the file alone. Formatting is
idempotent: formatting the output again changes nothing.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import TYPE_CHECKING

from questc.diagnostics.core import Diagnostic, Severity
from questc.errors import FormatterError
from questc.records import record
from questc.syntax.nodes import Header
from questc.syntax.transform import HEADER_FIELDS

if TYPE_CHECKING:
    from questc.syntax.parser import ParseResult

__all__ = ["Formatted", "FormatterError", "format_source", "without_spans"]


@record
class Formatted:
    """`source` as given; `output` in the canonical layout (None when syntax errors kept it from being
    formatted); `diagnostics`: those syntax errors."""

    source: str
    output: str | None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def changed(self) -> bool:
        return self.output is not None and self.output != self.source


def without_spans(node: object) -> object:
    """A syntax node (or tuple of them) as nested tuples without spans: equal for equal quests.

    Header fields are taken in the canonical order (the formatter sorts them; their
    order means nothing, except among repeated `use` lines, whose order is kept).
    """
    if isinstance(node, Header):
        order = {keyword: number for number, keyword in enumerate(HEADER_FIELDS)}
        fields = sorted(node.fields, key=lambda f: order.get(f.keyword, len(order)))
        return ("Header", without_spans(node.title), without_spans(tuple(fields)))
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__,) + tuple(
            without_spans(getattr(node, f.name)) for f in dataclasses.fields(node) if f.name != "span"
        )
    if isinstance(node, (tuple, list)):
        return tuple(without_spans(x) for x in node)
    return node


def format_source(source: str, file: str = "<quest>") -> Formatted:
    """Quest source text in; a Formatted out. Raises FormatterError if the layout would change the quest."""
    from questc.fmt.printer import Printer
    from questc.syntax import parse_source

    parsed = parse_source(source, file)
    errors = tuple(d for d in parsed.diagnostics if d.severity is Severity.ERROR)
    if errors or parsed.tree is None:
        return Formatted(source, None, errors)
    text = source[1:] if source.startswith("\ufeff") else source
    printer = Printer(text, parsed.comments)
    try:
        output = printer.file(parsed.tree)
    except (AssertionError, ValueError, TypeError) as error:
        raise FormatterError(f"{file}: cannot lay this quest out: {error}") from error
    if printer.unclaimed():
        raise FormatterError(f"{file}: the layout would lose the comment {printer.unclaimed()[0]!r}")
    _verify(parsed, output, file)
    return Formatted(source, output)


def _verify(parsed: ParseResult, output: str, file: str) -> None:
    from questc.syntax import parse_source

    again = parse_source(output, file)
    if any(d.severity is Severity.ERROR for d in again.diagnostics) or again.tree is None:
        first = next(d for d in again.diagnostics if d.severity is Severity.ERROR)
        raise FormatterError(
            f"{file}: the formatted text would not parse ({first.code} at line {first.span.line}: {first.message})"
        )
    if without_spans(again.tree) != without_spans(parsed.tree):
        raise FormatterError(f"{file}: the formatted text would mean a different quest")
    kept = Counter(text.rstrip() for _, text in again.comments)
    if kept != Counter(text.rstrip() for _, text in parsed.comments):
        raise FormatterError(f"{file}: the formatted text would not keep every comment")
