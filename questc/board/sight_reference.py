"""A slow, obviously correct line-of-sight oracle for the tests (in: a board, two cells,
a sight rule, open doors; out: seen or not).

It shares nothing with the fast code but the board's plain sets (floor, blocked edges,
opaque and fog cells).  The segment is parametrised exactly with `Fraction`s; every
parameter where it meets a grid line is an *event*; between events the segment is
inside one cell or runs along one edge (tested at the stretch's midpoint); at an event
it crosses an edge or passes a grid point.  At a grid point the arms (unit edges
leaving it) are sorted to either side of the line by the sign of a cross product.
Where a corner-to-corner line starts or ends, the way from the own cell to the line's
direction is walked round the point by exact pseudo-angles.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import floor

from .layout import Layout
from .sight import CENTRE_LINE

Cell = tuple[int, int]
_ARM_VECTORS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def _arm(px: int, py: int, ux: int, uy: int) -> tuple[int, int, int, int]:
    """The unit edge from lattice point (px, py) one step in direction (ux, uy), normalised."""
    a, b = (px, py), (px + ux, py + uy)
    return (*min(a, b), *max(a, b))


def _edge_between(a: Cell, b: Cell) -> tuple[int, int, int, int]:
    (ax, ay), (bx, by) = a, b
    if ay == by:
        x = max(ax, bx)
        return (x, ay, x, ay + 1)
    y = max(ay, by)
    return (ax, y, ax + 1, y)


class _Ref:
    def __init__(self, board: Layout, open_doors: Iterable[str]) -> None:
        open_doors = frozenset(open_doors)
        blocked = set(board.walls)
        for cell in board.cells:
            if board.is_wall_like(cell):
                x, y = cell
                blocked |= {(x, y, x + 1, y), (x, y + 1, x + 1, y + 1), (x, y, x, y + 1), (x + 1, y, x + 1, y + 1)}
        for door in board.doors.values():
            if door.id not in open_doors:
                blocked |= set(door.edges)
        self.blocked = blocked
        self.board = board

    def opaque(self, cell: Cell) -> bool:
        return not self.board.is_floor(cell) or self.board.blocks_sight(cell)

    def diagonal_ok(self, a: Cell, b: Cell) -> bool:
        # Two ways round the shared corner: through each of the other two cells.
        c1, c2 = (a[0], b[1]), (b[0], a[1])
        way1 = _edge_between(a, c1) in self.blocked or _edge_between(c1, b) in self.blocked
        way2 = _edge_between(a, c2) in self.blocked or _edge_between(c2, b) in self.blocked
        return not (way1 and way2)

    def clear(
        self, p: tuple[Fraction, Fraction], q: tuple[Fraction, Fraction], ends: tuple[Cell, Cell], corners: bool
    ) -> bool:
        (px, py), (qx, qy) = p, q
        dx, dy = qx - px, qy - py
        ts = {Fraction(0), Fraction(1)}
        if dx:
            for x in range(floor(min(px, qx)), floor(max(px, qx)) + 1):
                t = (x - px) / dx
                if 0 < t < 1:
                    ts.add(t)
        if dy:
            for y in range(floor(min(py, qy)), floor(max(py, qy)) + 1):
                t = (y - py) / dy
                if 0 < t < 1:
                    ts.add(t)
        order = sorted(ts)
        for t0, t1 in zip(order, order[1:]):
            t = (t0 + t1) / 2
            mx, my = px + t * dx, py + t * dy
            xi, yi = mx.denominator == 1, my.denominator == 1
            if not xi and not yi:
                cell = (floor(mx), floor(my))
                if cell not in ends and self.opaque(cell):
                    return False
            elif xi:  # running along a vertical grid line
                x, y = int(mx), floor(my)
                if (x, y, x, y + 1) in self.blocked:
                    return False
                if any(c not in ends and self.opaque(c) for c in ((x - 1, y), (x, y))):
                    return False
            else:
                x, y = floor(mx), int(my)
                if (x, y, x + 1, y) in self.blocked:
                    return False
                if any(c not in ends and self.opaque(c) for c in ((x, y - 1), (x, y))):
                    return False
        for t in order[1:-1]:
            ex, ey = px + t * dx, py + t * dy
            xi, yi = ex.denominator == 1, ey.denominator == 1
            if xi and yi:
                plus = minus = False
                for ux, uy in _ARM_VECTORS:
                    if _arm(int(ex), int(ey), ux, uy) in self.blocked:
                        cross = dx * uy - dy * ux
                        plus |= cross > 0
                        minus |= cross < 0
                if plus and minus:
                    return False
            elif xi:
                x, y = int(ex), floor(ey)
                if (x, y, x, y + 1) in self.blocked:
                    return False
            elif yi:
                x, y = floor(ex), int(ey)
                if (x, y, x + 1, y) in self.blocked:
                    return False
        if corners:
            if not self.reach(ends[0], p, (dx, dy)) or not self.reach(ends[1], q, (-dx, -dy)):
                return False
        return True

    def reach(self, cell: Cell, point: tuple[Fraction, Fraction], direction) -> bool:
        """Can the line leave `point` in `direction` coming from `cell` without crossing
        a blocked arm there?  Walk round the point both ways by pseudo-angle."""
        px, py = int(point[0]), int(point[1])
        own = _angle(Fraction(2 * cell[0] + 1, 2) - px, Fraction(2 * cell[1] + 1, 2) - py)
        goal = _angle(*direction)
        ways = []
        for sense in (1, -1):
            crossed = False
            for ux, uy in _ARM_VECTORS:
                a = _angle(ux, uy)
                if a == goal:
                    continue  # running along it, tested as such
                between = ((a - own) % 4 < (goal - own) % 4) if sense == 1 else ((own - a) % 4 < (own - goal) % 4)
                if between and _arm(px, py, ux, uy) in self.blocked:
                    crossed = True
            ways.append(crossed)
        return not all(ways)


def _angle(x, y) -> Fraction:
    """An exact pseudo-angle in [0, 4), growing clockwise on the page from east."""
    x, y = Fraction(x), Fraction(y)
    p = x / (abs(x) + abs(y))
    return 1 - p if y >= 0 else 3 + p


def sees_reference(
    board: Layout, a: Cell, b: Cell, rule: str = CENTRE_LINE, open_doors: Iterable[str] = frozenset()
) -> bool:
    """Does cell a see cell b?  The rules of LANGUAGE.md section 9, computed slowly."""
    ref = _Ref(board, open_doors)
    if not board.is_floor(a) or not board.is_floor(b):
        return False
    if a == b:
        return True
    if max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1:
        if a[0] == b[0] or a[1] == b[1]:
            return _edge_between(a, b) not in ref.blocked
        return ref.diagonal_ok(a, b)
    if board.is_fog(a) or board.is_fog(b):
        return False
    half = Fraction(1, 2)
    if rule == CENTRE_LINE:
        return ref.clear((a[0] + half, a[1] + half), (b[0] + half, b[1] + half), (a, b), False)
    for cx in (0, 1):
        for cy in (0, 1):
            for ex in (0, 1):
                for ey in (0, 1):
                    p = (Fraction(a[0] + cx), Fraction(a[1] + cy))
                    q = (Fraction(b[0] + ex), Fraction(b[1] + ey))
                    if ref.clear(p, q, (a, b), True):
                        return True
    return False
