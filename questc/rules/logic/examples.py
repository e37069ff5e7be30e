"""Building blocks of the logic rules' example quests (their pages' failing and fixed examples)."""

from __future__ import annotations

HEAD = 'quest "Q" {\n  conquest 3\n}\n'

HALL = 'piece R1 room_6x6 at 0,0\narea A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'

CHIEF = '  named chief at 5,5\n}\nnamed chief "Chief" beastman { conquest 1 }\n'

WIN = "victory heroes when killed chief\n"


def quest(head: str = HEAD, area_lines: str = "", tail: str = "", win: str = WIN) -> str:
    """An otherwise valid one-room quest with `area_lines` in its start area and `tail` after it."""
    return head + HALL + area_lines + CHIEF + tail + win


LONG_READ = '  read """\n' + "".join(f"    Line {i} of a tale that goes on and on.\n" for i in range(1, 23)) + '  """\n'

SHORT_READ = '  read """\n' + "".join(f"    Line {i} of a tale that ends.\n" for i in range(1, 5)) + '  """\n'
