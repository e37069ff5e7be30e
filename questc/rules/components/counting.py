"""Counting components against the box owned, for the figure, piece, marker and token rules (Q403-Q405, Q410)."""

from __future__ import annotations

from typing import Any

from questc.catalog.model import Count
from questc.catalog.owned import Held
from questc.diagnostics.core import Descriptor, Diagnostic, Label, Severity, Span
from questc.words import plural, verb

# Labels after the first one too many: enough to find the others, not a wall of them.
MAX_LABELS = 8


def graded(diagnostic: Diagnostic, owned: Count) -> Diagnostic:
    """A count from a rule book or declared by the writer makes an error; an estimate only a warning."""
    return diagnostic if owned.source != "estimate" else diagnostic.with_severity(Severity.WARNING)


def too_many(
    descriptor: Descriptor, held: Held, items: list[tuple[Span, int]], label: str, noun: str, **values: Any
) -> Diagnostic | None:
    """Counted items (span, how many markers) in source order; a diagnostic at the first beyond what is held, or None.

    The other items beyond the count are labelled with `label`, then those within it with
    their running count, MAX_LABELS in all. `noun` is what one item is (`master golem
    figure`): the templates get `counted` ("3 master golem figures"), `are` agreeing with
    it, and `extra_counted` ("1 master golem figure"), besides the bare numbers, and
    `holding` ("the sets owned (base) hold an estimated 3") and `hint` (for an estimate,
    how to declare the real count; else empty) from `held`.
    """
    owned = held.count
    if owned.count is None:
        return None  # the books do not say: nothing to check against
    total = sum(weight for _, weight in items)
    if total <= owned.count:
        return None
    running, first = 0, items[0][0]  # the first item beyond what is owned replaces it below
    beyond: list[Label] = []
    within: list[Label] = []
    past = False
    for span, weight in items:
        running += weight
        if running <= owned.count:
            within.append(Label(span, f"{running} of {owned.count}"))
        elif not past:
            first, past = span, True
        else:
            beyond.append(Label(span, label))
    # Of the counted items, label the last one on each line: many marks on one line only clutter it.
    last_on_line = {label.span.line: label for label in within}
    labels = (beyond + list(last_on_line.values()))[:MAX_LABELS]
    extra = total - owned.count
    diagnostic = descriptor.at(
        first,
        labels=labels,
        count=total,
        owned=owned.count,
        extra=extra,
        counted=plural(total, noun),
        are=verb(total),
        extra_counted=plural(extra, noun),
        holding=held.holding,
        hint=held.hint,
        **values,
    )
    return graded(diagnostic, owned)
