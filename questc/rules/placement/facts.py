"""The placement rules' shared facts: a CheckContext in (its model and QuestBoard), what several rules need out.

Built once per quest (which cells are contested by overlapping pieces, which area
claims which cell, which things are misplaced), so that each problem is reported
once, at its cause: an overlap is one Q201 (not also Q203 for its cells), a figure
off the map is one Q204 (not also Q207 for what it would share a cell with).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from questc.board.geometry import edge_between
from questc.diagnostics.core import Label, Span
from questc.records import record
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from collections.abc import Iterable

    from questc.catalog.model import MonsterType
    from questc.model.quest import Figure, Marker, ObstacleModel
    from questc.rules.context import CheckContext

Cell = tuple[int, int]

FACINGS = ("north", "east", "south", "west")


# ---- words --------------------------------------------------------------------------


def fmt(cell: Cell) -> str:
    """A cell as the language writes it: `x,y`."""
    return f"{cell[0]},{cell[1]}"


def fmt_cells(cells: Iterable[Cell], limit: int = 4) -> str:
    """Cells in; `x,y`, a rectangle `x1,y1..x2,y2` when they fill one, else a short list out."""
    cells = sorted(set(cells), key=lambda c: (c[1], c[0]))
    if not cells:
        return "no cells"
    if len(cells) == 1:
        return fmt(cells[0])
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    box = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)
    if box == len(cells):
        return f"{min(xs)},{min(ys)}..{max(xs)},{max(ys)}"
    shown = " ".join(fmt(c) for c in cells[:limit])
    return shown if len(cells) <= limit else f"{shown} and {len(cells) - limit} more"


def distance(a: Cell, b: Cell) -> tuple[int, int, int, int]:
    """A sort key: nearer first (movement distance, then straight-line), then reading order."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (max(dx, dy), dx + dy, b[1], b[0])


def figure_name(figure: Figure) -> str:
    if figure.named:
        return f"named monster `{figure.named}`"
    rank = "master " if figure.rank == "master" else ""
    return f"{rank}{figure.type.name}"


def marker_name(marker: Marker) -> str:
    if marker.kind == "encounter":
        return f"encounter `{marker.encounter}`"
    if marker.kind == "glyph":
        return "active glyph" if marker.active else "glyph"
    if marker.kind == "runekey":
        return f"{marker.variant} runekey"
    if marker.variant and marker.kind in ("chest", "treasure"):
        return f"{marker.variant} {marker.kind}"
    if marker.kind == "relic":
        return f"relic `{marker.variant}`"
    if marker.kind == "lieutenant":
        return f"lieutenant `{marker.variant}`"
    if marker.kind == "objective":
        return f"{marker.variant} objective" if marker.variant else "objective"
    if marker.kind == "search":
        return "search token"
    return marker.kind


# ---- shared facts -------------------------------------------------------------------


@dataclass
class Claim:
    """One way an area takes cells: a `pieces` name or a `cells` rectangle, with its span."""

    area: str
    cells: frozenset[Cell]
    span: Span
    piece: str | None  # the piece a `pieces` entry names; None for `cells`


@dataclass
class Spawn:
    """One figure a `spawn` effect places (an encounter's or a trigger's), at its point."""

    type: MonsterType
    master: bool
    at: Cell
    span: Span

    @property
    def name(self) -> str:
        return f"spawned {'master ' if self.master else ''}{self.type.name}"


MOVE_REACH = 3  # how far (cells, each way) a misplaced piece is looked for where it joins the map
_SHIFTS = sorted(
    (
        (dx, dy)
        for dx in range(-MOVE_REACH, MOVE_REACH + 1)
        for dy in range(-MOVE_REACH, MOVE_REACH + 1)
        if (dx, dy) != (0, 0)
    ),
    key=lambda d: (abs(d[0]) + abs(d[1]), d[1], d[0]),
)


@record
class Move:
    """A piece that joins more of the map at `at` than where it is written (`was`)."""

    piece: str
    was: Cell
    at: Cell
    cells: frozenset[Cell]  # its cells there
    joins: tuple[str, ...]  # the pieces it joins there and did not before

    @property
    def length(self) -> int:
        return abs(self.at[0] - self.was[0]) + abs(self.at[1] - self.was[1])

    def place(self) -> str:
        """`4,1 (1 north)`"""
        dx, dy = self.at[0] - self.was[0], self.at[1] - self.was[1]
        parts = [
            f"{abs(dy)} {'south' if dy > 0 else 'north'}" if dy else "",
            f"{abs(dx)} {'east' if dx > 0 else 'west'}" if dx else "",
        ]
        return f"{fmt(self.at)} ({' and '.join(p for p in parts if p)})"

    def words(self) -> str:
        """`to 4,1 (1 north), where it joins `R1`, `R2``"""
        return f"to {self.place()}, where it joins {', '.join(f'`{j}`' for j in self.joins)}"


class Facts:
    """What several checks need, computed once per quest from the model and the QuestBoard."""

    # `context` is left untyped for now: typed, mypy follows the model's pieces into the checks, where a
    # piece that could not be placed (None) is stepped over in ways it cannot see yet (24 errors).
    def __init__(self, context) -> None:
        self.model = context.model
        self.qb = context.quest_board
        self.board = self.qb.board
        self.build = self.qb.build
        self.floor = frozenset(self.board.cells)
        self.text = context.text  # the quest's SourceText, for fixes that add statements
        # Cells a fix already moves something to: the next suggestion looks elsewhere, so that
        # fixes applied together never put two things in one cell.
        self.suggested: set[Cell] = set()
        self.reserved_ids: set[str] = set()  # identifiers a fix already introduces (two caps, two names)
        self._moves: dict[str, Move | None] = {}

    # -- pieces -------------------------------------------------------------------
    @cached_property
    def contested(self) -> frozenset[Cell]:
        """Cells shared by overlapping pieces: Q201 reports them, nothing else does."""
        return frozenset(c for _a, _b, cells in self.build.overlaps for c in cells)

    @cached_property
    def overlapping_pairs(self) -> set[frozenset[str]]:
        return {frozenset((a, b)) for a, b, _ in self.build.overlaps}

    @cached_property
    def _joining(self):
        """(opening edges -> pieces with an opening there, cell -> piece) for better_place."""
        pieces = {pid: p for pid, p in self.model.pieces.items() if p is not None}
        edges_of: dict[frozenset[tuple[int, int, int, int]], set[str]] = {}
        owner: dict[Cell, str] = {}
        for pid, piece in pieces.items():
            for opening in piece.shape.openings:
                edges_of.setdefault(frozenset(opening.edges()), set()).add(pid)
            for cell in piece.shape.cells:
                owner.setdefault(cell, pid)
        return pieces, edges_of, owner

    def better_place(self, pid: str) -> Move | None:
        """Where a piece joins more of the map a few cells away, if it does (memoised).

        A writer who types `at 4,2` for `at 4,1` leaves a door with no joint (Q205), a
        corridor end running into a wall or into nothing (Q202) and everything placed on
        the piece off the map (Q204). The cause is the piece, so the fixes move it: the
        nearest shift (at most MOVE_REACH cells each way, same turn) that joins more pieces
        than before, breaks no joint it had and overlaps no piece."""
        if pid in self._moves:
            return self._moves[pid]
        pieces, edges_of, owner = self._joining
        piece = pieces.get(pid)
        found = None
        if piece is not None:

            def joins(shape) -> set[str]:
                return {
                    other
                    for opening in shape.openings
                    for other in edges_of.get(frozenset(opening.edges()), ())
                    if other != pid
                }

            before = joins(piece.shape)
            for dx, dy in _SHIFTS:
                at = (piece.at[0] + dx, piece.at[1] + dy)
                shape = piece.type.placed(at, piece.turn)
                if any(owner.get(c, pid) != pid for c in shape.cells):
                    continue
                after = joins(shape)
                if before <= after and len(after) > len(before):
                    found = Move(pid, piece.at, at, frozenset(shape.cells), tuple(sorted(after - before)))
                    break
        self._moves[pid] = found
        return found

    def best_move(self, *pids: str) -> Move | None:
        """The move among these pieces' that joins the most, then the shortest."""
        found = [m for m in (self.better_place(p) for p in pids) if m is not None]
        return max(found, key=lambda m: (len(m.joins), -m.length), default=None)

    # -- areas --------------------------------------------------------------------
    @cached_property
    def claims(self) -> list[Claim]:
        """Every `pieces` entry and `cells` rectangle of every area, in source order."""
        out: list[Claim] = []
        for area in self.model.areas.values():
            for stmt in area.node.statements:
                if isinstance(stmt, n.Pieces):
                    for name in stmt.pieces:
                        piece = self.model.pieces.get(name.value)
                        if piece is not None:
                            out.append(Claim(area.id, frozenset(piece.shape.cells), name.span, piece.id))
                elif isinstance(stmt, n.Cells):
                    for cell_set in stmt.cells:
                        cells = self.cell_set(cell_set) & area.cells
                        out.append(Claim(area.id, frozenset(cells), cell_set.span, None))
        return out

    def cell_set(self, cell_set: n.CellSet) -> set[Cell]:
        """The cells of a `cells` entry (both corners counted from the piece when it names one)."""
        ox = oy = 0
        if cell_set.piece is not None:
            piece = self.model.pieces.get(cell_set.piece.value)
            if piece is None:
                return set()
            ox, oy = piece.at
        x1, x2 = sorted((cell_set.x1 + ox, cell_set.x2 + ox))
        y1, y2 = sorted((cell_set.y1 + oy, cell_set.y2 + oy))
        return {(x, y) for y in range(y1, y2 + 1) for x in range(x1, x2 + 1)}

    @cached_property
    def areas_of(self) -> dict[Cell, list[str]]:
        """Cell -> the ids of every area claiming it, in source order."""
        out: dict[Cell, list[str]] = {}
        for area in self.model.areas.values():
            for cell in area.cells:
                out.setdefault(cell, []).append(area.id)
        return out

    @cached_property
    def unclaimed(self) -> frozenset[Cell]:
        """Floor cells in no area (Q203 reports them; Q204 does not again)."""
        return frozenset(c for c in self.floor if c not in self.areas_of and c not in self.contested)

    # -- things on the map -----------------------------------------------------------
    @cached_property
    def obstacle_at(self) -> dict[Cell, list[ObstacleModel]]:
        """Cell -> the obstacles and traps covering it, in source order."""
        out: dict[Cell, list[ObstacleModel]] = {}
        for obstacle in self.model.obstacles:
            for cell in dict.fromkeys(obstacle.cells):
                out.setdefault(cell, []).append(obstacle)
        return out

    def blocker(self, cell: Cell) -> ObstacleModel | None:
        """The first obstacle on the cell that keeps figures out (water, rubble, boulder...), or None."""
        for obstacle in self.obstacle_at.get(cell, ()):
            if obstacle.kind.blocks_movement or obstacle.kind.wall_like:
                return obstacle
        return None

    def area_problem(self, cells: Iterable[Cell], area_id: str) -> tuple[str, list[Cell]] | None:
        """Why cells placed in area `area_id` cannot be there: ("off", cells off the map) or
        ("outside", floor cells of another area); None when they are fine. Cells in no area
        at all, or contested by an overlap, are left to Q203 and Q201."""
        cells = list(dict.fromkeys(cells))
        off = [c for c in cells if c not in self.floor]
        if off:
            return ("off", off)
        own = self.model.areas[area_id].cells
        outside = [c for c in cells if c not in own and c not in self.unclaimed and c not in self.contested]
        if outside:
            return ("outside", outside)
        return None

    def figure_fit(self, cells: Iterable[Cell], ignore: object = None) -> tuple[str, list[Cell], object] | None:
        """Why a large figure's footprint does not fit: ("off", cells off the floor, None),
        ("wall", [a, b], door id or None) for a wall or door between two of its cells, or
        ("obstacle", [cell], the obstacle); None when it fits."""
        cells = sorted(cells, key=lambda c: (c[1], c[0]))
        off = [c for c in cells if c not in self.floor]
        if off:
            return ("off", off, None)
        inside = set(cells)
        for a in cells:
            for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1)):
                if b not in inside:
                    continue
                edge = edge_between(a, b)
                if edge in self.board.walls:
                    return ("wall", [a, b], None)
                doors = self.board.doors_on(edge)
                if doors:
                    return ("wall", [a, b], doors[0])
        for cell in cells:
            obstacle = self.blocker(cell)
            if obstacle is not None:
                return ("obstacle", [cell], obstacle)
        return None

    @cached_property
    def figure_problem(self) -> dict[int, tuple[str, object]]:
        """index in model.figures -> ("Q204", area problem) or ("Q208", fit problem).

        A figure wholly off the floor, or a small figure off it, is placed off the map
        (Q204); a large figure partly off the floor, across a wall or on a blocking
        obstacle does not fit (Q208, which takes precedence over the area check: moving
        it to where it fits is the one fix)."""
        out: dict[int, tuple[str, Any]] = {}
        for i, figure in enumerate(self.model.figures):
            cells = list(figure.cells)
            if not any(c in self.floor for c in cells):
                out[i] = ("Q204", ("off", sorted(cells)))
                continue
            if figure.type.large:
                fit = self.figure_fit(cells)
                if fit is not None:
                    out[i] = ("Q208", fit)
                    continue
            problem = self.area_problem(cells, figure.area)
            if problem is not None:
                out[i] = ("Q204", problem)
        return out

    @cached_property
    def spawns(self) -> list[Spawn]:
        """Every figure a `spawn` effect places, in source order (encounters, then triggers)."""
        model = self.model
        out: list[Spawn] = []
        for effect, _source in model.effects():
            if not isinstance(effect, n.SpawnEffect):
                continue
            monster = model.catalog.lookup("monster", effect.type.value)
            if monster is None:
                continue  # Q101
            for point in effect.at:
                at = (point.x, point.y)
                if point.piece is not None:
                    piece = model.pieces.get(point.piece.value)
                    if piece is None:
                        continue  # Q103
                    at = (piece.at[0] + point.x, piece.at[1] + point.y)
                out.append(Spawn(monster, effect.master, at, point.span))
        return out

    @cached_property
    # Any: the second item's type depends on the code: the cells (Q204), the fit problem
    # (Q208) or the blocking obstacle (Q207); each rule reads only its own code.
    def spawn_problem(self) -> dict[int, tuple[str, Any]]:
        """index in spawns -> ("Q204", cells), ("Q208", fit problem) or ("Q207", blocking obstacle).

        A spawn says no facing, so a long figure (a hell hound) fits when either way
        round fits: the overlord lays it the way it fits. Spawns belong to no area."""
        out: dict[int, tuple[str, object]] = {}
        for i, spawn in enumerate(self.spawns):
            cells = spawn.type.cells(spawn.at)
            if not any(c in self.floor for c in cells):
                out[i] = ("Q204", sorted(cells))
            elif spawn.type.large:
                fit = self.figure_fit(cells)
                if fit is not None and all(
                    self.figure_fit(spawn.type.cells(spawn.at, f)) is not None
                    for f in FACINGS
                    if spawn.type.size(f) != spawn.type.size()
                ):
                    out[i] = ("Q208", fit)
            elif (blocker := self.blocker(spawn.at)) is not None:
                out[i] = ("Q207", blocker)
        return out

    @cached_property
    def misplaced_markers(self) -> set[int]:
        return {i for i, m in enumerate(self.model.markers) if self.area_problem([m.at], m.area)}

    @cached_property
    def misplaced_obstacles(self) -> set[int]:
        return {i for i, o in enumerate(self.model.obstacles) if o.piece is None and self.area_problem(o.cells, o.area)}

    @cached_property
    def occupied(self) -> set[Cell]:
        """Cells holding a figure, a marker or an obstacle (a suggested place avoids them)."""
        out: set[Cell] = set()
        for figure in self.model.figures:
            out |= figure.cells
        out |= {m.at for m in self.model.markers}
        out |= set(self.obstacle_at)
        return out

    def free_cell(self, area_id: str, near: Cell, also_occupied: Iterable[Cell] = ()) -> Cell | None:
        """The free floor cell of the area nearest to `near` (no figure, marker or obstacle)."""
        area = self.model.areas.get(area_id)
        if area is None:
            return None
        taken = self.occupied | self.suggested | set(also_occupied)
        free = [c for c in area.cells if c in self.floor and c not in taken and c not in self.contested]
        return min(free, key=lambda c: distance(near, c)) if free else None

    @cached_property
    def point_refs(self) -> dict[tuple[int, int], n.PointRef]:
        """(start, end) offsets -> every point written in the quest, to rewrite one as it was written."""
        out: dict[tuple[int, int], n.PointRef] = {}
        stack: list[object] = [self.model.syntax]
        while stack:
            node = stack.pop()
            if isinstance(node, n.PointRef):
                out[(node.span.start, node.span.end)] = node
            elif isinstance(node, (tuple, list)):
                stack.extend(node)
            elif hasattr(node, "__dataclass_fields__") and not isinstance(node, (Span, n.Name, n.Text)):
                stack.extend(getattr(node, name) for name in node.__dataclass_fields__)
        return out

    def area_label(self, area_id: str, text: str) -> Label:
        return Label(self.model.areas[area_id].node.id.span, text)

    def piece_span(self, piece_id: str) -> Span:
        return self.model.pieces[piece_id].node.id.span


def placement_facts(context: CheckContext) -> Facts:
    """The quest's Facts, made once and shared by every placement rule."""
    return context.shared(Facts)
