"""Q2xx, placement: map geometry and what is placed on it (pieces, areas, doors, stairs, figures, markers)."""
from __future__ import annotations

from questc.rules import Rule
from questc.rules.placement import (
    area_coverage,
    bad_stairs,
    cell_conflict,
    door_not_on_passage,
    facing_mismatch,
    large_figure_does_not_fit,
    open_corridor_end,
    overlapping_pieces,
    placed_outside_area,
    start_area_count,
    start_without_active_glyph,
    start_without_entrance,
    tile_used_twice,
    token_misplaced,
)

TITLE = "Map geometry and placement"

RULES: tuple[Rule, ...] = (
    overlapping_pieces.RULE,  # Q201
    open_corridor_end.RULE,  # Q202
    area_coverage.RULE,  # Q203
    placed_outside_area.RULE,  # Q204
    door_not_on_passage.RULE,  # Q205
    bad_stairs.RULE,  # Q206
    cell_conflict.RULE,  # Q207
    large_figure_does_not_fit.RULE,  # Q208
    start_area_count.RULE,  # Q209
    start_without_active_glyph.RULE,  # Q210
    facing_mismatch.RULE,  # Q211
    token_misplaced.RULE,  # Q212
    tile_used_twice.RULE,  # Q213
    start_without_entrance.RULE,  # Q214
)


def ready(context: object) -> bool:
    """Every quest that reached the checks gets this family's rules."""
    return True
