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

from itertools import islice
from math import gcd
from collections.abc import Iterator
from weakref import WeakKeyDictionary

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
_TARGET = -1   # first-edition ray item: (_TARGET, dx, dy)
_TAIL = -2     # second-edition ray item: (_TAIL, continue_mask, x, y, targets, qx, qy)


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
_RAYS_FIRST: dict[tuple[int, int], _LazyRay] = {}
_RAYS_SECOND: dict[tuple[int, int, int, int], _LazyRay] = {}
_RAYS_BODY: dict[tuple[int, int], _LazyRay] = {}
_DIRECTIONS: dict[tuple[int, int], list[tuple[int, int]]] = {}


def forget_rays() -> None:
    """Empty the process-wide ray caches (they grow with the largest board cast)."""
    for cache in (_RAYS_FIRST, _RAYS_SECOND, _RAYS_BODY, _DIRECTIONS):
        cache.clear()


def _directions(max_x: int, max_y: int) -> list[tuple[int, int]]:
    """Primitive integer directions (a, b) with |a| <= max_x, |b| <= max_y, short ones first."""
    key = (max_x, max_y)
    found = _DIRECTIONS.get(key)
    if found is None:
        found = [(a, b) for a in range(-max_x, max_x + 1) for b in range(-max_y, max_y + 1)
                 if gcd(a, b) == 1]
        found.sort(key=lambda d: (abs(d[0]) + abs(d[1]), d))
        _DIRECTIONS[key] = found
    return found


def _period_first(a: int, b: int, first: bool) -> Iterator[tuple]:
    """One period of a first-edition ray: centre of cell (0, 0) to centre of (a, b).

    In the first period (0, 0) is the source and never blocks; in later ones it is the
    previous target, crossed like any cell.  The period's own target never blocks it.
    """
    for kind, x, y, extra in segment_features(1, 1, 2 * a + 1, 2 * b + 1):
        if kind == CELL and ((x, y) == (a, b) or (first and x == 0 and y == 0)):
            continue
        yield (_BASE[kind] + extra, x, y)
    yield (_TARGET, a, b)


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
        targets.append((t[0], t[1], _mask_id(tf) if tf is not None else -1,
                        _BASE[REACH] + quadrant * 8 + in_region))
    yield (_TAIL, _mask_id(cont) if cont is not None else -1, tail[1], tail[2],
           tuple(targets), qx, qy)


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
        targets.append((t[0], t[1], _mask_id(tf) if tf is not None else -1,
                        _BASE[REACH] + quadrant * 8 + in_region))
    yield (_TAIL, _mask_id(tail), tail[1], tail[2], tuple(targets), a, b)


def _get_body(a: int, b: int) -> _LazyRay:
    ray = _RAYS_BODY.get((a, b))
    if ray is None:
        ray = _RAYS_BODY[(a, b)] = _LazyRay(_period_body(a, b), iter(()))
    return ray


def _get_first(a: int, b: int) -> _LazyRay:
    ray = _RAYS_FIRST.get((a, b))
    if ray is None:
        ray = _RAYS_FIRST[(a, b)] = _LazyRay(_period_first(a, b, True),
                                             _period_first(a, b, False))
    return ray


def _get_second(cx: int, cy: int, a: int, b: int) -> _LazyRay:
    ray = _RAYS_SECOND.get((cx, cy, a, b))
    if ray is None:
        ray = _RAYS_SECOND[(cx, cy, a, b)] = _LazyRay(_period_second(cx, cy, a, b, True),
                                                      _period_second(cx, cy, a, b, False))
    return ray


# The neighbour rule as features: (dx, dy) -> (feature kind mask id, x, y).
_NEIGHBOUR_FEATURES = {
    (1, 0): (_BASE[VCROSS], 1, 0), (-1, 0): (_BASE[VCROSS], 0, 0),
    (0, 1): (_BASE[HCROSS], 0, 1), (0, -1): (_BASE[HCROSS], 0, 0),
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
            for n, edge in (((x + 1, y), (x + 1, y, x + 1, y + 1)), ((x - 1, y), (x, y, x, y + 1)),
                            ((x, y + 1), (x, y + 1, x + 1, y + 1)), ((x, y - 1), (x, y, x + 1, y))):
                if n in floor and n not in component and edge not in blocked:
                    component[n] = number
                    stack.append(n)
        boxes.append((x0, y0, x1, y1))
    return component, boxes


class _Shared:
    """What every door state's BitBoard of one board has in common: the floor, fog, opaque and
    no-entry bits (doors change none of them) and the `_valid` masks, which depend on the box."""

    def __init__(self, board: Layout, bits: BitBoard) -> None:
        index = bits.index
        floor = fog = no_entry = 0
        opaque = bits.full
        for cell in board.cells:
            bit = 1 << index(cell)
            floor |= bit
            if board.is_fog(cell):
                fog |= bit
            if not board.blocks_sight(cell):
                opaque &= ~bit
            if board.blocks_movement(cell):
                no_entry |= bit
        self.floor, self.fog, self.opaque, self.no_entry = floor, fog, opaque, no_entry
        self.valid: dict[tuple[int, int, int, int], int] = {}


_SHARED: WeakKeyDictionary[Layout, _Shared] = WeakKeyDictionary()


def _shared(board: Layout, bits: BitBoard) -> _Shared:
    found = _SHARED.get(board)
    if found is None:
        found = _SHARED[board] = _Shared(board, bits)
    return found


class BitBoard:
    """The board's sight data for one set of open doors, as bitsets, and the bulk query."""

    def __init__(self, board: Layout, state: SightState) -> None:
        self.board = board
        self.ox, self.oy = board.origin
        self.w, self.h = board.width, board.height
        self.wp = wp = self.w + 2
        self.full = (1 << (wp * (self.h + 2))) - 1
        shared = _shared(board, self)
        floor, fog, opaque, no_entry = shared.floor, shared.fog, shared.opaque, shared.no_entry
        self.floor = floor
        self.fog = fog
        self.target_ok = floor & ~fog
        vb = hb = 0
        for x1, y1, x2, _y2 in state.blocked_edges:
            bit = 1 << self.index((x1, y1))
            if x1 == x2:
                vb |= bit
            else:
                hb |= bit
        arm = {E: hb, S: vb, W: hb << 1, N: vb << wp}
        full = self.full
        masks = [0] * _N_MASKS
        masks[_BASE[CELL]] = full & ~opaque
        masks[_BASE[VCROSS]] = full & ~vb
        masks[_BASE[HCROSS]] = full & ~hb
        for o in range(4):
            side_a = side_b = 0
            for k in (1, 2, 3):
                side_a |= arm.get((o + k) % 8, 0)
                side_b |= arm.get((o + 4 + k) % 8, 0)
            masks[_BASE[POINT] + o] = full & ~(side_a & side_b)
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
        self.masks = masks
        self._cols: dict[tuple[int, int], int] = {}
        self._rows: dict[tuple[int, int], int] = {}
        self._all_rows = sum(1 << ((y + 1) * wp) for y in range(self.h))
        self._every_row = sum(1 << ((y + 1) * wp) for y in range(self.h + 1))
        self._valid_memo = shared.valid
        self._boxes: dict[tuple[int, int, int, int], int] = {}
        self.state = state
        self.no_entry = no_entry
        self._steps: list[tuple[int, int]] | None = None   # movement, made on first use
        self._component: dict[Cell, int] | None = None   # regions: they bound the offsets cast
        self._component_box: list[tuple[int, int, int, int]] = []

    def region_of(self, seeds: int) -> int:
        """The floor cells joined to the `seeds` (bits) by edges free of walls and closed doors
        in this door state: a line of sight from a seed never leaves them (a grid point is
        passed only where one way round it is free, so its cells are joined too)."""
        free_v, free_h = self.masks[_BASE[VCROSS]], self.masks[_BASE[HCROSS]]
        wp, floor = self.wp, self.floor
        # Stepping east crosses the vertical edge whose bit is the cell's bit + 1; west, the
        # cell's own; south, the horizontal edge a row down; north, the cell's own.
        east, south = free_v >> 1, free_h >> wp
        region = frontier = seeds & floor
        while frontier:
            grown = ((frontier & east) << 1) | ((frontier & free_v) >> 1) | \
                ((frontier & south) << wp) | ((frontier & free_h) >> wp)
            frontier = grown & floor & ~region
            region |= frontier
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

        The centre-to-centre rule (the first edition's) goes through a full `sight_table`
        (callers that ask often, as `Board.visible_cells`, keep the table); the corner rule
        (the second edition's) casts rays from the sources themselves.
        """
        if rule == CENTRE_LINE:
            return self.visible_by_table(sources, self.sight_table())
        src = self.bits_of(sources)
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
        wp, masks, valid = self.wp, self.masks, self._valid
        seen = 0
        for (dx, dy), (mid, fx, fy) in _NEIGHBOUR_FEATURES.items():
            k = fy * wp + fx
            v = src & (masks[mid] >> k if k >= 0 else masks[mid] << -k) & valid(dx, dx, dy, dy)
            k = dy * wp + dx
            seen |= (v << k if k >= 0 else v >> -k) & self.floor
        return seen

    def sight_table(self, start: dict[tuple[int, int], int] | None = None,
                    reach: tuple[int, int] | None = None) -> dict[tuple[int, int], int]:
        """First edition, by offset: (dx, dy) -> the bits of the sources that see the cell
        (dx, dy) away, for every offset at Chebyshev distance >= 2 some source sees.

        Sources are the floor cells free of fog, targets floor cells free of fog; bits
        are in the source frame (a source's own bit).  With `start` (keys: directions
        (a, b) with b > 0, or b == 0 and a > 0), only the directions it holds are cast,
        each from its given sources only (the caller knows the other answers); else
        every such direction from every source.  Sight is symmetric, so the opposite
        directions are not cast: the sources seeing offset -d are the targets seen at
        offset d. `reach` (w, h): no offset is seen at |dx| >= w or |dy| >= h (the caller
        knows the sources' regions fit in such a box), so rays stop there.
        """
        wp, masks, valid, w, h, ok = self.wp, self.masks, self._valid, self.w, self.h, self.target_ok
        table: dict[tuple[int, int], int] = {}
        if w <= 2 and h <= 2:
            return table
        reach_w, reach_h = (min(w, reach[0]), min(h, reach[1])) if reach is not None else (w, h)
        far = self.floor & ~self.fog
        if start is None:
            # A line of sight stays in its region of floor (see `visible`), so no offset is
            # wider than the widest region: two rooms 400 cells apart cast 3-cell rays, not
            # the 100,000 directions of their box.
            if self._component is None:
                self._component, self._component_box = _components(self.board, self.state)
            reach_x = max((x1 - x0 for x0, _, x1, _ in self._component_box), default=0)
            reach_y = max((y1 - y0 for _, y0, _, y1 in self._component_box), default=0)
        directions = start.items() if start is not None else \
            ((d, far) for d in _directions(min(w - 1, reach_x), min(h - 1, reach_y))
             if d[1] > 0 or (d[1] == 0 and d[0] > 0))
        for (a, b), cur in directions:
            # Sources whose first target is off the box see nothing along this ray (and
            # would only wrap round the rows of the bitset).
            cur &= far & valid(a, a, b, b)
            if not cur:
                continue
            ray = _get_first(a, b)
            items, extend = ray.first, ray.more_first
            step = b * wp + a
            shift = dx = dy = 0  # where the current period starts, relative to the source
            i = 0
            while True:
                if i == len(items):
                    extend()
                mid, x, y = items[i]
                i += 1
                if mid >= 0:
                    k = shift + y * wp + x
                    cur &= masks[mid] >> k if k >= 0 else masks[mid] << -k
                    if not cur:
                        break
                    continue
                tx, ty = x + dx, y + dy
                if abs(tx) >= reach_w or abs(ty) >= reach_h:
                    break
                cur &= valid(tx, tx, ty, ty)
                if not cur:
                    break
                if abs(tx) > 1 or abs(ty) > 1:
                    k = ty * wp + tx
                    v = cur & (ok >> k if k >= 0 else ok << -k)
                    if v:
                        table[(tx, ty)] = v
                items, extend = ray.rest, ray.more_rest
                i = 0
                shift += step
                dx += a
                dy += b
        # Targets seen at offset d (d in the half cast: its index shift k is positive).
        for (dx, dy), v in list(table.items()):
            table[(-dx, -dy)] = v << (dy * wp + dx)
        return table

    def visible_by_table(self, sources: frozenset[Cell], table: dict[tuple[int, int], int]) -> set[Cell]:
        """First edition: every floor cell seen from a floor cell of `sources`, with the
        sight table of this board's door state (`sight_table`)."""
        src = self.bits_of(sources)
        if not src:
            return set()
        seen = src | self._neighbours(src)
        far = src & ~self.fog
        if far:
            wp = self.wp
            for (dx, dy), v in table.items():
                v &= far
                if v:
                    k = dy * wp + dx
                    seen |= v << k if k >= 0 else v >> -k
        return self._cells(seen)

    def _cast_second(self, far: int) -> int:
        """Targets at Chebyshev distance >= 2 seen from the sources `far` (second edition)."""
        wp, masks, valid, w, h, ok = self.wp, self.masks, self._valid, self.w, self.h, self.target_ok
        point_valid = self._point_valid
        seen = 0
        # Only the short directions: the longer ones are cast from points (_cast_points).
        directions = [d for d in _directions(min(w, 2), min(h, 2))
                      if max(abs(d[0]), abs(d[1])) <= 2]
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

    def bits_of(self, cells) -> int:
        """The bits of the given cells that are floor (others are ignored)."""
        index, bits = self.index, 0
        x0, y0, x1, y1 = self.ox, self.oy, self.ox + self.w, self.oy + self.h
        for cell in cells:
            # Cells off the box are skipped before the shift: a far cell would make a huge
            # int, one left or above a negative shift.
            if x0 <= cell[0] < x1 and y0 <= cell[1] < y1:
                bits |= 1 << index(cell)
        return bits & self.floor

    def reach(self, start: int, allowed: int, jumps: list[tuple[int, int]]) -> set[Cell]:
        """Movement: every cell a figure walks to from the cells `start` (bits), stepping
        only onto `allowed` floor cells free of movement-blocking obstacles.

        A step goes to an 8-neighbour by the step rule of this board's door state (an
        orthogonal step needs its edge free, a diagonal one a corner not cut both ways
        round, exactly the neighbour rule of sight); `jumps` are extra one-way steps
        (bit of a stair end, bit of the other end).  Start cells must be enterable too.
        """
        wp, masks, floor = self.wp, self.masks, self.floor
        steps = self._steps
        if steps is None:
            steps = self._steps = []
            for (dx, dy), (mid, fx, fy) in _NEIGHBOUR_FEATURES.items():
                k = fy * wp + fx
                ok = floor & (masks[mid] >> k if k >= 0 else masks[mid] << -k)
                steps.append((ok, dy * wp + dx))
        enter = allowed & floor & ~self.no_entry
        reached = frontier = start & enter
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
        return self._cells(reached)

    def cells_of(self, bits: int) -> set[Cell]:
        """The floor cells whose bits are set."""
        return self._cells(bits)

    def _cells(self, bits: int) -> set[Cell]:
        """The cells whose bits are set (floor only)."""
        bits &= self.floor
        wp, ox, oy = self.wp, self.ox, self.oy
        text = bin(bits)[:1:-1]  # bit i is text[i]; walking a string beats peeling bits
        out: set[Cell] = set()
        i = text.find("1")
        while i >= 0:
            out.add((i % wp - 1 + ox, i // wp - 1 + oy))
            i = text.find("1", i + 1)
        return out
