"""Building blocks of the suppressions rules' example quests (their pages' failing and fixed examples)."""

from __future__ import annotations

QUEST = """quest "Q" {
  conquest 3
}
piece R1 room_4x4 at 0,0
piece C1 corridor_2x2 at 4,1
piece E1 dead_end at 6,1
area A "Hall" start { pieces R1; glyph at 0,0 active }
"""

TAIL = 'area B "Alcove" { pieces C1, E1 }\nvictory heroes when revealed B\n'
