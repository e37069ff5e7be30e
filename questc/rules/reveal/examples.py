"""Building blocks of the reveal rules' example quests (their pages' failing and fixed examples)."""

from __future__ import annotations

HEAD = 'quest "Q" {\n  conquest 3\n}\n'

TWO_ROOMS = "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n"
