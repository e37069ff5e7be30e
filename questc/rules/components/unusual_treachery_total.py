"""Q406 unusual-treachery-total: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.model.plan import COLOURS, PUBLISHED_TOTALS
from questc.rules import Rule
from questc.rules.components.examples import WOD, quest
from questc.rules.context import CheckContext

Q406 = Descriptor(
    code="Q406",
    name="unusual-treachery-total",
    severity=Severity.INFO,
    template="the treachery budget totals {total}, outside the published quests' range of 9 to 12",
    label_template="{total} in all",
    help_template="the nine base quests give 9 to 12 (Into the Dark: event 4, trap 4, monster 4); "
    "keep {total} only if the quest is meant to be {harder}",
    summary="The treachery budget's total is outside the range of the published quests (9 to 12).",
    explanation="""
The Well of Darkness gives budgets for the nine base-game quests: between 9 (Spoiled
Brat: 3/3/3) and 12 (The Black Blade: 3/5/4; Into the Dark: 4/4/4) points in all. A
budget outside that range is allowed; this note only says the quest will play harder
or easier for the heroes than the published ones.
""",
    example=Example(
        failing=quest(WOD.replace("treachery event 4, trap 3, monster 3", "treachery event 8, trap 8, monster 8")),
        fixed=quest(WOD),
    ),
    fields=("total", "harder"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q406: a first-edition quest's treachery budget totals outside the published quests' range."""
    model = context.model
    field = model.header.get("treachery") if model.header is not None else None
    if model.treachery is None or field is None:
        return []
    total = sum(model.treachery.get(c, 0) for c in COLOURS)
    low, high = PUBLISHED_TOTALS
    if low <= total <= high:
        return []
    return [
        Q406.at(field.span, total=total, harder="harder for the heroes" if total > high else "easier for the heroes")
    ]


RULE = Rule(Q406, find, needs={"treachery"})
