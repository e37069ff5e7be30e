"""Q3xx, reveal: what the reveal fixed point (questc.analysis) says can never happen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc.rules import Rule, rules_of

if TYPE_CHECKING:
    from questc.rules.context import CheckContext

TITLE = "Reaching and revealing"

RULES: tuple[Rule, ...] = rules_of(
    __name__,
    "area_never_revealed",  # Q301
    "marker_out_of_reach",  # Q302
    "rune_door_guards_own_key",  # Q303
    "rune_door_without_key",  # Q304
    "area_visible_from_start",  # Q305
    "floor_out_of_reach",  # Q306
    "victory_impossible",  # Q307
    "stairs_around_rune_door",  # Q308
    "reveal_order",  # Q309
    "token_out_of_reach",  # Q310
    "exit_out_of_reach",  # Q311
    "defeat_out_of_reach",  # Q312
    "carry_out_of_reach",  # Q313
    "placed_out_of_reach",  # Q314
)


def ready(context: CheckContext) -> bool:
    """Without a start area nothing can be revealed: Q209 says why, and no reveal rule runs."""
    return bool(context.model.start_areas)
