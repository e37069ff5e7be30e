"""Q401 treachery-over-budget: the code's descriptor and the check that finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.components.budget import budget_labels
from questc.rules.components.examples import WOD, quest
from questc.rules.context import CheckContext

if TYPE_CHECKING:
    from questc.model.plan import Pricing
    from questc.model.quest import QuestModel

Q401 = Descriptor(
    code="Q401",
    name="treachery-over-budget",
    severity=Severity.ERROR,
    template="the deck plan spends {spent} {colour} treachery, but the quest's budget gives {budget}",
    label_template="this brings the {colour} spending to {spent}",
    help_template="take {over} {colour} treachery out of the plan, or raise the quest's {colour} budget to {spent} "
    "(header `treachery`)",
    summary="An overlord deck plan spends more treachery of a colour than the quest's budget gives.",
    explanation="""
With The Well of Darkness, a quest gives the overlord treachery in three colours:
event (green), trap (purple) and monster (red). Each card with a treachery cost that
he swaps into his deck is paid in its own colour, and a dark glyph (Altar of Despair)
costs 2 of its colour. Points of one colour never pay for another. A plan (the
quest's `overlord { }` block, or a YAML plan checked with `questc deck`) that spends
more of a colour than the header's `treachery` gives cannot be played.

The diagnostic points at the card or dark glyph that first takes the spending over
the budget, with the other spending of that colour and the budget as labels.
""",
    example=Example(
        failing=quest(WOD.replace("trap 3", "trap 2"), tail='overlord {\n  card "Rolling Stone"\n}\n'),
        fixed=quest(WOD, tail='overlord {\n  card "Rolling Stone"\n}\n'),
    ),
    fields=("spent", "colour", "budget", "over"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q401 in the quest's own `overlord { }` plan."""
    pricing = context.plan
    return over_budget(pricing, context.model) if pricing is not None and pricing.budget is not None else []


def over_budget(pricing: Pricing, model: QuestModel) -> list[Diagnostic]:
    """One Q401 per colour spent beyond its budget, at the line that first goes over."""
    found = []
    budget_of = pricing.budget or {}
    for colour, over in pricing.over.items():
        budget = budget_of.get(colour, 0)
        running, culprit, others = 0, None, []
        for item, item_colour, points in pricing.costs:
            if item_colour != colour:
                continue
            running += points
            if culprit is None and running > budget:
                culprit = item
            else:
                others.append(Label(item.span, f"{points} {colour}"))
        assert culprit is not None  # the colour is over budget, so some line went over
        labels = others + budget_labels(model, colour)
        found.append(
            Q401.at(culprit.span, spent=pricing.spent[colour], colour=colour, budget=budget, over=over, labels=labels)
        )
    return found


RULE = Rule(Q401, find, needs={"treachery"})
