"""Q407 unspent-treachery: the code's descriptor and the check that finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.model.plan import COLOURS, MAX_HAND, STARTING_HAND
from questc.rules import Rule
from questc.rules.components.budget import budget_labels
from questc.rules.components.examples import WOD, quest
from questc.rules.context import CheckContext
from questc.words import plural

if TYPE_CHECKING:
    from questc.model.plan import DeckPlan, Pricing
    from questc.model.quest import QuestModel

Q407 = Descriptor(
    code="Q407",
    name="unspent-treachery",
    severity=Severity.INFO,
    template="the deck plan leaves {left} treachery unspent ({detail}): {cards}",
    label_template="{left} left over",
    help_template="every 2 points left over, of any colour, give the overlord one extra card at the start "
    "(he starts with 3 and may hold at most 8)",
    summary="Unspent treachery in a deck plan, and the extra starting cards it buys.",
    explanation="""
Treachery the overlord does not spend is not lost: every 2 points left over, of any
colour together, give him one more overlord card at the start of the quest. He starts
with 3 cards and may hold at most 8, so at most 5 extra cards can be bought this way.
""",
    example=Example(
        failing=quest(WOD, tail='overlord {\n  card "Danger"\n}\n'),
        fixed=quest(
            'quest "Q" {\n  expansions base, well_of_darkness, altar_of_despair\n  conquest 3\n'
            "  treachery event 1, trap 3, monster 2\n}\n",
            "  glyph at 3,0\n",
            tail='overlord {\n  card "Danger"\n  card "Rolling Stone"\n  dark_glyph summoning\n}\n',
        ),
    ),
    fields=("left", "detail", "cards"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q407 for the quest's own `overlord { }` plan."""
    pricing = context.plan
    if pricing is None or pricing.budget is None or pricing.over or not pricing.unspent:
        return []
    return [unspent(pricing, pricing.plan, context.model)]


def unspent(pricing: Pricing, plan: DeckPlan, model: QuestModel) -> Diagnostic:
    """The Q407 report of a plan within its budget: what is left, and the extra starting cards it buys."""
    left = pricing.left
    detail = ", ".join(f"{c} {left[c]}" for c in COLOURS)
    extra = pricing.extra_cards
    if extra == 0:
        cards = "too little for an extra starting card (1 per 2 points)"
    else:
        capped = " (a full hand: the most he may hold)" if STARTING_HAND + extra == MAX_HAND else ""
        cards = f"the overlord starts with {plural(extra, 'extra card')}, {STARTING_HAND + extra} in hand{capped}"
    return Q407.at(plan.span, left=pricing.unspent, detail=detail, cards=cards, labels=budget_labels(model))


RULE = Rule(Q407, find, needs={"treachery"})
