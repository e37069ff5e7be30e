"""Building blocks of the second edition rules' example quests (their pages' failing and fixed examples).

A small map of second edition tiles: tile 9A (a 4x4 room) at 0,0, the entrance north
of it (turned to face it), the exit east of it and an end cap closing its west side.
Heroes start on the entrance's four spaces (x 1-2, y -2..-1).
"""
from __future__ import annotations

HEAD = 'quest "Q" {\n  edition second\n}\n'

MAP = ("piece T tile_9a at 0,0\n"
       "piece In entrance at 1,-2 turn 180\n"
       "piece Out exit at 4,1 turn 270\n"
       "piece Cap end_cap at -1,1 turn 90\n")

WIN = "victory heroes when exited\n"


def second(extra: str = "", *, pieces: str = "T, In, Out, Cap", map_: str = MAP, win: str = WIN,
           head: str = HEAD) -> str:
    """The one-area second edition quest, with `extra` lines in its start area."""
    return head + map_ + 'area A "Hall" start {\n  pieces ' + pieces + "\n" + extra + "}\n" + win
