"""Q5xx, logic: victory, chests, encounters, player counts, conquest, and printed texts (their length, their
characters, names that would print as identifiers)."""

from __future__ import annotations

from questc.rules import Rule, rules_of

TITLE = "Quest logic"

RULES: tuple[Rule, ...] = rules_of(
    __name__,
    "no_heroes_victory",  # Q501
    "chest_chart_too_short",  # Q502
    "chest_rows_never_used",  # Q503
    "empty_encounter",  # Q504
    "player_count_out_of_range",  # Q505
    "no_starting_conquest",  # Q506
    "conquest_on_the_map",  # Q507
    "text_overflows_box",  # Q508
    "other_edition_rule",  # Q509
    "text_cannot_be_printed",  # Q510
    "counter_never_raised",  # Q511
    "name_reads_as_identifier",  # Q520
)


def ready(context: object) -> bool:
    """Every quest that reached the checks gets this family's rules."""
    return True
