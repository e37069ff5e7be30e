"""Building blocks of the components rules' example quests (their pages' failing and fixed examples)."""

from __future__ import annotations

WOD = 'quest "Q" {\n  expansions base, well_of_darkness\n  conquest 3\n  treachery event 4, trap 3, monster 3\n}\n'

BASE = 'quest "Q" {\n  conquest 3\n}\n'

HALL = 'piece R1 room_6x6 at 0,0\narea A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'

CHIEF = '  named chief at 5,5\n}\nnamed chief "Chief" beastman { conquest 1 }\n'

WIN = "victory heroes when killed chief\n"


def quest(head: str, area_lines: str = "", tail: str = "") -> str:
    """An otherwise valid one-room quest with `area_lines` in its start area and `tail` after it."""
    return head + HALL + area_lines + CHIEF + tail + WIN


AOD = (
    'quest "Q" {\n  expansions base, well_of_darkness, altar_of_despair\n  conquest 3\n'
    "  treachery event 4, trap 3, monster 3\n}\n"
)
