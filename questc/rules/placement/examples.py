"""Building blocks of the placement rules' example quests (their pages' failing and fixed examples)."""

from __future__ import annotations

HEAD = 'quest "Q" {\n  conquest 3\n}\n'

WIN = "victory heroes when revealed A\n"


def hall(extra: str = "", glyph: str = "glyph at 0,0 active") -> str:
    """A one-room quest (a 4x4 hall at 0,0, its start area A) with `extra` lines in the area."""
    return HEAD + "piece R1 room_4x4 at 0,0\n" + 'area A "Hall" start {\n  pieces R1\n  ' + glyph + "\n" + extra + "}\n"


STAIRS_MAP = "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\npiece R3 room_4x4 at 10,0\ndoor d between R1 R2\n"

STAIRS_AREAS = (
    'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Stair" { pieces R2 }\n'
    'area C "Loft" { pieces R3 }\nvictory heroes when revealed C\n'
)

BIG = 'named big "Big" giant { conquest 2 }\nvictory heroes when killed big\n'

WOD_HEAD = 'quest "Q" {\n  expansions base, well_of_darkness\n  conquest 3\n}\n'


def wod_hall(extra: str) -> str:
    """The one-room quest of `hall`, with The Well of Darkness's traps."""
    return hall(extra).replace(HEAD, WOD_HEAD, 1)
