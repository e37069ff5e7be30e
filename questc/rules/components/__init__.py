"""Q4xx, components: what the boxes hold (figures, pieces, markers) and the overlord's treachery and deck plan."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from questc.diagnostics.core import Diagnostic
from questc.model.plan import DeckPlan, Pricing, price_plan
from questc.model.quest import QuestModel
from questc.rules import Rule, rules_of
from questc.rules.components import (
    card_not_for_the_plan,
    dark_glyphs_without_glyphs,
    treachery_not_in_this_quest,
    treachery_over_budget,
    unspent_treachery,
)

if TYPE_CHECKING:
    from questc.catalog.owned import Declared

TITLE = "Components and budgets"

RULES: tuple[Rule, ...] = rules_of(
    __name__,
    "treachery_over_budget",  # Q401
    "card_not_for_the_plan",  # Q402
    "too_many_figures",  # Q403
    "too_many_map_pieces",  # Q404
    "too_many_markers",  # Q405
    "unusual_treachery_total",  # Q406
    "unspent_treachery",  # Q407
    "treachery_not_in_this_quest",  # Q408
    "dark_glyphs_without_glyphs",  # Q409
    "too_many_tokens",  # Q410
    "lieutenant_placed_twice",  # Q411
    "open_group_without_choice",  # Q412
)


def ready(context: object) -> bool:
    """Every quest that reached the checks gets this family's rules."""
    return True


def check_plan(
    plan: DeckPlan, model: QuestModel, owned_sets: Iterable[str], declared: Declared | None = None
) -> tuple[Pricing, list[Diagnostic]]:
    """A deck plan (a YAML plan file, for `questc deck`) priced against a quest and the box owned
    (the sets, and the configuration's `[owned]` counts), with every diagnostic the plan's rules
    give about it (Q101 for a name the catalog does not know, Q401, Q402, Q407, Q408, Q409), as
    they give them for the quest's own `overlord { }` block."""
    sets = tuple(owned_sets)
    pricing = price_plan(plan, model, sets, declared)
    found: list[Diagnostic] = []
    for problem in pricing.problems:
        if problem.kind == "unknown":
            kind = "dark_glyph" if problem.item.kind == "dark_glyph" else "card"
            found.append(model.catalog.unknown(kind, problem.item.name, problem.item.span))
        else:
            found.append(card_not_for_the_plan.diagnostic(problem, sets))
    if pricing.budget is None:
        found.append(treachery_not_in_this_quest.plan_without_budget(plan, model))
    else:
        found += treachery_over_budget.over_budget(pricing, model)
        if not pricing.over and pricing.unspent:
            found.append(unspent_treachery.unspent(pricing, plan, model))
    found += dark_glyphs_without_glyphs.dark_glyph_room(plan, model)
    return pricing, found
