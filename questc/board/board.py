"""The built board (in: a `Layout` from `build_board`; out: queries on movement,
reachability and line of sight, for any set of open doors).

Door states are passed to every query as the frozenset of door ids that are open (or,
for movement, passable); every other door is closed.  The per-state data (blocked edge
sets, sight bitsets, visibility results) is cached on the board. The layout's plain
queries are in layout.py, movement in movement.py, sight in sight.py and bulk.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from . import bulk, movement
from .geometry import Cell, Edge, norm_edge
from .layout import Layout
from .movement import NEIGHBOURS, StairsOk
from .parts import BlockInfo, Door, Stairs
from .sight import CENTRE_LINE, RULES, SightState, check

__all__ = ["Board"]


class Board(Layout):
    """A layout with its movement and sight queries (attributes: see `Layout`)."""

    def __init__(
        self,
        owner: dict[Cell, str],
        walls: frozenset[Edge],
        doors: list[Door],
        stairs: list[Stairs],
        blocking: dict[Cell, BlockInfo],
        joints: list[tuple[str, str, tuple[Edge, Edge]]] | None = None,
    ) -> None:
        super().__init__(owner, walls, doors, stairs, blocking, joints)
        self._states: dict[frozenset[str], SightState] = {}
        self._bits: dict[frozenset[str], bulk.BitBoard] = {}
        self._visible_cache: dict[tuple[object, ...], frozenset[Cell]] = {}
        self._labels: tuple[dict[Cell, str], bulk.Labels] | None = None

    def forget_sight(self) -> None:
        """Let go of the sight caches (tables, bitboards, answers; the rays shared by every
        board too): tens of megabytes on a large map, rebuilt if asked again. A build
        calls this once a quest is checked, before its pictures are drawn."""
        self._states.clear()
        self._bits.clear()
        self._visible_cache.clear()
        self._labels = None
        bulk.forget_rays()

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

    # -- movement (movement.py) -------------------------------------------------------
    def can_step(self, a: Cell, b: Cell, open_doors: Iterable[str] = frozenset()) -> bool:
        """Can a figure step from a to the 8-neighbour b (`movement.can_step`)?"""
        return movement.can_step(self, self.state(open_doors), a, b)

    def steps_from(self, a: Cell, open_doors: Iterable[str] = frozenset()) -> list[Cell]:
        """The cells one step from a, sorted (`movement.steps_from`)."""
        return movement.steps_from(self, self.state(open_doors), a)

    def reachable(
        self,
        from_cells: Iterable[Cell],
        allowed: set[Cell] | frozenset[Cell] | None = None,
        passable_doors: Iterable[str] = frozenset(),
        stairs_ok: StairsOk = None,
    ) -> set[Cell]:
        """Every cell a figure can walk to from `from_cells`, passing only `passable_doors`
        (`movement.reachable`)."""
        passable = frozenset(set(passable_doors) & self.doors.keys())
        return movement.reachable(self, self._bitboard(passable), from_cells, allowed, stairs_ok)

    # -- line of sight -----------------------------------------------------------------
    def sees(self, a: Cell, b: Cell, rule: str = CENTRE_LINE, open_doors: Iterable[str] = frozenset()) -> bool:
        """Does cell a have line of sight to cell b (LANGUAGE.md section 9)?

        rule: the sight rule (sight.RULES: 'first', centre to centre; 'second', corner to
        corner; a quest's is its edition's `sight`); open_doors: ids of open doors. Cells
        that are not floor see nothing. Stairs are not considered here (see `stair_sight`).
        """
        return check(self.state(open_doors), a, b, rule) is None

    def why_blocked(
        self, a: Cell, b: Cell, rule: str = CENTRE_LINE, open_doors: Iterable[str] = frozenset()
    ) -> str | None:
        """None when a sees b, else what is in the way, as a sentence for `questc los`:
        "the wall between 5,2 and 6,2", "the closed door `entry`", "rubble at 2,3",
        "the corner of walls at 6,2", ...  By the corner rule, where all sixteen corner
        lines are blocked, the reason blocking most of them is given."""
        return check(self.state(open_doors), a, b, rule)

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
            for dx, dy in NEIGHBOURS:
                n = (other[0] + dx, other[1] + dy)
                if n in self._floor and st.adjacent_sees(other, n):
                    out.add(n)
        return out

    def visible_cells(
        self,
        sources: Iterable[Cell],
        rule: str = CENTRE_LINE,
        open_doors: Iterable[str] = frozenset(),
        stairs: bool = False,
    ) -> set[Cell]:
        """Every floor cell seen from at least one of `sources` (fast, bitset based).

        Sources that are not floor are ignored; a floor source sees itself.  With
        stairs=True, stair ends among the sources also see through their staircase
        (`stair_sight`).  Results are cached per (sources, rule, open doors, stairs).
        """
        if rule not in RULES:
            raise ValueError(f"the sight rule must be one of {', '.join(RULES)}, not {rule!r}")
        key_doors = frozenset(set(open_doors) & self.doors.keys())
        src = frozenset(c for c in sources if c in self._floor)
        key = (src, rule, key_doors, stairs)
        hit = self._visible_cache.get(key)
        if hit is None:
            seen = self._bitboard(key_doors).visible(src, rule)
            if stairs:
                for cell in src:
                    if cell in self._stairs_at:
                        seen |= self.stair_sight(cell, key_doors)
            hit = frozenset(seen)
            if len(self._visible_cache) > 256:  # a bound, not a policy: drop the oldest
                self._visible_cache.pop(next(iter(self._visible_cache)))
            self._visible_cache[key] = hit
        return set(hit)

    def labels_seen(
        self,
        groups: Mapping[str, Iterable[Cell]],
        sources: Iterable[Cell],
        labels: dict[Cell, str],
        rule: str = CENTRE_LINE,
        open_doors: Iterable[str] = frozenset(),
    ) -> dict[str, set[str]]:
        """For each group of cells (groups must not share a cell), the labels (`labels[cell]`)
        of the cells of `sources` that some floor cell of the group sees (stairs not
        included): the reveal analysis asks which areas' reached cells each unrevealed area
        beside them sees.  Sight is symmetric, so the centre-line rule casts once from the
        groups' cells, which pays when they are fewer than the sources."""
        if rule not in RULES:
            raise ValueError(f"the sight rule must be one of {', '.join(RULES)}, not {rule!r}")
        doors = frozenset(set(open_doors) & self.doors.keys())
        if rule != CENTRE_LINE:
            wanted = set(sources)
            return {
                name: {labels[c] for c in self.visible_cells(cells, rule, doors) & wanted if c in labels}
                for name, cells in groups.items()
            }
        bits = self._bitboard(doors)
        if self._labels is None or self._labels[0] is not labels:
            # Kept for the labels last asked about (the analysis asks with the same ones, wave after wave).
            self._labels = (labels, bulk.Labels(bits, labels))
        names = list(groups)
        found = bits.labels_seen([bits.bits_of(groups[name]) for name in names], bits.bits_of(sources), self._labels[1])
        return dict(zip(names, found))

    def region(
        self, cells: Iterable[Cell], open_doors: Iterable[str] = frozenset(), leaving_out: Iterable[Cell] = frozenset()
    ) -> set[Cell]:
        """The floor cells joined to `cells` by edges free of walls and closed doors (no line
        of sight from those cells leaves them, LANGUAGE.md section 9), but `leaving_out`."""
        bits = self._bitboard(frozenset(set(open_doors) & self.doors.keys()))
        joined = bits.region_of(bits.bits_of(cells))
        return bits.cells_of(joined & ~bits.bits_of(leaving_out))

    def _bitboard(self, doors: frozenset[str]) -> bulk.BitBoard:
        bits = self._bits.get(doors)
        if bits is None:
            if len(self._bits) >= _KEEP_STATES:
                self._bits.pop(next(iter(self._bits)))
            bits = self._bits[doors] = bulk.BitBoard(self, self.state(doors))
        return bits


# How many door states keep their bitsets and sight tables (a bound on memory).
_KEEP_STATES = 16
