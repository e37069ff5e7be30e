"""Q502 chest-chart-too-short: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.logic.chests import MAX_LABELS, chart_rows, placed_chests
from questc.rules.logic.examples import quest
from questc.words import plural, verb

Q502 = Descriptor(
    code="Q502",
    name="chest-chart-too-short",
    severity=Severity.ERROR,
    template="{chests} {are} placed, but the chest chart has {rows}",
    label_template="no chart row is left for this chest",
    help_template="add {missing} to the `chests` chart, or place fewer {chest} chests",
    summary="A chest type placed more often than the chest chart has rows for it.",
    explanation="""
Chest markers are shuffled face down by type; the overlord places a random one of the
type the quest shows, and its number is looked up in the quest's chest chart. With
more chests of a type than the chart has rows for it, some chest would hold nothing
the quest says: each chest of a type needs its own numbered row.
""",
    example=Example(
        failing=quest(area_lines="  chest copper at 2,2 4,4\n", tail="chests {\n  copper 1: coins 50\n}\n"),
        fixed=quest(
            area_lines="  chest copper at 2,2 4,4\n",
            tail="chests {\n  copper 1: coins 50\n  copper 2: copper, conquest 1\n}\n",
        ),
    ),
    fields=("chests", "are", "rows", "missing", "chest"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q502 for a chest type placed more often than the chart has rows."""
    model = context.model
    chart = model.chest_chart
    rows = chart_rows(model)
    found = []
    for chest, markers in placed_chests(model).items():
        numbers = {row.number for row in rows[chest]}  # a number written twice is still one row
        if len(markers) <= len(numbers):
            continue
        short = len(markers) - len(numbers)
        missing: list[int] = []
        k = 1
        while len(missing) < short:
            if k not in numbers:
                missing.append(k)
            k += 1
        missing_text = " and ".join(f"`{chest} {k}: ...`" for k in missing[:3]) + (" ..." if short > 3 else "")
        labels = [Label(m.span, "nor for this one") for m in markers[len(numbers) + 1 :]]
        labels += [Label(row.kind.span, f"row {chest} {row.number}") for row in rows[chest]]
        if not rows[chest]:
            labels.append(
                Label(chart.span, f"no {chest} rows here")
                if chart is not None
                else Label(model.header_span(), "this quest has no `chests` chart")
            )
        found.append(
            Q502.at(
                markers[len(numbers)].span,
                labels=labels[:MAX_LABELS],
                chests=plural(len(markers), f"{chest} chest"),
                are=verb(len(markers)),
                rows=plural(len(numbers), f"{chest} row", zero="no"),
                chest=chest,
                missing=("rows " if short > 1 else "a row ") + missing_text,
            )
        )
    return found


RULE = Rule(Q502, find, needs={"chests"})
