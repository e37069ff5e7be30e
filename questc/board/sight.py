"""Exact line of sight between two cells (in: a board's blocked edges and cells for one
set of open doors, two cells, a sight rule; out: seen or not, and the first thing in the
way as a sentence).

The rules are LANGUAGE.md section 9.  A line is turned into its ordered *features*
(cells crossed, edges crossed or run along, grid points passed, corner ends) by
`geometry.segment_features`; each feature is then tested against the board.  The bulk
visibility code (`bulk.py`) tests the very same features, as bitsets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cached_property

from .geometry import (
    ARMS,
    CELL,
    HALONG,
    HCROSS,
    POINT,
    REACH,
    VALONG,
    VCROSS,
    Cell,
    Edge,
    Point,
    arm_edge,
    cut_reach,
    cut_through,
    edge_between,
    edge_cells,
    hedge,
    position_of,
    quadrant_of,
    segment_features,
    vedge,
)
from .layout import Layout

Feature = tuple[int, int, int, int]

# The two line-of-sight rules, by the names the engine JSON and the editions give them
# (questc.editions: Edition.sight): a line from centre to centre (the first edition's),
# or any of the lines from a corner to a corner (the second edition's).
CENTRE_LINE = "first"
CORNER_LINES = "second"
RULES = (CENTRE_LINE, CORNER_LINES)

# The corners of cell (0, 0), in a fixed order (second edition lines try them all).
CORNERS: tuple[Point, ...] = ((0, 0), (1, 0), (0, 1), (1, 1))


def fmt(cell: tuple[int, int]) -> str:
    """A cell or point as the quest language writes it: ``x,y``."""
    return f"{cell[0]},{cell[1]}"


class SightState:
    """The board seen with one set of open doors: what blocks, as sets.

    blocked_edges: walls, the sides of wall-like obstacles, and the edges of closed
    doors; opaque: floor cells whose obstacle blocks sight (fog and wall-like ones
    included).  Cells that are not floor count as opaque too (only reachable through a
    wall anyway, but it keeps every test local).
    """

    def __init__(self, board: Layout, open_doors: frozenset[str]):
        self.board = board
        self.open_doors = open_doors
        closed: dict[Edge, str] = {}
        for door in board.doors.values():
            if door.id not in open_doors:
                for edge in door.edges:
                    closed.setdefault(edge, door.id)
        self.closed_door_at = closed

    @cached_property
    def blocked_edges(self) -> frozenset[Edge]:
        """Walls, wall-like obstacles' sides and closed doors' edges (made on first use: the
        bitsets of bulk.py have their own)."""
        return frozenset(self.board.walls | self.board.obstacle_walls | self.closed_door_at.keys())

    # -- basic predicates ------------------------------------------------------------
    def edge_blocked(self, edge: Edge) -> bool:
        """True when a wall, a closed door or a wall-like obstacle's side is on `edge`."""
        return edge in self.blocked_edges

    def opaque(self, cell: Cell) -> bool:
        """True when a line may not cross the interior of `cell`."""
        return self.board.blocks_sight(cell) or not self.board.is_floor(cell)

    def blocked_arms(self, point: Point) -> set[int]:
        """The arm positions (E, S, W, N) at `point` that are blocked edges."""
        return {arm for arm in ARMS if arm_edge(point, arm) in self.blocked_edges}

    def step_cut(self, a: Cell, b: Cell) -> bool:
        """The diagonal-step rule for the diagonal neighbours a and b."""
        point = (max(a[0], b[0]), max(a[1], b[1]))
        return cut_through(self.blocked_arms(point), position_of(b[0] - a[0], b[1] - a[1]))

    def adjacent_sees(self, a: Cell, b: Cell) -> bool:
        """Neighbours (8-way) see each other unless a wall/door or the corner rule cuts them."""
        edge = edge_between(a, b)
        if edge is not None:
            return edge not in self.blocked_edges
        return not self.step_cut(a, b)

    # -- features ----------------------------------------------------------------------
    def feature_blocked(self, feature: Feature) -> bool:
        """Does this feature of a line block it?  (See geometry for the feature kinds.)"""
        kind, x, y, extra = feature
        if kind == CELL:
            return self.opaque((x, y))
        if kind == VCROSS:
            return vedge(x, y) in self.blocked_edges
        if kind == HCROSS:
            return hedge(x, y) in self.blocked_edges
        if kind == POINT:
            return cut_through(self.blocked_arms((x, y)), extra)
        if kind in (VALONG, HALONG):
            edge = vedge(x, y) if kind == VALONG else hedge(x, y)
            if edge in self.blocked_edges:
                return True
            first, second = edge_cells(edge)
            return (not extra & 1 and self.opaque(first)) or (not extra & 2 and self.opaque(second))
        if kind == REACH:
            return cut_reach(self.blocked_arms((x, y)), extra // 8, extra % 8)
        raise ValueError(f"unknown feature kind {kind}")

    def feature_reason(self, feature: Feature) -> str:
        """A sentence naming what a blocking feature is, for `questc los`."""
        kind, x, y, extra = feature
        if kind == CELL:
            return self._cell_reason((x, y))
        if kind in (VCROSS, HCROSS):
            return self._edge_reason(vedge(x, y) if kind == VCROSS else hedge(x, y))
        if kind in (POINT, REACH):
            return self._point_reason((x, y), kind == REACH)
        edge = vedge(x, y) if kind == VALONG else hedge(x, y)
        if edge in self.blocked_edges:
            return "running along " + self._edge_reason(edge)
        first, second = edge_cells(edge)
        cell = first if (not extra & 1 and self.opaque(first)) else second
        return "running along the edge of " + self._cell_reason(cell)

    def _cell_reason(self, cell: Cell) -> str:
        if not self.board.is_floor(cell):
            return f"the space {fmt(cell)}, which is off the map"
        return f"{self.board.blocking[cell].kind} at {fmt(cell)}"

    def _edge_reason(self, edge: Edge) -> str:
        door = self.closed_door_at.get(edge)
        if door is not None and edge not in self.board.walls:
            return f"the closed door `{door}`"
        first, second = edge_cells(edge)
        if edge not in self.board.walls:
            # Only a wall-like obstacle's side is left.
            cell = first if self.board.is_wall_like(first) else second
            return f"{self.board.blocking[cell].kind} at {fmt(cell)}"
        return f"the wall between {fmt(first)} and {fmt(second)}"

    def _point_reason(self, point: Point, at_end: bool) -> str:
        doors = sorted(
            {
                self.closed_door_at[arm_edge(point, arm)]
                for arm in ARMS
                if arm_edge(point, arm) in self.closed_door_at and arm_edge(point, arm) not in self.board.walls
            }
        )
        walls = any(
            arm_edge(point, arm) in self.blocked_edges and arm_edge(point, arm) not in self.closed_door_at
            for arm in ARMS
        )
        what = "the corner of walls"
        if doors and not walls:
            what = "the closed door " + ", ".join(f"`{d}`" for d in doors)
        elif doors:
            names = ", ".join(f"`{d}`" for d in doors)
            what = f"the corner of walls and the closed door {names}"
        if at_end:
            return f"{what} at {fmt(point)}, which the line cannot get round from its own space"
        return f"{what} at {fmt(point)}"


# -- lines as features -------------------------------------------------------------------


def first_edition_line(a: Cell, b: Cell) -> list[Feature]:
    """The features of the centre-to-centre segment from cell a to cell b (ends exempt)."""
    feats = segment_features(2 * a[0] + 1, 2 * a[1] + 1, 2 * b[0] + 1, 2 * b[1] + 1)
    return [f for f in feats if not (f[0] == CELL and (f[1], f[2]) in (a, b))]


def corner_line(a: Cell, p: Point, b: Cell, q: Point) -> list[Feature]:
    """The features of the segment from corner p of cell a to corner q of cell b.

    Starts with the REACH test at p and ends with the one at q; the end cells' interiors
    are exempt, and so are their own edges when the line runs along them.
    """
    out: list[Feature] = [(REACH, p[0], p[1], quadrant_of(a, p) * 8 + position_of(q[0] - p[0], q[1] - p[1]))]
    ends = (a, b)
    for f in segment_features(2 * p[0], 2 * p[1], 2 * q[0], 2 * q[1]):
        out_f = exempt(f, ends)
        if out_f is not None:
            out.append(out_f)
    out.append((REACH, q[0], q[1], quadrant_of(b, q) * 8 + position_of(p[0] - q[0], p[1] - q[1])))
    return out


def exempt(feature: Feature, ends: Iterable[Cell]) -> Feature | None:
    """Apply the rule that the end cells never block: drop or soften a feature."""
    kind, x, y, extra = feature
    ends = tuple(ends)
    if kind == CELL:
        return None if (x, y) in ends else feature
    if kind in (VALONG, HALONG):
        first, second = edge_cells(vedge(x, y) if kind == VALONG else hedge(x, y))
        extra |= (1 if first in ends else 0) | (2 if second in ends else 0)
        return (kind, x, y, extra)
    return feature


def second_edition_lines(a: Cell, b: Cell) -> list[list[Feature]]:
    """The 16 corner-to-corner lines from a to b, each as its features."""
    lines = []
    for cx, cy in CORNERS:
        p = (a[0] + cx, a[1] + cy)
        for ex, ey in CORNERS:
            q = (b[0] + ex, b[1] + ey)
            lines.append(corner_line(a, p, b, q))
    return lines


def check(state: SightState, a: Cell, b: Cell, rule: str) -> str | None:
    """Decide sight from a to b by a sight rule (RULES): None when a sees b, else the reason as a sentence."""
    board = state.board
    if rule not in RULES:
        raise ValueError(f"the sight rule must be one of {', '.join(RULES)}, not {rule!r}")
    for cell in (a, b):
        if not board.is_floor(cell):
            return f"{fmt(cell)} is not a floor space"
    if a == b:
        return None
    if max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1:
        # Both editions: neighbours see each other unless a wall or door is between them
        # (diagonally: unless the walls at the shared corner cut both ways round).
        edge = edge_between(a, b)
        if edge is not None:
            return None if edge not in state.blocked_edges else state._edge_reason(edge)
        if state.step_cut(a, b):
            return state._point_reason((max(a[0], b[0]), max(a[1], b[1])), False)
        return None
    for cell in (a, b):
        if board.is_fog(cell):
            return f"fog at {fmt(cell)} (sight goes into or out of fog only between neighbouring spaces)"
    if rule == CENTRE_LINE:
        for feature in first_edition_line(a, b):
            if state.feature_blocked(feature):
                return state.feature_reason(feature)
        return None
    reasons: Counter[str] = Counter()
    for line in second_edition_lines(a, b):
        for feature in line:
            if state.feature_blocked(feature):
                reasons[state.feature_reason(feature)] += 1
                break
        else:
            return None
    # Every corner line is blocked: name what blocks most of them.
    return reasons.most_common(1)[0][0]
