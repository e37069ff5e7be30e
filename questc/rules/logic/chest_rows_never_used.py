"""Q503 chest-rows-never-used: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.logic.chests import MAX_LABELS, chart_rows, placed_chests
from questc.rules.logic.examples import quest
from questc.words import plural

Q503 = Descriptor(
    code="Q503",
    name="chest-rows-never-used",
    severity=Severity.WARNING,
    template="the chest chart has {rows}, but no {chest} chest is placed",
    label_template="no {chest} chest on the map",
    help_template="place one with `chest {chest} at X,Y` in an area, or remove the {chest} rows",
    summary="Chest chart rows for a chest type never placed.",
    explanation="""
Rows of the chest chart are only read when a chest of their type is opened. Rows for a
type the map never shows are dead text on the sheet, and usually mean a chest was
forgotten or given the wrong type.
""",
    example=Example(
        failing=quest(
            area_lines="  chest copper at 2,2\n", tail="chests {\n  copper 1: coins 50\n  gold 1: gold, conquest 3\n}\n"
        ),
        fixed=quest(
            area_lines="  chest copper at 2,2\n  chest gold at 4,4\n",
            tail="chests {\n  copper 1: coins 50\n  gold 1: gold, conquest 3\n}\n",
        ),
    ),
    fields=("rows", "chest"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q503 for the chart's rows of a chest type no marker places."""
    placed = placed_chests(context.model)
    found = []
    for chest, chest_rows in chart_rows(context.model).items():
        if placed.get(chest):
            continue
        labels = [Label(row.kind.span, "and this row") for row in chest_rows[1:]][:MAX_LABELS]
        found.append(
            Q503.at(chest_rows[0].kind.span, labels=labels, rows=plural(len(chest_rows), f"{chest} row"), chest=chest)
        )
    return found


RULE = Rule(Q503, find, needs={"chests"})
