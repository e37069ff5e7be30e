"""Turning shapes: cells and sides of an unturned w×h shape in, the same turned clockwise out."""

from __future__ import annotations

from collections.abc import Iterable

SIDES = ("north", "east", "south", "west")  # clockwise order: a quarter turn is one step on

# The outward step from a cell across each side (x grows east, y grows south).
OUTWARD = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}

# Along each side, the direction a two-cell stretch runs: east for north/south sides,
# south for east/west sides (LANGUAGE.md's `door ... at X,Y SIDE` convention).
ALONG = {"north": (1, 0), "south": (1, 0), "east": (0, 1), "west": (0, 1)}


def quarter_turns(turn: int) -> int:
    """Degrees clockwise (a multiple of 90, any sign) in, quarter turns 0-3 out."""
    if not isinstance(turn, int) or isinstance(turn, bool) or turn % 90:
        raise ValueError(f"a turn must be a multiple of 90 degrees, not {turn!r}")
    return (turn // 90) % 4


def turn_side(side: str, turn: int) -> str:
    """A side name and degrees clockwise in, the side it faces after the turn out."""
    return SIDES[(SIDES.index(side) + quarter_turns(turn)) % 4]


def turned_size(width: int, height: int, turn: int) -> tuple[int, int]:
    """The bounding box (w, h) after turning: a quarter or three-quarter turn swaps it."""
    return (height, width) if quarter_turns(turn) % 2 else (width, height)


def turn_cell(cell: tuple[int, int], width: int, height: int, turn: int) -> tuple[int, int]:
    """A cell of an unturned width×height box in, its cell in the turned box out.

    Turning clockwise about the top-left corner and shifting the new bounding box
    back to the origin is, for one quarter turn, (x, y) -> (h-1-y, x).
    """
    x, y = cell
    w, h = width, height
    for _ in range(quarter_turns(turn)):
        x, y = h - 1 - y, x
        w, h = h, w
    return (x, y)


def turn_cells(cells: Iterable[tuple[int, int]], width: int, height: int, turn: int) -> frozenset[tuple[int, int]]:
    """Cells of an unturned box in, the turned cells (relative to the new top-left) out."""
    return frozenset(turn_cell(c, width, height, turn) for c in cells)


def shift(cells: Iterable[tuple[int, int]], at: tuple[int, int]) -> frozenset[tuple[int, int]]:
    """Relative cells and an offset in, absolute cells out."""
    ax, ay = at
    return frozenset((x + ax, y + ay) for x, y in cells)


def rows_to_cells(rows: Iterable[str]) -> frozenset[tuple[int, int]]:
    """Text rows (`o` floor, `.` none) in, the floor cells out."""
    return frozenset((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "o")


def cells_to_rows(cells: Iterable[tuple[int, int]], width: int, height: int) -> tuple[str, ...]:
    """Cells inside a width×height box in, the text rows drawing them out."""
    cells = set(cells)
    return tuple("".join("o" if (x, y) in cells else "." for x in range(width)) for y in range(height))
