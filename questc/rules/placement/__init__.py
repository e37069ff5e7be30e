"""Q2xx, placement: map geometry and what is placed on it (pieces, areas, doors, stairs, figures, markers)."""

from __future__ import annotations

from questc.rules import Rule, rules_of

TITLE = "Map geometry and placement"

RULES: tuple[Rule, ...] = rules_of(
    __name__,
    "overlapping_pieces",  # Q201
    "open_corridor_end",  # Q202
    "area_coverage",  # Q203
    "placed_outside_area",  # Q204
    "door_not_on_passage",  # Q205
    "bad_stairs",  # Q206
    "cell_conflict",  # Q207
    "large_figure_does_not_fit",  # Q208
    "start_area_count",  # Q209
    "start_without_active_glyph",  # Q210
    "facing_mismatch",  # Q211
    "token_misplaced",  # Q212
    "tile_used_twice",  # Q213
    "start_without_entrance",  # Q214
    "unjoined_connection",  # Q215
    "no_room_to_place",  # Q216
    "reinforcements_too_many",  # Q217
)


def ready(context: object) -> bool:
    """Every quest that reached the checks gets this family's rules."""
    return True
