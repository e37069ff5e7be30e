"""Q706 valkyrie-approximated: the code's descriptor; the Valkyrie export reports it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.export.examples import second

_GROUP = "  group barghest on T%s\n"

Q706 = Descriptor(
    code="Q706",
    name="valkyrie-approximated",
    severity=Severity.WARNING,
    template="Valkyrie cannot {what}: {how}",
    label_template="approximated in Valkyrie",
    help_template="{help_text}",
    summary="A rule Valkyrie can only approximate (a group-wide change, a rule of each hero's turn, an act II "
    "quest, tokens placed at random...): the export says how it plays it instead.",
    explanation="""
Some of what a second edition quest says has no place in Valkyrie's quest format: the
app keeps its monsters' characteristics to their cards (a group-wide `all +2 health`),
runs rules at the start and end of a round but not of each hero's turn, plays act I
cards, and places what it places on the spaces the quest gives (a token set `among`
points lands on the first of them). The export plays each such rule the nearest way it
can and tells the players the rest as text, in the words of the quest sheet; this
warning says what was approximated, so the writer can decide whether the Valkyrie quest
still plays as meant.
""",
    example=Example(
        failing=second(_GROUP.rstrip("\n") % "" + " {\n    all +2 health\n  }\n"), fixed=second(_GROUP % "")
    ),
    fields=("what", "how", "help_text"),
)

RULE = Rule(Q706, reported_by="questc.emit.valkyrie.translate")
