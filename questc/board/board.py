"""The built board (in: cell owners, walls, doors, stairs, obstacle cells from
`build_board`; out: queries on floor, walls, movement, reachability and line of sight).

Door states are passed to every query as the frozenset of door ids that are open (or,
for movement, passable); every other door is closed.  The per-state data (blocked edge
sets, sight bitsets, visibility results) is cached on the board.
"""
from __future__ import annotations

from math import gcd
from typing import Callable, Iterable

from . import bulk
from .build import BlockInfo, Door, Stairs
from .geometry import Cell, Edge, cell_sides, edge_between, edge_cells, norm_edge
from .sight import EDITIONS, SightState, check

StairsOk = Callable[[Stairs], bool] | set | frozenset | bool | None

_NEIGHBOURS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


class Board:
    """Floor cells, walls, doors, stairs and obstacles, with movement and sight queries.

    Attributes (all deterministic; sequences are sorted):
      cells: tuple of floor cells, sorted;
      walls: frozenset of every unit edge that is wall (piece boundaries that are not
        joints, and every edge between floor and non-floor), doors not counted;
      obstacle_walls: frozenset of the sides of wall-like obstacles (boulder, crushing
        wall), which block as walls do but are not part of the map;
      doors: dict id -> Door, in id order;
      stairs: tuple of Stairs, in colour order;
      blocking: dict cell -> BlockInfo;
      joints: list of (piece_a, piece_b, edges), as in BoardBuild;
      origin, width, height: the bounding box of the floor (origin is its top-left cell;
        width and height count cells; all 0 for an empty board).
    """

    def __init__(self, owner: dict[Cell, str], walls: frozenset[Edge], doors: list[Door],
                 stairs: list[Stairs], blocking: dict[Cell, BlockInfo],
                 joints: list[tuple[str, str, tuple[Edge, Edge]]] | None = None):
        self._owner = dict(sorted(owner.items()))
        self.cells: tuple[Cell, ...] = tuple(self._owner)
        self._floor = frozenset(self.cells)
        self.walls = frozenset(walls)
        self.doors: dict[str, Door] = {d.id: d for d in sorted(doors, key=lambda d: d.id)}
        self.stairs: tuple[Stairs, ...] = tuple(sorted(stairs, key=lambda s: (s.colour, s.ends)))
        self.blocking: dict[Cell, BlockInfo] = dict(sorted(blocking.items()))
        self.joints = list(joints or [])
        self._doors_at: dict[Edge, list[str]] = {}
        for door in self.doors.values():
            for edge in door.edges:
                self._doors_at.setdefault(edge, []).append(door.id)
        floor_blocking = {c: b for c, b in self.blocking.items() if c in self._floor}
        self._no_entry = frozenset(c for c, b in floor_blocking.items()
                                   if b.blocks_movement or b.wall_like)
        self._opaque = frozenset(c for c, b in floor_blocking.items()
                                 if b.blocks_sight or b.fog or b.wall_like)
        self._fog = frozenset(c for c, b in floor_blocking.items() if b.fog)
        self._wall_like = frozenset(c for c, b in floor_blocking.items() if b.wall_like)
        self.obstacle_walls = frozenset(side for c in self._wall_like for side in cell_sides(c))
        self._stairs_at: dict[Cell, list[Stairs]] = {}
        for st in self.stairs:
            for end in st.ends:
                self._stairs_at.setdefault(end, []).append(st)
        if self.cells:
            xs = [c[0] for c in self.cells]
            ys = [c[1] for c in self.cells]
            self.origin: Cell = (min(xs), min(ys))
            self.width = max(xs) - min(xs) + 1
            self.height = max(ys) - min(ys) + 1
        else:
            self.origin, self.width, self.height = (0, 0), 0, 0
        self._states: dict[frozenset[str], SightState] = {}
        self._bits: dict[frozenset[str], bulk.BitBoard] = {}
        self._tables: dict[frozenset[str], dict[tuple[int, int], int]] = {}
        self._visible_cache: dict[tuple, frozenset[Cell]] = {}

    # -- plain queries -----------------------------------------------------------------
    def is_floor(self, cell: Cell) -> bool:
        """True when `cell` is a floor cell of some piece."""
        return cell in self._floor

    def piece_of(self, cell: Cell) -> str | None:
        """The id of the piece the cell belongs to (the first given, where pieces overlap)."""
        return self._owner.get(cell)

    def is_wall(self, edge: Edge) -> bool:
        """True when the unit edge (either point order) is a wall of the map."""
        return norm_edge(*edge) in self.walls

    @staticmethod
    def edge_between(a: Cell, b: Cell) -> Edge | None:
        """The unit edge shared by two orthogonal neighbours, else None."""
        return edge_between(a, b)

    @staticmethod
    def edge_cells(edge: Edge) -> tuple[Cell, Cell]:
        """The two cells on either side of a unit edge: (west, east) or (north, south)."""
        return edge_cells(norm_edge(*edge))

    def doors_on(self, edge: Edge) -> list[str]:
        """Ids of the doors covering the unit edge, sorted."""
        return list(self._doors_at.get(norm_edge(*edge), ()))

    def joints_between(self, a: str, b: str) -> list[tuple[Edge, Edge]]:
        """The joints (each as its two edges) between pieces a and b, in either order."""
        return [j[2] for j in self.joints if {j[0], j[1]} == {a, b}]

    def blocks_movement(self, cell: Cell) -> bool:
        """True when an obstacle keeps figures out of the cell (water, rubble, boulder...)."""
        return cell in self._no_entry

    def blocks_sight(self, cell: Cell) -> bool:
        """True when a line may not cross the cell's interior (rubble, fog, boulder...)."""
        return cell in self._opaque

    def is_fog(self, cell: Cell) -> bool:
        """True when the cell holds fog."""
        return cell in self._fog

    def is_wall_like(self, cell: Cell) -> bool:
        """True when the cell holds a wall-like obstacle (boulder, crushing wall)."""
        return cell in self._wall_like

    def stairs_at(self, cell: Cell) -> list[Stairs]:
        """The staircases with an end on the cell."""
        return list(self._stairs_at.get(cell, ()))

    def state(self, open_doors: Iterable[str] = frozenset()) -> SightState:
        """The cached blocked-edge view of the board for one set of open doors."""
        key = frozenset(set(open_doors) & self.doors.keys())
        st = self._states.get(key)
        if st is None:
            st = self._states[key] = SightState(self, frozenset(key))
        return st

    def edge_blocked(self, edge: Edge, open_doors: Iterable[str] = frozenset()) -> bool:
        """True when a wall, a closed door or a wall-like obstacle's side is on the edge."""
        return norm_edge(*edge) in self.state(open_doors).blocked_edges

    # -- movement ----------------------------------------------------------------------
    def can_step(self, a: Cell, b: Cell, open_doors: Iterable[str] = frozenset()) -> bool:
        """Can a figure step from cell a to the 8-neighbour b?

        Both must be floor and b free of obstacles that block movement.  An orthogonal
        step needs the shared edge free of walls and closed doors; a diagonal step is
        refused only when walls or closed doors at the shared corner cut both ways round
        it (LANGUAGE.md section 9).
        """
        if a not in self._floor or b not in self._floor or b in self._no_entry:
            return False
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            return False
        st = self.state(open_doors)
        edge = edge_between(a, b)
        if edge is not None:
            return edge not in st.blocked_edges
        return not st.step_cut(a, b)

    def steps_from(self, a: Cell, open_doors: Iterable[str] = frozenset()) -> list[Cell]:
        """The cells one step from a (see `can_step`), sorted."""
        open_doors = frozenset(open_doors)
        return sorted(b for b in ((a[0] + dx, a[1] + dy) for dx, dy in _NEIGHBOURS)
                      if self.can_step(a, b, open_doors))

    def reachable(self, from_cells: Iterable[Cell], allowed: set[Cell] | frozenset[Cell] | None = None,
                  passable_doors: Iterable[str] = frozenset(),
                  stairs_ok: StairsOk = None) -> set[Cell]:
        """Every cell a figure can walk to from any of `from_cells` (breadth first).

        allowed: if given, only these cells may be stepped onto;
        passable_doors: ids of the doors a figure may pass (all others are closed);
        stairs_ok: which staircases may be used (stepping from one end to the other is
          one step): a callable taking a `Stairs`, a set of colours, True for all, or
          None/False for none.
        The start cells are included when they are floor, free of movement-blocking
        obstacles and (if `allowed` is given) allowed.
        """
        passable = frozenset(set(passable_doors) & self.doors.keys())
        usable = _stairs_predicate(stairs_ok)
        bits = self._bitboard(passable)
        start = bits.bits_of(set(from_cells))
        if not start:
            return set()
        jumps = []
        for stair in self.stairs:
            if usable(stair) and stair.ends[0] in self._floor and stair.ends[1] in self._floor:
                a, b = bits.bits_of([stair.ends[0]]), bits.bits_of([stair.ends[1]])
                jumps += [(a, b), (b, a)]
        return bits.reach(start, bits.floor if allowed is None else bits.bits_of(allowed), jumps)

    # -- line of sight -----------------------------------------------------------------
    def sees(self, a: Cell, b: Cell, edition: str = "first",
             open_doors: Iterable[str] = frozenset()) -> bool:
        """Does cell a have line of sight to cell b (LANGUAGE.md section 9)?

        edition: 'first' (centre to centre) or 'second' (corner to corner);
        open_doors: ids of open doors.  Cells that are not floor see nothing.
        Stairs are not considered here (see `stair_sight`).
        """
        return check(self.state(open_doors), a, b, edition) is None

    def why_blocked(self, a: Cell, b: Cell, edition: str = "first",
                    open_doors: Iterable[str] = frozenset()) -> str | None:
        """None when a sees b, else what is in the way, as a sentence for `questc los`:
        "the wall between 5,2 and 6,2", "the closed door `entry`", "rubble at 2,3",
        "the corner of walls at 6,2", ...  For the second edition, where all sixteen
        corner lines are blocked, the reason blocking most of them is given."""
        return check(self.state(open_doors), a, b, edition)

    def stair_sight(self, cell: Cell, open_doors: Iterable[str] = frozenset()) -> set[Cell]:
        """The cells seen through staircases from `cell`.

        A stair end sees the other end of its staircase and the floor cells next to that
        end (8-neighbours it sees by the neighbour rule: not across a wall or closed
        door).  Empty for a cell that is no stair end.
        """
        st = self.state(open_doors)
        out: set[Cell] = set()
        for stair in self._stairs_at.get(cell, ()):
            other = stair.ends[1] if stair.ends[0] == cell else stair.ends[0]
            if other not in self._floor:
                continue
            out.add(other)
            for dx, dy in _NEIGHBOURS:
                n = (other[0] + dx, other[1] + dy)
                if n in self._floor and st.adjacent_sees(other, n):
                    out.add(n)
        return out

    def visible_cells(self, sources: Iterable[Cell], edition: str = "first",
                      open_doors: Iterable[str] = frozenset(), stairs: bool = False) -> set[Cell]:
        """Every floor cell seen from at least one of `sources` (fast, bitset based).

        Sources that are not floor are ignored; a floor source sees itself.  With
        stairs=True, stair ends among the sources also see through their staircase
        (`stair_sight`).  Results are cached per (sources, edition, open doors, stairs).
        """
        if edition not in EDITIONS:
            raise ValueError(f"edition must be 'first' or 'second', not {edition!r}")
        key_doors = frozenset(set(open_doors) & self.doors.keys())
        src = frozenset(c for c in sources if c in self._floor)
        key = (src, edition, key_doors, stairs)
        hit = self._visible_cache.get(key)
        if hit is None:
            bits = self._bitboard(key_doors)
            if edition == "first":
                seen = bits.visible_by_table(src, self._sight_table(key_doors))
            else:
                seen = bits.visible(src, edition)
            if stairs:
                for cell in src:
                    if cell in self._stairs_at:
                        seen |= self.stair_sight(cell, key_doors)
            hit = frozenset(seen)
            if len(self._visible_cache) > 256:  # a bound, not a policy: drop the oldest
                self._visible_cache.pop(next(iter(self._visible_cache)))
            self._visible_cache[key] = hit
        return set(hit)

    def _bitboard(self, doors: frozenset[str]) -> bulk.BitBoard:
        bits = self._bits.get(doors)
        if bits is None:
            if len(self._bits) >= _KEEP_STATES:
                self._bits.pop(next(iter(self._bits)))
            bits = self._bits[doors] = bulk.BitBoard(self, self.state(doors))
        return bits

    def _sight_table(self, doors: frozenset[str]) -> dict[tuple[int, int], int]:
        """The first-edition sight table (`BitBoard.sight_table`) for a set of open doors.

        Opening doors never hides a cell, so the table with every door open bounds every
        other from above, and the table of any state whose open doors are a subset of
        `doors` bounds it from below.  Only the sources whose answer differs between the
        two bounds are cast again, and only along the directions where it differs.  The
        analysis opens doors wave after wave, so each state costs a small recast.
        """
        table = self._tables.get(doors)
        if table is not None:
            return table
        every = frozenset(self.doors)
        if doors == every:
            table = self._bitboard(doors).sight_table()
        else:
            upper = self._sight_table(every)
            lower: dict[tuple[int, int], int] = {}
            lower_size = -1
            for known, found in self._tables.items():
                if known <= doors and len(known) > lower_size:
                    lower, lower_size = found, len(known)
            start: dict[tuple[int, int], int] = {}
            for (dx, dy), v in upper.items():
                if dy < 0 or (dy == 0 and dx < 0):
                    continue   # the cast covers one of each pair of opposite offsets
                v &= ~lower.get((dx, dy), 0)
                if v:
                    g = gcd(dx, dy)
                    d = (dx // g, dy // g)
                    start[d] = start.get(d, 0) | v
            table = dict(lower)
            for offset, v in self._bitboard(doors).sight_table(start).items():
                table[offset] = table.get(offset, 0) | v
        if len(self._tables) >= _KEEP_STATES:
            # Keep the all-open table: it bounds every other.
            for old in self._tables:
                if old != every:
                    del self._tables[old]
                    break
        self._tables[doors] = table
        return table


# How many door states keep their bitsets and sight tables (a bound on memory).
_KEEP_STATES = 16


def _stairs_predicate(stairs_ok: StairsOk) -> Callable[[Stairs], bool]:
    """Turn the `stairs_ok` argument of `reachable` into a predicate on Stairs."""
    if stairs_ok is None or stairs_ok is False:
        return lambda s: False
    if stairs_ok is True:
        return lambda s: True
    if callable(stairs_ok):
        return stairs_ok
    colours = frozenset(stairs_ok)
    return lambda s: s.colour in colours
