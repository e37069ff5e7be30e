"""Building blocks of the second edition rules' example quests (their pages' failing and fixed examples).

A small map of second edition tiles: tile 9A (a 4x4 room) at 0,0, the entrance north
of it (turned to face it), the exit east of it and an end cap closing its west side.
Heroes start on the entrance's four spaces (x 1-2, y -2..-1).

`two` makes a quest of two areas: the hall (tile 9A, the entrance, the end cap) and, east of
it, tile 14B (x 4-7) with the exit beyond; `apart` sets tile 14B off on its own (x 10-13),
joined to nothing, each connection closed by an end cap or the exit.
"""

from __future__ import annotations

HEAD = 'quest "Q" {\n  edition second\n}\n'

MAP = (
    "piece T tile_9a at 0,0\n"
    "piece In entrance at 1,-2 turn 180\n"
    "piece Out exit at 4,1 turn 270\n"
    "piece Cap end_cap at -1,1 turn 90\n"
)

WIN = "victory heroes when exited\n"

# The first edition's way of revealing, which a second edition quest may choose: an area is
# revealed when a hero sees into it, not set up at the start.
SIGHT_HEAD = 'quest "Q" {\n  edition second\n  reveal sight\n}\n'

# A victory that needs no place on the map (for examples whose map leaves the exit out of reach).
ROUNDS = "victory heroes when round > 6\n"


def second(
    extra: str = "", *, pieces: str = "T, In, Out, Cap", map_: str = MAP, win: str = WIN, head: str = HEAD
) -> str:
    """The one-area second edition quest, with `extra` lines in its start area."""
    return head + map_ + 'area A "Hall" start {\n  pieces ' + pieces + "\n" + extra + "}\n" + win


# Tile 14B joined to 9A's east connection, the exit on its east one.
TWO_MAP = (
    MAP.replace("piece Out exit at 4,1 turn 270\n", "") + "piece T2 tile_14b at 4,0\npiece Out exit at 8,1 turn 270\n"
)

# Tile 14B away from the hall: 9A's east connection capped, 14B's west capped and the exit on its east.
APART_MAP = (
    MAP.replace("piece Out exit at 4,1 turn 270\n", "piece Cap2 end_cap at 4,1 turn 270\n")
    + "piece T2 tile_14b at 10,0\npiece Cap3 end_cap at 9,1 turn 90\npiece Out exit at 14,1 turn 270\n"
)


def two(
    hall: str = "",
    east: str = "",
    *,
    doors: str = "",
    apart: bool = False,
    east_start: bool = False,
    win: str = WIN,
    head: str = HEAD,
) -> str:
    """The quest of two areas: the start area A (tile 9A) and B (tile 14B, joined to 9A, or `apart`),
    with `hall` and `east` lines in each and the `doors` statements after the map."""
    map_, hall_pieces, east_pieces = (
        (APART_MAP, "T, In, Cap, Cap2", "T2, Cap3, Out") if apart else (TWO_MAP, "T, In, Cap", "T2, Out")
    )
    return (
        head
        + map_
        + doors
        + 'area A "Hall" start {\n  pieces '
        + hall_pieces
        + "\n"
        + hall
        + "}\n"
        + f'area B "East"{" start" if east_start else ""} {{\n  pieces '
        + east_pieces
        + "\n"
        + east
        + "}\n"
        + win
    )
