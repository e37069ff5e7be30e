"""questc's squares in, Valkyrie's board positions out, and back: tiles, doors, tokens, figures.

How Valkyrie places things (Quest.cs and TokenBoard.cs in Valkyrie's source):

- Its board is Unity's plane: x grows east and **y grows north**; a square's centre
  is at whole numbers. questc's cell (x, y), y growing south, is Valkyrie's (x, -y).
- A tile: the image is moved so the centre of its first space (the top-left square
  of the side's grid: `top` and `left` in tiles.ini are where that square's corner
  lies in the image, so the image's size drops out) sits at (0, 0), turned about
  that point by `rotation` degrees **counterclockwise**, then moved to
  (xposition, yposition). questc turns a piece clockwise about its box's corner, so
  a `turn t` piece is Valkyrie's rotation (360 - t) % 360, positioned at the square
  where the unturned top-left square ended up.
- A door: a bar 1.6 squares long, upright at rotation 0 (lying at 90), centred on the
  corner north-west of the square (xposition, yposition): the west side of that square
  and of the one north of it, or (at 90) the north side of that square and of the one
  west of it.
- A token, an event's camera and highlight: the square at (xposition, yposition).
- A figure's placement (MPlace): its top-left square, the figure being the size its
  monster's trait gives (small 1x1, medium 2x1, huge 2x2, massive 3x2); `rotate=true`
  turns it a quarter clockwise about its first square, so (xposition, yposition) is
  then its top-right square.

tests/test_valkyrie_geometry.py holds every tile side at every turn to questc's board.
"""

from __future__ import annotations

from dataclasses import dataclass

from questc.catalog.shapes import quarter_turns, turn_cell
from questc.valkyrie.content import TILE_13A_BOX, TILE_13A_PARTS

__all__ = [
    "Placement",
    "cell_of",
    "door_at",
    "door_edges",
    "figure_at",
    "figure_place",
    "part_of_13a",
    "piece_at",
    "square",
    "tile_placement",
    "whole_13a",
]

Cell = tuple[int, int]
Edge = tuple[int, int, int, int]


@dataclass(frozen=True)
class Placement:
    """Where Valkyrie puts a component: its square (Valkyrie's axes) and rotation in degrees."""

    x: int
    y: int
    rotation: int = 0


def square(cell: Cell) -> tuple[int, int]:
    """questc's cell in; the same square on Valkyrie's board (y grows north) out."""
    return (cell[0], -cell[1])


def cell_of(x: int, y: int) -> Cell:
    """A square on Valkyrie's board in; questc's cell out."""
    return (x, -y)


def tile_placement(at: Cell, turn: int, width: int, height: int) -> Placement:
    """A piece's `at` (its turned box's top-left cell), clockwise `turn` and unturned size in;
    Valkyrie's tile position and rotation out."""
    dx, dy = turn_cell((0, 0), width, height, turn)
    x, y = square((at[0] + dx, at[1] + dy))
    return Placement(x, y, (360 - quarter_turns(turn) * 90) % 360)


def piece_at(placement: Placement, width: int, height: int) -> tuple[Cell, int] | None:
    """Valkyrie's tile position and rotation and the side's unturned size in; questc's `at` and
    turn out, or None for a rotation that is not a quarter turn."""
    if placement.rotation % 90:
        return None
    turn = (360 - placement.rotation % 360) % 360
    dx, dy = turn_cell((0, 0), width, height, turn)
    x, y = cell_of(placement.x, placement.y)
    return (x - dx, y - dy), turn


def door_at(edges: tuple[Edge, Edge]) -> Placement:
    """A door's two unit edges (questc's lattice) in; Valkyrie's door position and rotation out."""
    (x1, y1, x2, _y2), _ = sorted(edges)
    if x1 == x2:  # an upright door: the west side of cells (x1, y1) and (x1, y1 + 1)
        x, y = square((x1, y1 + 1))
        return Placement(x, y, 0)
    x, y = square((x1 + 1, y1))  # a lying door: the north side of cells (x1, y1) and (x1 + 1, y1)
    return Placement(x, y, 90)


def door_edges(placement: Placement) -> tuple[Edge, Edge] | None:
    """Valkyrie's door position and rotation in; its two unit edges on questc's lattice out, or
    None for a rotation that is not a quarter turn."""
    if placement.rotation % 90:
        return None
    x, y = cell_of(placement.x, placement.y)
    if placement.rotation % 180 == 0:
        return ((x, y - 1, x, y), (x, y, x, y + 1))
    return ((x - 1, y, x, y), (x, y, x + 1, y))


def figure_place(at: Cell, size: tuple[int, int], valkyrie_size: tuple[int, int]) -> tuple[Placement, bool]:
    """A figure's top-left cell and the (w, h) it covers in questc, and its monster's unrotated
    size in Valkyrie, in; the placement's square and whether it is rotated out. Raises
    ValueError when the two sizes do not agree even turned."""
    w, h = size
    if (w, h) == valkyrie_size:
        return Placement(*square(at)), False
    if (h, w) == valkyrie_size:
        return Placement(*square((at[0] + w - 1, at[1]))), True
    raise ValueError(f"a {w}x{h} figure cannot stand on a {valkyrie_size[0]}x{valkyrie_size[1]} placement")


def figure_at(placement: Placement, rotate: bool, valkyrie_size: tuple[int, int]) -> tuple[Cell, tuple[int, int]]:
    """A placement's square, its `rotate` and its monster's unrotated size in; the figure's top-left
    cell and the (w, h) it covers in questc out."""
    w, h = (valkyrie_size[1], valkyrie_size[0]) if rotate else valkyrie_size
    x, y = cell_of(placement.x, placement.y)
    return ((x - w + 1, y) if rotate else (x, y)), (w, h)


def _part_corner(part: str, turn: int) -> Cell:
    """Where a part of 13A's box lands, turned with the whole side: its turned box's top-left."""
    (ox, oy), (w, h) = TILE_13A_PARTS[part]
    turned = [turn_cell((ox + x, oy + y), *TILE_13A_BOX, turn) for x in range(w) for y in range(h)]
    return (min(c[0] for c in turned), min(c[1] for c in turned))


def whole_13a(part: str, at: Cell, turn: int) -> Cell:
    """A part of 13A (`tile_13a1`, `tile_13a2`) at `at`, turned, in; where the whole side's turned
    box is (its `at` as one piece of 6x6) out."""
    dx, dy = _part_corner(part, turn)
    return (at[0] - dx, at[1] - dy)


def part_of_13a(part: str, whole: Cell, turn: int) -> Cell:
    """The whole side 13A's `at` and turn in; where its part (`tile_13a1`, `tile_13a2`) goes out."""
    dx, dy = _part_corner(part, turn)
    return (whole[0] + dx, whole[1] + dy)
