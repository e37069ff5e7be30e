"""Q3xx, reveal: what the reveal fixed point (questc.analysis) says can never happen."""
from __future__ import annotations

from typing import TYPE_CHECKING

from questc.rules import Rule
from questc.rules.reveal import (
    area_never_revealed,
    area_visible_from_start,
    floor_out_of_reach,
    marker_out_of_reach,
    reveal_order,
    rune_door_guards_own_key,
    rune_door_without_key,
    stairs_around_rune_door,
    victory_impossible,
    token_out_of_reach,
    exit_out_of_reach,
)

if TYPE_CHECKING:
    from questc.rules.context import CheckContext

TITLE = "Reaching and revealing"

RULES: tuple[Rule, ...] = (
    area_never_revealed.RULE,  # Q301
    marker_out_of_reach.RULE,  # Q302
    rune_door_guards_own_key.RULE,  # Q303
    rune_door_without_key.RULE,  # Q304
    area_visible_from_start.RULE,  # Q305
    floor_out_of_reach.RULE,  # Q306
    victory_impossible.RULE,  # Q307
    stairs_around_rune_door.RULE,  # Q308
    reveal_order.RULE,  # Q309
    token_out_of_reach.RULE,  # Q310
    exit_out_of_reach.RULE,  # Q311
)


def ready(context: CheckContext) -> bool:
    """Without a start area nothing can be revealed: Q209 says why, and no reveal rule runs."""
    return bool(context.model.start_areas)
