"""Building blocks of the syntax rules' example quests (their pages' failing and fixed examples)."""
from __future__ import annotations

TAIL = 'piece R1 room_4x4 at 0,0\narea A "Hall" start { pieces R1; glyph at 0,0 active }\nvictory heroes when revealed A\n'
