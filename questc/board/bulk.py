"""Bulk line of sight with Python-int bitsets (in: a board for one set of open doors and
a set of source cells; out: every floor cell some source sees).

Each cell, edge key and lattice point of the board's bounding box (plus a one-cell
margin) gets one bit, at index ``(y + 1) * wp + (x + 1)`` in local coordinates, with
``wp = width + 2``.  For every kind of line *feature* (geometry.py) there is one big
int whose bit is set where that feature is open: a cell a line may cross, an edge it
may cross, a grid point it may pass in a given direction, and so on.  Shifting such an
int by the index offset of a feature relative to the source tests that feature for
every source at once.

Lines are cast as rays from each source along every primitive direction (a, b): the
first-edition line to the cell ``m * (a, b)`` away is the line to ``(m-1) * (a, b)``
plus one period, so the set of sources still unblocked only shrinks along the ray, and
the ray stops when it is empty.  Second-edition rays start at each of the four corners
of the source and pass lattice points ``corner + m * (a, b)``; at each, the four cells
having that point as a corner are tried as targets.  The features of a ray depend on
the direction only, so they are generated lazily once per process and shared.

Neighbouring cells (both editions) use the neighbour rule; fog cells see and are seen
only there.  The answers equal `sight.check` (and the Fraction-based
`sight_reference`), which the tests verify.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cached_property
from itertools import islice
from math import gcd
from weakref import WeakKeyDictionary

from . import beams
from .geometry import (
    CELL,
    HALONG,
    HCROSS,
    NE,
    NW,
    POINT,
    QUADRANTS,
    REACH,
    SE,
    SW,
    VALONG,
    VCROSS,
    Cell,
    E,
    N,
    S,
    W,
    position_of,
    quadrant_cell,
    quadrant_of,
    segment_features,
)
from .layout import Layout
from .sight import CENTRE_LINE, SightState, exempt

# Index of the open-mask for each feature: kind base + extra.
_BASE = {CELL: 0, VCROSS: 1, HCROSS: 2, POINT: 3, VALONG: 7, HALONG: 11, REACH: 15}
_N_MASKS = 15 + 64
_STRIPE_BITS = 8192  # the first edition casts sources in stripes of about this many bits (`BitBoard._beams`)
_TAIL = -2  # second-edition ray item: (_TAIL, continue_mask, x, y, targets, qx, qy)


def _mask_id(feature: tuple[int, int, int, int]) -> int:
    return _BASE[feature[0]] + feature[3]


class _LazyRay:
    """The items of one ray, generated on demand and kept (rays are shared by boards).

    `first` holds the first period (from the source), `rest` one later period in the
    same frame: period m is `rest` moved by (m - 1) * (a, b).  Both lists are extended
    by `more_first` / `more_rest` as far as some caller has needed them.
    """

    __slots__ = ("first", "rest", "_first_gen", "_rest_gen")

    def __init__(self, first_gen: Iterator[tuple], rest_gen: Iterator[tuple]) -> None:
        self.first: list[tuple] = []
        self.rest: list[tuple] = []
        self._first_gen = first_gen
        self._rest_gen = rest_gen

    # Extending a few items at a time keeps the generator overhead per item small; a
    # period ends with its target item, so a chunk never runs past the generator.
    def more_first(self) -> None:
        self.first.extend(islice(self._first_gen, _CHUNK))

    def more_rest(self) -> None:
        self.rest.extend(islice(self._rest_gen, _CHUNK))


_CHUNK = 8
_RAYS_SECOND: dict[tuple[int, int, int, int], _LazyRay] = {}
_RAYS_BODY: dict[tuple[int, int], _LazyRay] = {}
_DIRECTIONS: dict[tuple[int, int], list[tuple[int, int]]] = {}


def forget_rays() -> None:
    """Empty the process-wide ray caches (they grow with the largest board cast)."""
    beams.forget()
    for cache in (_RAYS_SECOND, _RAYS_BODY, _DIRECTIONS):
        cache.clear()


def _directions(max_x: int, max_y: int) -> list[tuple[int, int]]:
    """Primitive integer directions (a, b) with |a| <= max_x, |b| <= max_y, short ones first."""
    key = (max_x, max_y)
    found = _DIRECTIONS.get(key)
    if found is None:
        found = [(a, b) for a in range(-max_x, max_x + 1) for b in range(-max_y, max_y + 1) if gcd(a, b) == 1]
        found.sort(key=lambda d: (abs(d[0]) + abs(d[1]), d))
        _DIRECTIONS[key] = found
    return found


def _period_second(cx: int, cy: int, a: int, b: int, first: bool) -> Iterator[tuple]:
    """One period of a second-edition ray: lattice point (cx, cy) to (cx + a, cy + b).

    The first period starts at a corner of the source cell (0, 0) with the REACH test
    and exempts the source; later ones start by passing the lattice point.  The period
    ends with a _TAIL item: the last stretch (the only one that can touch a target
    cell), and the four cells having the end point as a corner as targets, each with
    the last stretch's test made lenient for it and its own REACH test.
    """
    out_region = position_of(a, b)
    in_region = position_of(-a, -b)
    ends: tuple[Cell, ...] = ((0, 0),) if first else ()
    if first:
        yield (_BASE[REACH] + quadrant_of((0, 0), (cx, cy)) * 8 + out_region, cx, cy)
    else:
        yield (_BASE[POINT] + out_region % 4, cx, cy)
    qx, qy = cx + a, cy + b
    # Hold one feature back, so that long periods are generated only as far as needed.
    tail = None
    for f in segment_features(2 * cx, 2 * cy, 2 * qx, 2 * qy):
        if tail is not None:
            # Only the first stretches of the first period can touch the source cell.
            g = exempt(tail, ends) if first else tail
            if g is not None:
                yield (_BASE[g[0]] + g[3], g[1], g[2])
        tail = f
    assert tail is not None
    cont = exempt(tail, ends)
    targets = []
    for quadrant in QUADRANTS:
        t = quadrant_cell((qx, qy), quadrant)
        tf = exempt(tail, ends + (t,))
        targets.append((t[0], t[1], _mask_id(tf) if tf is not None else -1, _BASE[REACH] + quadrant * 8 + in_region))
    yield (_TAIL, _mask_id(cont) if cont is not None else -1, tail[1], tail[2], tuple(targets), qx, qy)


def _period_body(a: int, b: int) -> Iterator[tuple]:
    """One period of a second-edition ray cast from lattice points, for long directions.

    The segment from lattice point (0, 0) to (a, b) with no source exemptions; its first
    item is the first stretch (the caller folds it into the start test), its last a
    _TAIL item as in `_period_second`.  Used only when max(|a|, |b|) >= 3, where no
    target can be a neighbour of a source and the first stretch is never the tail.
    """
    in_region = position_of(-a, -b)
    tail = None
    for f in segment_features(0, 0, 2 * a, 2 * b):
        if tail is not None:
            yield (_BASE[tail[0]] + tail[3], tail[1], tail[2])
        tail = f
    assert tail is not None
    targets = []
    for quadrant in QUADRANTS:
        t = quadrant_cell((a, b), quadrant)
        tf = exempt(tail, (t,))
        targets.append((t[0], t[1], _mask_id(tf) if tf is not None else -1, _BASE[REACH] + quadrant * 8 + in_region))
    yield (_TAIL, _mask_id(tail), tail[1], tail[2], tuple(targets), a, b)


def _get_body(a: int, b: int) -> _LazyRay:
    ray = _RAYS_BODY.get((a, b))
    if ray is None:
        ray = _RAYS_BODY[(a, b)] = _LazyRay(_period_body(a, b), iter(()))
    return ray


def _get_second(cx: int, cy: int, a: int, b: int) -> _LazyRay:
    ray = _RAYS_SECOND.get((cx, cy, a, b))
    if ray is None:
        ray = _RAYS_SECOND[(cx, cy, a, b)] = _LazyRay(
            _period_second(cx, cy, a, b, True), _period_second(cx, cy, a, b, False)
        )
    return ray


# The neighbour rule as features: (dx, dy) -> (feature kind mask id, x, y).
_NEIGHBOUR_FEATURES = {
    (1, 0): (_BASE[VCROSS], 1, 0),
    (-1, 0): (_BASE[VCROSS], 0, 0),
    (0, 1): (_BASE[HCROSS], 0, 1),
    (0, -1): (_BASE[HCROSS], 0, 0),
    (1, 1): (_BASE[POINT] + position_of(1, 1) % 4, 1, 1),
    (-1, -1): (_BASE[POINT] + position_of(-1, -1) % 4, 0, 0),
    (1, -1): (_BASE[POINT] + position_of(1, -1) % 4, 1, 0),
    (-1, 1): (_BASE[POINT] + position_of(-1, 1) % 4, 0, 1),
}


def _components(board: Layout, state: SightState):
    """Regions of floor joined by edges free of walls, closed doors and wall-like sides.

    Returns (cell -> region number, region number -> (min x, min y, max x, max y)).
    """
    component: dict[Cell, int] = {}
    boxes: list[tuple[int, int, int, int]] = []
    blocked = state.blocked_edges
    floor = set(board.cells)
    for start in board.cells:
        if start in component:
            continue
        number = len(boxes)
        component[start] = number
        stack = [start]
        x0 = x1 = start[0]
        y0 = y1 = start[1]
        while stack:
            x, y = stack.pop()
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
            for n, edge in (
                ((x + 1, y), (x + 1, y, x + 1, y + 1)),
                ((x - 1, y), (x, y, x, y + 1)),
                ((x, y + 1), (x, y + 1, x + 1, y + 1)),
                ((x, y - 1), (x, y, x + 1, y)),
            ):
                if n in floor and n not in component and edge not in blocked:
                    component[n] = number
                    stack.append(n)
        boxes.append((x0, y0, x1, y1))
    return component, boxes


class _Shared:
    """What every door state's BitBoard of one board has in common: the floor, fog, opaque and
    no-entry bits and the walls' (doors change none of them), and the `_valid` masks, which
    depend on the box."""

    def __init__(self, board: Layout, bits: BitBoard) -> None:
        index, size = bits.index, bits.size
        self.floor = bits_at([index(c) for c in board.cells], size)
        self.fog = bits_at([index(c) for c in board.cells if board.is_fog(c)], size)
        self.opaque = bits.full & ~bits_at([index(c) for c in board.cells if not board.blocks_sight(c)], size)
        self.no_entry = bits_at([index(c) for c in board.cells if board.blocks_movement(c)], size)
        walls = board.walls | board.obstacle_walls
        self.walls_v = bits_at([index(e[:2]) for e in walls if e[0] == e[2]], size)
        self.walls_h = bits_at([index(e[:2]) for e in walls if e[0] != e[2]], size)
        self.valid: dict[tuple[int, int, int, int], int] = {}
        # The last large conversions between cell sets and bits: the reveal analysis asks
        # about sets that grow wave after wave (the cells reached, the areas revealed), so
        # a new one is mostly an old one plus a few cells.
        self._sets: list[tuple[frozenset[Cell], int]] = []
        self._bits: list[tuple[int, frozenset[Cell]]] = []
        # The last flood of each kind (open doors, what it started from, its answer), which
        # a later flood with more open grows from: `BitBoard.region_of`, `BitBoard.reach`.
        self.last_region: tuple[frozenset[str], int, int] | None = None
        self.last_reach: tuple[frozenset[str], int, int, set[tuple[int, int]], int] | None = None

    def bits_of_set(self, cells: frozenset[Cell], convert: Callable[[Iterable[Cell]], int]) -> int:
        """`convert(cells)`, from an earlier answer for a subset of `cells` when there is one."""
        for known, bits in reversed(self._sets):
            if known is cells:
                return bits
        for known, bits in reversed(self._sets):
            if len(known) <= len(cells) and known <= cells:
                found = bits | convert(cells - known)
                break
        else:
            found = convert(cells)
        self._sets = self._sets[-(_MEMO - 1) :] + [(cells, found)]
        return found

    def cells_of_bits(self, bits: int, convert: Callable[[int], set[Cell]]) -> set[Cell]:
        """`convert(bits)`, from an earlier answer for a subset of `bits` when there is one."""
        for known, cells in reversed(self._bits):
            if known & bits == known:
                found = convert(bits ^ known)
                found |= cells
                break
        else:
            found = convert(bits)
        self._bits = self._bits[-(_MEMO - 1) :] + [(bits, frozenset(found))]
        return found


_SHARED: WeakKeyDictionary[Layout, _Shared] = WeakKeyDictionary()


def _shared(board: Layout, bits: BitBoard) -> _Shared:
    found = _SHARED.get(board)
    if found is None:
        found = _SHARED[board] = _Shared(board, bits)
    return found


def bits_at(indices: Iterable[int], size: int) -> int:
    """The int with the bits at `indices` set (all below `size`): built as bytes, since OR-ing
    one bit at a time into a big int costs its whole length each time."""
    buf = bytearray((size + 7) >> 3)
    for i in indices:
        buf[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(buf, "little")


# Conversions between cell sets and bits of at least _MEMO_SIZE cells are remembered, the
# last _MEMO of each way (see `_Shared`).
_MEMO, _MEMO_SIZE = 4, 256


class BitBoard:
    """The board's sight data for one set of open doors, as bitsets, and the bulk query."""

    def __init__(self, board: Layout, state: SightState) -> None:
        self.board = board
        self.ox, self.oy = board.origin
        self.w, self.h = board.width, board.height
        self.wp = wp = self.w + 2
        self.size = wp * (self.h + 2)
        self.full = full = (1 << self.size) - 1
        shared = self._shared = _shared(board, self)
        self.floor = shared.floor
        self.fog = shared.fog
        self.target_ok = shared.floor & ~shared.fog
        closed = state.closed_door_at
        self._vb = vb = shared.walls_v | bits_at([self.index(e[:2]) for e in closed if e[0] == e[2]], self.size)
        self._hb = hb = shared.walls_h | bits_at([self.index(e[:2]) for e in closed if e[0] != e[2]], self.size)
        self._opaque = shared.opaque
        # The first edition's masks (a cell a line may cross, an edge, a grid point passed
        # in each orientation); the second edition's are added on first use (`masks`).
        arm = self._arm = {E: hb, S: vb, W: hb << 1, N: vb << wp}
        basic = [0] * _N_MASKS
        basic[_BASE[CELL]] = full & ~shared.opaque
        basic[_BASE[VCROSS]] = full & ~vb
        basic[_BASE[HCROSS]] = full & ~hb
        for o in range(4):
            side_a = side_b = 0
            for k in (1, 2, 3):
                side_a |= arm.get((o + k) % 8, 0)
                side_b |= arm.get((o + 4 + k) % 8, 0)
            basic[_BASE[POINT] + o] = full & ~(side_a & side_b)
        self._basic = basic
        self._cols: dict[tuple[int, int], int] = {}
        self._rows: dict[tuple[int, int], int] = {}
        self._valid_memo = shared.valid
        self._boxes: dict[tuple[int, int, int, int], int] = {}
        self._steps_by_quadrant: dict[tuple[int, int], tuple[tuple[int, int, int], tuple[int, int, int]]] = {}
        self.state = state
        self.no_entry = shared.no_entry
        self._steps: list[tuple[int, int]] | None = None  # movement, made on first use
        self._component: dict[Cell, int] | None = None  # regions: they bound the offsets cast
        self._component_box: list[tuple[int, int, int, int]] = []

    @cached_property
    def masks(self) -> list[int]:
        """Every feature's open mask, by `_mask_id`: the first edition's and the second's
        (running along an edge, and the ends of a corner-to-corner line)."""
        masks, full, wp, opaque, vb, hb, arm = (
            list(self._basic),
            self.full,
            self.wp,
            self._opaque,
            self._vb,
            self._hb,
            self._arm,
        )
        west_opaque, north_opaque = opaque << 1, opaque << wp
        for extra in range(4):
            blocked = vb
            if not extra & 1:
                blocked |= west_opaque
            if not extra & 2:
                blocked |= opaque
            masks[_BASE[VALONG] + extra] = full & ~blocked
            blocked = hb
            if not extra & 1:
                blocked |= north_opaque
            if not extra & 2:
                blocked |= opaque
            masks[_BASE[HALONG] + extra] = full & ~blocked
        for quadrant in QUADRANTS:
            for region in range(8):
                if region == quadrant:
                    masks[_BASE[REACH] + quadrant * 8 + region] = full
                    continue
                cw = (region - quadrant) % 8
                one = two = 0
                for k in range(1, cw):
                    one |= arm.get((quadrant + k) % 8, 0)
                for k in range(1, 8 - cw):
                    two |= arm.get((quadrant - k) % 8, 0)
                masks[_BASE[REACH] + quadrant * 8 + region] = full & ~(one & two)
        return masks

    def region_of(self, seeds: int) -> int:
        """The floor cells joined to the `seeds` (bits) by edges free of walls and closed doors
        in this door state: a line of sight from a seed never leaves them (a grid point is
        passed only where one way round it is free, so its cells are joined too)."""
        free_v, free_h = self._basic[_BASE[VCROSS]], self._basic[_BASE[HCROSS]]
        wp, floor = self.wp, self.floor
        region = seeds & floor
        # Grown from the last answer when it is contained in this one (fewer doors open,
        # fewer seeds): the reveal analysis asks wave after wave with more of both.
        last = self._shared.last_region
        if last is not None and last[0] <= self.state.open_doors and last[1] & seeds == last[1]:
            region |= last[2]
        frontier = region
        # Stepping east crosses the vertical edge whose bit is the cell's bit + 1; west, the
        # cell's own; south, the horizontal edge a row down; north, the cell's own.
        east, south = free_v >> 1, free_h >> wp
        while frontier:
            grown = (
                ((frontier & east) << 1)
                | ((frontier & free_v) >> 1)
                | ((frontier & south) << wp)
                | ((frontier & free_h) >> wp)
            )
            frontier = grown & floor & ~region
            region |= frontier
        self._shared.last_region = (self.state.open_doors, seeds, region)
        return region

    def index(self, xy: tuple[int, int]) -> int:
        """The bit index of a cell, edge key or lattice point (board coordinates)."""
        return (xy[1] - self.oy + 1) * self.wp + (xy[0] - self.ox + 1)

    def _valid(self, dx_lo: int, dx_hi: int, dy_lo: int, dy_hi: int) -> int:
        """Bits of the box cells s with s.x + dx_lo >= 0, s.x + dx_hi <= w - 1, and the same
        for y: the sources for which offsets in that range stay on the box's cells.
        Remembered per board (it depends on the box alone, not on the doors): every door
        state's cast asks for the same offsets."""
        key = (dx_lo, dx_hi, dy_lo, dy_hi)
        found = self._valid_memo.get(key)
        if found is None:
            found = self._valid_memo[key] = self._compute_valid(dx_lo, dx_hi, dy_lo, dy_hi)
        return found

    def _compute_valid(self, dx_lo: int, dx_hi: int, dy_lo: int, dy_hi: int) -> int:
        lo, hi = max(0, -dx_lo), min(self.w - 1, self.w - 1 - dx_hi)
        cols = self._cols.get((lo, hi))
        if cols is None:
            row = ((1 << (hi - lo + 1)) - 1) << (lo + 1) if hi >= lo else 0
            cols = self._cols[(lo, hi)] = row * self._all_rows
        lo, hi = max(0, -dy_lo), min(self.h - 1, self.h - 1 - dy_hi)
        rows = self._rows.get((lo, hi))
        if rows is None:
            rows = 0
            if hi >= lo:
                rows = ((1 << ((hi - lo + 1) * self.wp)) - 1) << ((lo + 1) * self.wp)
            self._rows[(lo, hi)] = rows
        return cols & rows

    def visible(self, sources: frozenset[Cell], rule: str) -> set[Cell]:
        """Every floor cell seen from a floor cell of `sources` (stairs not included).

        The centre-to-centre rule (the first edition's) casts its beams from the sources
        (`visible_first`); the corner rule (the second edition's) casts rays from the
        sources' corners.
        """
        src = self.bits_of(sources)
        if rule == CENTRE_LINE:
            return self._cells(self.visible_first(src))
        if not src:
            return set()
        seen = src | self._neighbours(src)
        far = src & ~self.fog
        if not far:
            return self._cells(seen)
        # A line of sight never leaves the region of floor joined by edges free of walls
        # and closed doors (where it passes a grid point, one way round is free), so the
        # offsets worth casting are bounded by the widest of the sources' regions (not the
        # box around them all: two rooms 400 cells apart would cast every direction of it).
        if self._component is None:
            self._component, self._component_box = _components(self.board, self.state)
        regions = {self._component[c] for c in sources if c in self._component}
        boxes = [self._component_box[r] for r in regions]
        span_x = max((b[2] - b[0] + 1 for b in boxes), default=0)
        span_y = max((b[3] - b[1] + 1 for b in boxes), default=0)
        if span_x > 2 or span_y > 2:
            seen |= self._cast_second(far) | self._cast_points(far, span_x, span_y)
        return self._cells(seen)

    def _neighbours(self, src: int) -> int:
        """The cells seen by the neighbour rule from the sources `src` (both editions;
        fog cells see and are seen here)."""
        wp, masks, valid = self.wp, self._basic, self._valid
        seen = 0
        for (dx, dy), (mid, fx, fy) in _NEIGHBOUR_FEATURES.items():
            k = fy * wp + fx
            v = src & (masks[mid] >> k if k >= 0 else masks[mid] << -k) & valid(dx, dx, dy, dy)
            k = dy * wp + dx
            seen |= (v << k if k >= 0 else v >> -k) & self.floor
        return seen

    def _quadrant_steps(self, sx: int, sy: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """The masks of beams.cast for the quadrant (sx, sy): each event kind (vertical edge,
        horizontal edge, grid point) keyed to the bit of the cell it enters, alone and
        together with that cell."""
        found = self._steps_by_quadrant.get((sx, sy))
        if found is None:
            masks, wp = self._basic, self.wp
            cell = masks[_BASE[CELL]]
            vertical = masks[_BASE[VCROSS]] if sx > 0 else masks[_BASE[VCROSS]] >> 1
            horizontal = masks[_BASE[HCROSS]] if sy > 0 else masks[_BASE[HCROSS]] >> wp
            # The grid point passed is the entered cell's corner towards the source.
            point = masks[_BASE[POINT] + position_of(sx, sy) % 4]
            point >>= (0 if sx > 0 else 1) + (0 if sy > 0 else wp)
            event = (vertical, horizontal, point)
            found = self._steps_by_quadrant[(sx, sy)] = ((vertical & cell, horizontal & cell, point & cell), event)
        return found

    def _beams(self, sources: int) -> Iterator[tuple[int, int, int, int, int]]:
        """Cast the first-edition beams (beams.py) from the source bits `sources`, in stripes
        of a few rows (a beam's bits are as long as the rows from its sources to it); yields,
        for offsets (dx, dy) at Chebyshev distance >= 2, (dx, dy, the sources seeing the
        cell that far, as bits at that cell shifted down by `base`, base, the offset in
        bits): the bit of source s is at s + offset - base."""
        tree, wp, cell = beams.root(), self.wp, self._basic[_BASE[CELL]]
        for stripe in self._stripes(sources):
            for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                starts = list(tree.quadrant)
                if sy > 0:
                    starts.append(tree.east)  # west, when sx < 0
                if sx > 0:
                    starts.append(tree.south)  # north, when sy < 0
                steps, events = self._quadrant_steps(sx, sy)
                for c, r, bits, base, k in beams.cast(starts, stripe, steps, events, cell, wp, sx, sy, self.w, self.h):
                    yield sx * c, sy * r, bits, base, k

    def _stripes(self, bits: int) -> list[int]:
        """`bits` cut into bands of whole rows, about _STRIPE_BITS long, each holding some of them:
        sources cast together share their beams, but every step of a beam costs as many bits
        as its stripe spans."""
        wp = self.wp
        height = max(8, _STRIPE_BITS // wp)
        rows = sorted({i // wp for i in _indices(bits)})
        out = []
        while rows:
            first = rows[0]
            band = ((1 << (height * wp)) - 1) << (first * wp)
            out.append(bits & band)
            rows = [r for r in rows if r >= first + height]
        return out

    def visible_first(self, sources: int) -> int:
        """First edition: the bits of every floor cell seen from the source bits `sources`
        (the sources and their neighbours included), cast from those sources alone."""
        seen = sources | self._neighbours(sources)
        far = sources & ~self.fog
        if far and (self.w > 2 or self.h > 2):
            ok = self.target_ok
            by_base: dict[int, int] = {}  # base -> the cells seen, shifted down by it
            for _dx, _dy, bits, base, _k in self._beams(far):
                by_base[base] = by_base.get(base, 0) | bits
            for base, bits in by_base.items():
                seen |= (bits << base) & ok
        return seen

    def labels_seen(self, groups: list[int], sources: int, labels: Labels) -> list[set]:
        """First edition: for each group of cells (bits; the groups do not overlap), the labels
        of the cells of `sources` that some cell of the group sees.  Sight is symmetric, so
        this is one cast from all the groups' cells at once (they are fewer than the
        sources); the pairs found along each beam are split by group, peeling the group of
        the highest source first, then by label, peeling the label of the highest target
        (a beam's pairs seldom span more than one or two of each)."""
        owner: dict[int, int] = {}
        union = 0
        out: list[set] = []
        for number, bits in enumerate(groups):
            union |= bits
            for i in _indices(bits):
                owner[i] = number
            out.append(labels.of(sources & (bits | self._neighbours(bits))))
        far = union & ~self.fog
        targets = sources & self.target_ok & labels.cells
        if far and targets and (self.w > 2 or self.h > 2):
            framed: dict[int, int] = {}
            for _dx, _dy, bits, base, k in self._beams(far):
                if base not in framed:
                    framed[base] = targets >> base
                pairs = bits & framed[base]
                while pairs:
                    # The source of the highest pair is that pair's bit less the offset.
                    number = owner[pairs.bit_length() - 1 - k + base]
                    shift = base - k
                    group = groups[number] >> shift if shift >= 0 else groups[number] << -shift
                    mine = pairs & group
                    pairs ^= mine
                    seen = out[number]
                    while mine:
                        label = labels.owner[mine.bit_length() - 1 + base]
                        seen.add(label)
                        mine &= labels.outside(label, base)
        return out

    def _cast_second(self, far: int) -> int:
        """Targets at Chebyshev distance >= 2 seen from the sources `far` (second edition)."""
        wp, masks, valid, w, h, ok = self.wp, self.masks, self._valid, self.w, self.h, self.target_ok
        point_valid = self._point_valid
        seen = 0
        # Only the short directions: the longer ones are cast from points (_cast_points).
        directions = [d for d in _directions(min(w, 2), min(h, 2)) if max(abs(d[0]), abs(d[1])) <= 2]
        for cx, cy in ((0, 0), (1, 0), (0, 1), (1, 1)):
            for a, b in directions:
                cur = far & point_valid(cx + a, cy + b)
                if not cur:
                    continue
                ray = _get_second(cx, cy, a, b)
                items, extend = ray.first, ray.more_first
                step = b * wp + a
                shift = dx = dy = 0
                i = 0
                while True:
                    if i == len(items):
                        extend()
                    item = items[i]
                    i += 1
                    mid = item[0]
                    if mid >= 0:
                        k = shift + item[2] * wp + item[1]
                        cur &= masks[mid] >> k if k >= 0 else masks[mid] << -k
                        if not cur:
                            break
                        continue
                    _, cont, x, y, targets, qx, qy = item
                    qx += dx
                    qy += dy
                    # Sources whose lattice point corner + m(a, b) left the box are done.
                    if qx - 1 >= w or qx <= -w or qy - 1 >= h or qy <= -h:
                        break
                    cur &= point_valid(qx, qy)
                    if not cur:
                        break
                    kt = shift + y * wp + x
                    kq = qy * wp + qx
                    for tx, ty, tail, reach in targets:
                        tx += dx
                        ty += dy
                        if -1 <= tx <= 1 and -1 <= ty <= 1:
                            continue  # neighbours follow the neighbour rule instead
                        v = cur & (masks[reach] >> kq if kq >= 0 else masks[reach] << -kq)
                        if tail >= 0 and v:
                            v &= masks[tail] >> kt if kt >= 0 else masks[tail] << -kt
                        if v:
                            v &= valid(tx, tx, ty, ty)
                            k = ty * wp + tx
                            seen |= (v << k if k >= 0 else v >> -k) & ok
                    if cont >= 0:
                        cur &= masks[cont] >> kt if kt >= 0 else masks[cont] << -kt
                        if not cur:
                            break
                    items, extend = ray.rest, ray.more_rest
                    i = 0
                    shift += step
                    dx += a
                    dy += b
        return seen

    def _box(self, xlo: int, xhi: int, ylo: int, yhi: int) -> int:
        """Bits of the local positions x in [xlo, xhi], y in [ylo, yhi], clipped to the
        points of the box ([0, w] x [0, h]); cells and points share the index formula."""
        xlo, xhi, ylo, yhi = max(xlo, 0), min(xhi, self.w), max(ylo, 0), min(yhi, self.h)
        key = (xlo, xhi, ylo, yhi)
        found = self._boxes.get(key)
        if found is None:
            found = 0
            if xhi >= xlo and yhi >= ylo:
                row = ((1 << (xhi - xlo + 1)) - 1) << (xlo + 1)
                rows = ((1 << ((yhi - ylo + 1) * self.wp)) - 1) << ((ylo + 1) * self.wp)
                found = row * self._every_row & rows
            self._boxes[key] = found
        return found

    def _cast_points(self, far: int, max_x: int, max_y: int) -> int:
        """Second edition, directions with max(|a|, |b|) >= 3, cast from lattice points.

        A line from a corner P of a source depends on which of the four cells round P
        the source is only at its start (the REACH test and whether the first stretch,
        through one of those cells, is exempt).  So the start test is done per quadrant
        and OR-ed into one bitset over lattice points, and one ray per direction does
        the work of four.  Neighbouring targets cannot occur at these lengths.
        """
        wp, masks, w, h, ok, box = self.wp, self.masks, self.w, self.h, self.target_ok, self._box
        by_quadrant = {SE: far, SW: far << 1, NW: far << (wp + 1), NE: far << wp}
        cell_open = masks[_BASE[CELL]]
        # The start test depends on the direction only through the quadrant it leaves
        # into, so it is made once per quadrant.
        starts = {}
        for region in QUADRANTS:
            fx, fy = quadrant_cell((0, 0), region)
            k = fy * wp + fx
            first_open = cell_open >> k if k >= 0 else cell_open << -k
            start = 0
            for quadrant, points in by_quadrant.items():
                part = points & masks[_BASE[REACH] + quadrant * 8 + region]
                if quadrant != region:  # the first stretch crosses another cell
                    part &= first_open
                start |= part
            starts[region] = start
        seen = 0
        for a, b in _directions(max_x, max_y):
            if max(abs(a), abs(b)) <= 2:
                continue
            region = position_of(a, b)
            cur = starts[region]
            cur &= box(-a, w - a, -b, h - b)
            if not cur:
                continue
            ray = _get_body(a, b)
            items, extend = ray.first, ray.more_first
            step = b * wp + a
            point_mask = masks[_BASE[POINT] + region % 4]
            shift = dx = dy = 0
            i = 1  # the first stretch is in the start test
            while True:
                if i >= len(items):
                    extend()
                item = items[i]
                i += 1
                mid = item[0]
                if mid >= 0:
                    k = shift + item[2] * wp + item[1]
                    cur &= masks[mid] >> k if k >= 0 else masks[mid] << -k
                    if not cur:
                        break
                    continue
                _, cont, x, y, targets, qx, qy = item
                qx += dx
                qy += dy
                if abs(qx) > w or abs(qy) > h:
                    break
                cur &= box(-qx, w - qx, -qy, h - qy)
                if not cur:
                    break
                kt = shift + y * wp + x
                kq = qy * wp + qx
                for tx, ty, tail, reach in targets:
                    tx += dx
                    ty += dy
                    v = cur & (masks[reach] >> kq if kq >= 0 else masks[reach] << -kq)
                    if tail >= 0 and v:
                        v &= masks[tail] >> kt if kt >= 0 else masks[tail] << -kt
                    if v:
                        v &= box(-tx, w - 1 - tx, -ty, h - 1 - ty)
                        k = ty * wp + tx
                        seen |= (v << k if k >= 0 else v >> -k) & ok
                cur &= masks[cont] >> kt if kt >= 0 else masks[cont] << -kt
                if not cur:
                    break
                # The next period starts by passing the lattice point just reached.
                cur &= point_mask >> kq if kq >= 0 else point_mask << -kq
                if not cur:
                    break
                i = 0
                shift += step
                dx += a
                dy += b
        return seen

    def _point_valid(self, qx: int, qy: int) -> int:
        """Sources s for which the lattice point s + (qx, qy) is a corner of some box cell."""
        # A point (local) px in [0, w] is a corner of a box cell; s.x + qx in [0, w] means
        # s.x >= -qx and s.x <= w - qx, i.e. the cell-range test with dx_hi = qx - 1.
        return self._valid(qx, qx - 1, qy, qy - 1)

    @cached_property
    def _all_rows(self) -> int:
        """A bit at the start (margin column) of every row of cells."""
        return bits_at(((y + 1) * self.wp for y in range(self.h)), self.size)

    @cached_property
    def _every_row(self) -> int:
        """A bit at the start of every row of lattice points (one more than of cells)."""
        return bits_at(((y + 1) * self.wp for y in range(self.h + 1)), self.size + self.wp)

    def bits_of(self, cells) -> int:
        """The bits of the given cells that are floor (others are ignored)."""
        if isinstance(cells, frozenset) and len(cells) >= _MEMO_SIZE:
            return self._shared.bits_of_set(cells, self._bits_of)
        return self._bits_of(cells)

    def _bits_of(self, cells) -> int:
        x0, y0, x1, y1, wp = self.ox, self.oy, self.ox + self.w, self.oy + self.h, self.wp
        base = (1 - y0) * wp + 1 - x0
        # Cells off the box are skipped: a far cell would make a huge int, one left or
        # above a negative index.
        return bits_at([y * wp + x + base for x, y in cells if x0 <= x < x1 and y0 <= y < y1], self.size) & self.floor

    def reach(self, start: int, allowed: int, jumps: list[tuple[int, int]]) -> set[Cell]:
        """Movement: every cell a figure walks to from the cells `start` (bits), stepping
        only onto `allowed` floor cells free of movement-blocking obstacles.

        A step goes to an 8-neighbour by the step rule of this board's door state (an
        orthogonal step needs its edge free, a diagonal one a corner not cut both ways
        round, exactly the neighbour rule of sight); `jumps` are extra one-way steps
        (bit of a stair end, bit of the other end).  Start cells must be enterable too.
        """
        wp, masks, floor = self.wp, self._basic, self.floor
        steps = self._steps
        if steps is None:
            steps = self._steps = []
            for (dx, dy), (mid, fx, fy) in _NEIGHBOUR_FEATURES.items():
                k = fy * wp + fx
                ok = floor & (masks[mid] >> k if k >= 0 else masks[mid] << -k)
                steps.append((ok, dy * wp + dx))
        enter = allowed & floor & ~self.no_entry
        reached = start & enter
        # Grown from the last answer when it is contained in this one (the same start, fewer
        # doors passable, fewer cells allowed, fewer stairs): the reveal analysis asks wave
        # after wave with more of each.
        last = self._shared.last_reach
        if (
            last is not None
            and last[0] <= self.state.open_doors
            and last[1] == start
            and last[2] & allowed == last[2]
            and last[3] <= set(jumps)
        ):
            reached |= last[4]
        frontier = reached
        while frontier:
            new = 0
            for ok, k in steps:
                v = frontier & ok
                if v:
                    new |= v << k if k >= 0 else v >> -k
            for end, other in jumps:
                if frontier & end:
                    new |= other
            frontier = new & enter & ~reached
            reached |= frontier
        self._shared.last_reach = (self.state.open_doors, start, allowed, set(jumps), reached)
        return self._cells(reached)

    def cells_of(self, bits: int) -> set[Cell]:
        """The floor cells whose bits are set."""
        return self._cells(bits)

    def _cells(self, bits: int) -> set[Cell]:
        """The cells whose bits are set (floor only)."""
        bits &= self.floor
        if bits.bit_length() >= _MEMO_SIZE * 8:
            return self._shared.cells_of_bits(bits, self._cells_now)
        return self._cells_now(bits)

    def _cells_now(self, bits: int) -> set[Cell]:
        wp, ox, oy = self.wp, self.ox, self.oy
        low = (bits & -bits).bit_length() - 1  # the string starts at the lowest set bit
        text = bin(bits >> low)[:1:-1] if bits else ""  # bit i is text[i]; walking a string beats peeling bits
        out: set[Cell] = set()
        i = text.find("1")
        while i >= 0:
            j = i + low
            out.add((j % wp - 1 + ox, j // wp - 1 + oy))
            i = text.find("1", i + 1)
        return out


def _indices(bits: int) -> Iterator[int]:
    """The indices of the set bits, lowest first."""
    if not bits:
        return
    low = (bits & -bits).bit_length() - 1  # the string starts at the lowest set bit
    text = bin(bits >> low)[:1:-1]  # bit i is text[i]; walking a string beats peeling bits
    i = text.find("1")
    while i >= 0:
        yield i + low
        i = text.find("1", i + 1)


class Labels:
    """A label for some of a board's cells (the reveal analysis labels cells by area), as
    bits: which label a bit has, and each label's cells, shifted down to a frame's base."""

    def __init__(self, bits: BitBoard, labels: dict[Cell, str]):
        index = bits.index
        self.owner: dict[int, str] = {}
        by_label: dict[str, list[int]] = {}
        for cell, label in labels.items():
            if bits.ox <= cell[0] < bits.ox + bits.w and bits.oy <= cell[1] < bits.oy + bits.h:
                i = index(cell)
                self.owner[i] = label
                by_label.setdefault(label, []).append(i)
        # A label's complement: ANDing with it drops the label's cells (no negative ints,
        # whose two's complement would cost a pass over the whole number each time).
        self._outside = {label: bits.full & ~bits_at(found, bits.size) for label, found in by_label.items()}
        self.cells = bits_at(self.owner, bits.size)
        self._framed: dict[tuple[str, int], int] = {}

    def of(self, bits: int) -> set[str]:
        """The labels of the cells of `bits`."""
        return {self.owner[i] for i in _indices(bits) if i in self.owner}

    def outside(self, label: str, base: int) -> int:
        """Every bit but the label's cells', shifted down by `base`."""
        found = self._framed.get((label, base))
        if found is None:
            found = self._framed[(label, base)] = self._outside[label] >> base
        return found
