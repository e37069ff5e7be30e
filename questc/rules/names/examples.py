"""Building blocks of the names rules' example quests (their pages' failing and fixed examples)."""
from __future__ import annotations

HALL = 'piece R1 room_4x4 at 0,0\narea A "Hall" start { pieces R1; glyph at 0,0 active }\n'

HEAD = 'quest "Q" {\n  conquest 3\n}\n'
