"""Q5xx, logic: victory, chests, encounters, player counts, conquest and the length of printed texts."""
from __future__ import annotations

from questc.rules import Rule
from questc.rules.logic import (
    chest_chart_too_short,
    chest_rows_never_used,
    conquest_on_the_map,
    empty_encounter,
    no_heroes_victory,
    no_starting_conquest,
    other_edition_rule,
    player_count_out_of_range,
    text_cannot_be_printed,
    text_overflows_box,
)

TITLE = "Quest logic"

RULES: tuple[Rule, ...] = (
    no_heroes_victory.RULE,  # Q501
    chest_chart_too_short.RULE,  # Q502
    chest_rows_never_used.RULE,  # Q503
    empty_encounter.RULE,  # Q504
    player_count_out_of_range.RULE,  # Q505
    no_starting_conquest.RULE,  # Q506
    conquest_on_the_map.RULE,  # Q507
    text_overflows_box.RULE,  # Q508
    other_edition_rule.RULE,  # Q509
    text_cannot_be_printed.RULE,  # Q510
)


def ready(context: object) -> bool:
    """Every quest that reached the checks gets this family's rules."""
    return True
