"""Q006 beyond-limits: the code's descriptor (reported by questc.syntax.parser and transform,
questc.model.resolve and, for the map's size, questc.board.quest_board; the limits are in questc.limits)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.syntax.examples import TAIL

Q006 = Descriptor(
    code="Q006", name="beyond-limits", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="An input beyond what questc checks: a file over 1,000,000 characters or with over 50 syntax "
            "errors, a condition nested over 100 levels, a number over 1,000,000, a coordinate over "
            "10,000, a rectangle larger than a map, a point over 400 cells off the map, or a map over "
            "20,000 cells or 400 cells across.",
    explanation="""
A real quest is a few kilobytes, nests its conditions a few levels deep and fits on a
table. Input far past that is almost always a generated or broken file; questc
refuses it with this error, at once, rather than spend minutes or gigabytes on it.
""",
    example=Example(
        failing='quest "Q" {\n  conquest 3\n}\n' + TAIL.replace("revealed A", "not " * 101 + "revealed A"),
        fixed='quest "Q" {\n  conquest 3\n}\n' + TAIL),
    fields=("problem", "label", "help_text"),
)

RULE = Rule(Q006, reported_by="questc.syntax.parser, questc.syntax.transform, questc.model.resolve, "
                        "questc.board.quest_board")
