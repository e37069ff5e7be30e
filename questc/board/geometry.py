"""Grid geometry for the board: unit edges, the eight directions around a lattice point,
and the exact walk of a straight segment through the grid (in: two points in doubled
integer coordinates; out: the ordered cells, edges and grid points the segment meets).

Conventions (docs/architecture.md): points are ``(x, y)`` with x east and y south; cell
``(x, y)`` spans ``[x, x+1] x [y, y+1]``; a unit edge is ``(x1, y1, x2, y2)`` with
``(x1, y1) < (x2, y2)``.  A vertical edge ``(x, y, x, y+1)`` is *keyed* by its top point
``(x, y)`` (it is the west side of cell ``(x, y)``), a horizontal edge ``(x, y, x+1, y)``
by its left point (the north side of cell ``(x, y)``).

Everything here is integer arithmetic.  Doubling every coordinate puts cell corners on
even numbers and cell centres on odd ones, so a centre-to-centre segment (first edition)
and a corner-to-corner one (second edition) are walked by the same code.
"""

from __future__ import annotations

from collections.abc import Iterator

Cell = tuple[int, int]
Point = tuple[int, int]
Edge = tuple[int, int, int, int]

# Positions around a lattice point, clockwise on the page (y grows south), starting east.
# Even positions are the four unit edges ("arms") leaving the point, odd positions the
# four cells ("quadrants") around it.  A line through the point goes from position p to
# position p + 4.
E, SE, S, SW, W, NW, N, NE = range(8)
ARMS = (E, S, W, N)
QUADRANTS = (SE, SW, NW, NE)

# Feature kinds produced by segment_features (the `extra` field is described per kind).
CELL = 0  # the segment crosses the interior of cell (x, y); extra 0
VCROSS = 1  # it crosses the vertical edge keyed (x, y) at an inner point; extra 0
HCROSS = 2  # it crosses the horizontal edge keyed (x, y); extra 0
POINT = 3  # it passes through lattice point (x, y); extra = line orientation 0..3
VALONG = 4  # it runs along the vertical edge keyed (x, y); extra = exempt sides (bit 1 west, bit 2 east)
HALONG = 5  # it runs along the horizontal edge keyed (x, y); extra = exempt sides (bit 1 north, bit 2 south)
REACH = 6  # an end of a corner-to-corner line at point (x, y); extra = quadrant * 8 + region


def norm_edge(x1: int, y1: int, x2: int, y2: int) -> Edge:
    """The unit edge between two lattice points, normalised so the smaller point comes first."""
    if (x1, y1) <= (x2, y2):
        return (x1, y1, x2, y2)
    return (x2, y2, x1, y1)


def vedge(x: int, y: int) -> Edge:
    """The vertical unit edge from (x, y) down to (x, y+1): the west side of cell (x, y)."""
    return (x, y, x, y + 1)


def hedge(x: int, y: int) -> Edge:
    """The horizontal unit edge from (x, y) to (x+1, y): the north side of cell (x, y)."""
    return (x, y, x + 1, y)


def is_unit_edge(edge: Edge) -> bool:
    """True when `edge` is a normalised unit edge between neighbouring lattice points."""
    x1, y1, x2, y2 = edge
    return (x2 - x1, y2 - y1) in ((1, 0), (0, 1))


def cell_sides(cell: Cell) -> tuple[Edge, Edge, Edge, Edge]:
    """The four sides of a cell, in the order north, east, south, west."""
    x, y = cell
    return (hedge(x, y), vedge(x + 1, y), hedge(x, y + 1), vedge(x, y))


def edge_between(a: Cell, b: Cell) -> Edge | None:
    """The unit edge shared by two orthogonally neighbouring cells, else None."""
    (ax, ay), (bx, by) = a, b
    if ay == by and abs(ax - bx) == 1:
        return vedge(max(ax, bx), ay)
    if ax == bx and abs(ay - by) == 1:
        return hedge(ax, max(ay, by))
    return None


def edge_cells(edge: Edge) -> tuple[Cell, Cell]:
    """The two cells on either side of a unit edge: (west, east) or (north, south)."""
    x1, y1, x2, y2 = edge
    if x1 == x2:
        return (x1 - 1, y1), (x1, y1)
    return (x1, y1 - 1), (x1, y1)


def arm_edge(point: Point, arm: int) -> Edge:
    """The unit edge leaving lattice `point` in direction `arm` (E, S, W or N)."""
    x, y = point
    if arm == E:
        return hedge(x, y)
    if arm == S:
        return vedge(x, y)
    if arm == W:
        return hedge(x - 1, y)
    if arm == N:
        return vedge(x, y - 1)
    raise ValueError(f"not an arm position: {arm}")


def quadrant_cell(point: Point, quadrant: int) -> Cell:
    """The cell lying in `quadrant` (SE, SW, NW or NE) of lattice `point`."""
    x, y = point
    return {SE: (x, y), SW: (x - 1, y), NW: (x - 1, y - 1), NE: (x, y - 1)}[quadrant]


def quadrant_of(cell: Cell, point: Point) -> int:
    """Which quadrant of lattice `point` the cell is in; `point` must be one of its corners."""
    dx, dy = point[0] - cell[0], point[1] - cell[1]
    return {(0, 0): SE, (1, 0): SW, (1, 1): NW, (0, 1): NE}[(dx, dy)]


def position_of(dx: int, dy: int) -> int:
    """The position (0..7) of the direction (dx, dy) around a point, by its signs."""
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    return _POSITION_BY_SIGNS[(sx, sy)]


_POSITION_BY_SIGNS = {(1, 0): E, (1, 1): SE, (0, 1): S, (-1, 1): SW, (-1, 0): W, (-1, -1): NW, (0, -1): N, (1, -1): NE}


def cut_through(blocked_arms: frozenset[int] | set[int], through: int) -> bool:
    """Does a line passing straight through a point get cut there?

    `through` is the position the line comes from (it leaves at `through + 4`); the
    line splits the other arms into two sides.  The line is cut when both sides hold a
    blocked arm: that is the diagonal-step rule (a wall's free end or the outside of a
    corner leaves one side open; a straight wall, or walls of two pieces meeting at a
    corner, close both).
    """
    side_a = any((through + k) % 8 in blocked_arms for k in (1, 2, 3))
    side_b = any((through + 4 + k) % 8 in blocked_arms for k in (1, 2, 3))
    return side_a and side_b


def cut_reach(blocked_arms: frozenset[int] | set[int], quadrant: int, region: int) -> bool:
    """Is the region `region` around a point cut off from the cell in `quadrant`?

    Used where a corner-to-corner line starts or ends: the line must get from its own
    cell to the corner and out in its direction (`region`: the quadrant or arm it runs
    into) without crossing a wall there.  Going round the point clockwise or
    anticlockwise, the arms strictly between are crossed; it is cut when both ways
    cross a blocked arm.  An arm the line runs along is not crossed (the caller checks
    running along it separately).
    """
    if region == quadrant:
        return False
    cw = (region - quadrant) % 8
    clockwise = any((quadrant + k) % 8 in blocked_arms for k in range(1, cw))
    anticlockwise = any((quadrant - k) % 8 in blocked_arms for k in range(1, 8 - cw))
    return clockwise and anticlockwise


def _next_even(v: int, step: int) -> int:
    """The first even number strictly after `v` going in direction `step` (+1 or -1)."""
    if v % 2:
        return v + step
    return v + 2 * step


def segment_features(x0: int, y0: int, x1: int, y1: int) -> Iterator[tuple[int, int, int, int]]:
    """Walk the segment from (x0, y0) to (x1, y1), given in doubled coordinates.

    Yields ``(kind, x, y, extra)`` in order from the start, in ordinary (undoubled)
    coordinates, excluding the two end points themselves:

    - ``(CELL, cx, cy, 0)`` for each cell whose interior the segment crosses (the cells
      holding the ends included: callers exempt them);
    - ``(VCROSS, x, y, 0)`` / ``(HCROSS, x, y, 0)`` when it crosses the vertical /
      horizontal edge keyed ``(x, y)`` at an inner point of the edge;
    - ``(POINT, x, y, o)`` when it passes exactly through lattice point (x, y), with
      orientation ``o = position % 4`` (0 west-east, 1 NW-SE, 2 north-south, 3 NE-SW);
    - ``(VALONG, x, y, 0)`` / ``(HALONG, x, y, 0)`` for each unit edge it runs along
      (only a horizontal or vertical segment through lattice lines does).

    This is the voxel walk of Amanatides and Woo with exact ties: the next vertical and
    horizontal grid lines are compared by cross-multiplication, and a tie is a pass
    through a grid point.
    """
    dx, dy = x1 - x0, y1 - y0
    if dx == 0 and dy == 0:
        return
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    adx, ady = abs(dx), abs(dy)
    orientation = position_of(dx, dy) % 4

    # Column of the first stretch, or None while the segment runs along a vertical grid
    # line (dx == 0 with x0 even).  Cells span [2c, 2c+2] in doubled coordinates.
    if sx == 0:
        col = None if x0 % 2 == 0 else x0 // 2
        line_x = x0 // 2
        next_x = None
    else:
        col = x0 // 2 if (x0 % 2 == 1 or sx > 0) else x0 // 2 - 1
        next_x = _next_even(x0, sx)
    if sy == 0:
        row = None if y0 % 2 == 0 else y0 // 2
        line_y = y0 // 2
        next_y = None
    else:
        row = y0 // 2 if (y0 % 2 == 1 or sy > 0) else y0 // 2 - 1
        next_y = _next_even(y0, sy)

    while True:
        # How far along (scaled) the next crossings are; beyond the end counts as none.
        hx = abs(next_x - x0) if next_x is not None and abs(next_x - x0) < adx else None
        hy = abs(next_y - y0) if next_y is not None and abs(next_y - y0) < ady else None
        # The stretch before the next event (or the end).
        if col is not None and row is not None:
            yield (CELL, col, row, 0)
        elif col is None:
            assert row is not None  # a segment runs along one grid line at most
            yield (VALONG, line_x, row, 0)
        else:
            yield (HALONG, col, line_y, 0)
        if hx is None and hy is None:
            return
        if hx is not None and hy is not None:
            lhs, rhs = hx * ady, hy * adx  # compare hx/adx with hy/ady exactly
        elif hx is not None:
            lhs, rhs = 0, 1
        else:
            lhs, rhs = 1, 0
        if lhs == rhs:
            assert next_x is not None and next_y is not None  # a tie needs both crossings
            px, py = next_x // 2, next_y // 2
            yield (POINT, px, py, orientation)
            col = px if sx > 0 else px - 1
            row = py if sy > 0 else py - 1
            next_x += 2 * sx
            next_y += 2 * sy
        elif lhs < rhs:
            assert next_x is not None  # lhs < rhs only when a vertical crossing comes
            ex = next_x // 2
            if row is None:  # running along a horizontal line: the crossing is a point
                yield (POINT, ex, line_y, orientation)
            else:
                yield (VCROSS, ex, row, 0)
            col = ex if sx > 0 else ex - 1
            next_x += 2 * sx
        else:
            assert next_y is not None
            ey = next_y // 2
            if col is None:
                yield (POINT, line_x, ey, orientation)
            else:
                yield (HCROSS, col, ey, 0)
            row = ey if sy > 0 else ey - 1
            next_y += 2 * sy
