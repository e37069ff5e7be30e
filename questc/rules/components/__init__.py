"""Q4xx, components: what the boxes hold (figures, pieces, markers) and the overlord's treachery and deck plan."""
from __future__ import annotations

from questc.rules import Rule
from questc.rules.components import (
    card_not_for_the_plan,
    dark_glyphs_without_glyphs,
    lieutenant_placed_twice,
    too_many_figures,
    too_many_map_pieces,
    too_many_markers,
    too_many_tokens,
    treachery_not_in_this_quest,
    treachery_over_budget,
    unspent_treachery,
    unusual_treachery_total,
)

TITLE = "Components and budgets"

RULES: tuple[Rule, ...] = (
    treachery_over_budget.RULE,  # Q401
    card_not_for_the_plan.RULE,  # Q402
    too_many_figures.RULE,  # Q403
    too_many_map_pieces.RULE,  # Q404
    too_many_markers.RULE,  # Q405
    unusual_treachery_total.RULE,  # Q406
    unspent_treachery.RULE,  # Q407
    treachery_not_in_this_quest.RULE,  # Q408
    dark_glyphs_without_glyphs.RULE,  # Q409
    too_many_tokens.RULE,  # Q410
    lieutenant_placed_twice.RULE,  # Q411
)


def ready(context: object) -> bool:
    """Every quest that reached the checks gets this family's rules."""
    return True
