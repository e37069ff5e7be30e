"""Small map builders for tests and benchmarks (in: shapes drawn as text, openings by
side, a position and a turn; out: `PlacedPiece`s and whole example boards).

These mirror the catalog's model shapes (CATALOG.md) without importing the catalog, so
the board can be tested on its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from .build import BoardBuild, build_board
from .geometry import Cell, Edge, hedge, norm_edge, vedge
from .parts import BlockInfo, Door, PlacedPiece

RUBBLE = BlockInfo(blocks_movement=True, blocks_sight=True, kind="rubble")
WATER = BlockInfo(blocks_movement=True, blocks_sight=False, kind="water")
FOG = BlockInfo(blocks_movement=False, blocks_sight=True, fog=True, kind="fog")
BOULDER = BlockInfo(blocks_movement=True, blocks_sight=True, wall_like=True, kind="boulder")
PIT = BlockInfo(blocks_movement=False, blocks_sight=False, kind="pit")


def shape_cells(rows: str) -> set[Cell]:
    """Cells of a shape drawn as rows joined by '/', 'o' = floor ('oo/o.')."""
    return {(x, y) for y, row in enumerate(rows.split("/")) for x, ch in enumerate(row) if ch == "o"}


def opening_edges(cells: set[Cell], side: str, start: int) -> tuple[Edge, Edge]:
    """The two boundary edges of the opening on `side` starting at row/column `start`.

    For north/south, `start` is the first of the two columns, and the edges are the
    outer sides of the topmost/bottommost floor cells of those columns; for east/west it
    is the first of the two rows.
    """
    edges = []
    for k in (start, start + 1):
        if side in ("north", "south"):
            ys = [y for x, y in cells if x == k]
            if side == "north":
                edges.append(hedge(k, min(ys)))
            else:
                edges.append(hedge(k, max(ys) + 1))
        else:
            xs = [x for x, y in cells if y == k]
            if side == "west":
                edges.append(vedge(min(xs), k))
            else:
                edges.append(vedge(max(xs) + 1, k))
    return edges[0], edges[1]


def _turn_point(p: tuple[int, int], w: int, h: int, turn: int) -> tuple[int, int]:
    """Turn a lattice point of the box [0,w]x[0,h] clockwise by `turn` degrees, keeping
    the new box's top-left corner at the origin."""
    x, y = p
    for _ in range(turn // 90 % 4):
        x, y, w, h = h - y, x, h, w
    return x, y


def shape_piece(
    piece_id: str, rows: str, at: tuple[int, int], openings: Sequence[tuple[str, int]] = (), turn: int = 0
) -> PlacedPiece:
    """A placed piece from a drawn shape, openings given unturned as (side, start)."""
    cells = shape_cells(rows)
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    ax, ay = at

    def move_point(p: Cell) -> Cell:
        x, y = _turn_point(p, w, h, turn)
        return x + ax, y + ay

    def move_cell(c: Cell) -> Cell:
        corners = [move_point((c[0] + dx, c[1] + dy)) for dx in (0, 1) for dy in (0, 1)]
        return min(x for x, _ in corners), min(y for _, y in corners)

    def move_edge(e: Edge) -> Edge:
        (x1, y1), (x2, y2) = move_point((e[0], e[1])), move_point((e[2], e[3]))
        return norm_edge(x1, y1, x2, y2)

    placed = frozenset(move_cell(c) for c in cells)

    def opening(side: str, start: int) -> tuple[Edge, Edge]:  # (an opening is two unit edges wide)
        first, second = sorted(move_edge(e) for e in opening_edges(cells, side, start))
        return first, second

    opens = tuple(opening(side, start) for side, start in openings)
    return PlacedPiece(piece_id, placed, opens)


ROOM_6X6 = ("oooooo/" * 6)[:-1]
ROOM_4X6 = ("oooo/" * 6)[:-1]
CORRIDOR_2X4 = "oooo/oooo"
INTERSECTION_T = "oooooo/oooooo/..oo../..oo.."
DEAD_END = "o/o"


def drowned_reliquary() -> BoardBuild:
    """The map of LANGUAGE.md section 1 (and acceptance/cases/clean_drowned_reliquary):
    hall R1, corridor C1 behind door `entry`, junction T1, dead end E1, and room R2
    behind the red rune door `vault`; rubble at 2,3 and 2,4, water at 7,2 and 8,2."""
    four_sides = [("north", 2), ("south", 2), ("west", 2), ("east", 2)]
    pieces = [
        shape_piece("R1", ROOM_6X6, (0, 0), four_sides),
        shape_piece("C1", CORRIDOR_2X4, (6, 2), [("west", 0), ("east", 0)]),
        shape_piece("T1", INTERSECTION_T, (10, 2), [("west", 0), ("east", 0), ("south", 2)]),
        shape_piece("E1", DEAD_END, (16, 2), [("west", 0)]),
        shape_piece("R2", ROOM_4X6, (11, 6), [("north", 1), ("south", 1), ("west", 2), ("east", 2)]),
    ]
    first = build_board(pieces, [], [], {})
    joint = {frozenset(j[:2]): j[2] for j in first.joints}
    doors = [Door("entry", joint[frozenset({"R1", "C1"})]), Door("vault", joint[frozenset({"T1", "R2"})], rune="red")]
    blocking = {(2, 3): RUBBLE, (2, 4): RUBBLE, (7, 2): WATER, (8, 2): WATER}
    return build_board(pieces, doors, [], blocking)
