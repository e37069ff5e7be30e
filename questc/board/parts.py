"""The parts a board is built from, as plain records: placed pieces, doors, staircases and
what an obstacle in a cell does."""

from __future__ import annotations

from questc.records import record

from .geometry import Cell, Edge


@record
class PlacedPiece:
    """A map piece already turned and placed.

    id: the quest's name for it; cells: its floor cells in board coordinates;
    openings: each opening as its two unit boundary edges (normalised `Edge`s).
    """

    id: str
    cells: frozenset[Cell]
    openings: tuple[tuple[Edge, Edge], ...] = ()


@record
class Door:
    """A door on a two-cell stretch of edge: id, its two unit edges, rune colour or None."""

    id: str
    edges: tuple[Edge, Edge]
    rune: str | None = None


@record
class Stairs:
    """A pair of staircase markers of one colour, on the cells `ends`."""

    colour: str
    ends: tuple[Cell, Cell]


@record
class BlockInfo:
    """What an obstacle in a cell does.

    blocks_movement: figures cannot enter the cell (diagonal steps past it are fine);
    blocks_sight: a line through the cell's interior is blocked;
    fog: sight enters the cell only from a neighbouring cell, and leaves it only to one;
    wall_like: a boulder or crushing wall: the cell is walled in on all four sides, for
    movement and sight alike (so it also counts at grid points, as walls do);
    kind: the obstacle's catalog name, used in explanations ("rubble at 2,3");
    pit: a second edition pit: a figure in it spends no movement points, so it leaves only
    for a cell that is not a pit (movement.py).
    """

    blocks_movement: bool
    blocks_sight: bool
    fog: bool = False
    wall_like: bool = False
    kind: str = "obstacle"
    pit: bool = False
