"""Where the map's words go: each label is placed beside what it names, on floor, clear of every
wall, door, symbol and other label; a leader line joins it to its thing when it had to move away;
when there is no room at all, a numbered key badge stands beside the thing instead and the
words go into the legend's key.

Boxes are (x0, y0, x1, y1) in points. A spatial index (one bucket per map cell) keeps the search
linear in the number of labels; whether a box stands on floor is four look-ups in a summed-area
table of the floor cells, not a look-up per cell it covers (on the 2,000-cell map most of the
candidates an area's badge tries are off the floor, and testing them cell by cell was most of
drawing the map).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from operator import itemgetter

from questc.records import record

Box = tuple[float, float, float, float]
Point = tuple[float, float]
Cell = tuple[int, int]


def intersects(a: Box, b: Box, pad: float = 0.0) -> bool:
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def gap_between(a: Box, b: Box) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(0.0, b[0] - a[2], a[0] - b[2])
    dy = max(0.0, b[1] - a[3], a[1] - b[3])
    return math.hypot(dx, dy)


def segment_hits(p: Point, q: Point, box: Box) -> bool:
    """True when the segment p-q crosses box (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for edge_p, edge_q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if edge_p == 0:
            if edge_q < 0:
                return False
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


EPS = 0.01  # a box's edge moved this far in when finding the cells under it: touching is not covering


class CellCounts:
    """A set of cells as a summed-area table over the rectangle around them: whether a rectangle
    of cells lies wholly in the set is four look-ups, however large the rectangle."""

    def __init__(self, cells: Iterable[Cell]) -> None:
        self.cells = cells = set(cells)
        if not cells:
            self.x0 = self.y0 = 0
            self.x1 = self.y1 = -1
            self.sums = [0]
            self.row = 1
            return
        self.x0, self.x1 = min(x for x, _ in cells), max(x for x, _ in cells)
        self.y0, self.y1 = min(y for _, y in cells), max(y for _, y in cells)
        width, height = self.x1 - self.x0 + 1, self.y1 - self.y0 + 1
        # sums[(y + 1) * row + x + 1]: how many cells of the set lie in columns 0..x, rows 0..y
        # (counted from x0, y0); row and column 0 are the zeros the look-ups start from.
        self.row = row = width + 1
        sums = [0] * (row * (height + 1))
        for y in range(height):
            above, here, run = y * row, (y + 1) * row, 0
            for x in range(width):
                run += (x + self.x0, y + self.y0) in cells
                sums[here + x + 1] = sums[above + x + 1] + run
        self.sums = sums

    def columns(self, x0: int, x1: int) -> tuple[int, int, int] | None:
        """Columns x0..x1 as holds() looks them up: (left, right, how many), (0, 0, 0) for none
        at all (any rectangle of them is held), None when some lie off the table (none is)."""
        if x0 > x1:
            return 0, 0, 0
        if x0 < self.x0 or x1 > self.x1:
            return None
        return x0 - self.x0, x1 - self.x0 + 1, x1 - x0 + 1

    def rows(self, y0: int, y1: int) -> tuple[int, int, int] | None:
        """Rows y0..y1 likewise: (top, bottom) as offsets into the table, how many."""
        if y0 > y1:
            return 0, 0, 0
        if y0 < self.y0 or y1 > self.y1:
            return None
        return (y0 - self.y0) * self.row, (y1 - self.y0 + 1) * self.row, y1 - y0 + 1

    def filled(self, column: tuple[int, int, int], row: tuple[int, int, int]) -> bool:
        """Every cell where a columns() and a rows() answer cross is in the set."""
        left, right, wide = column
        top, bottom, tall = row
        sums = self.sums
        return sums[bottom + right] - sums[top + right] - sums[bottom + left] + sums[top + left] == wide * tall

    def holds(self, x0: int, y0: int, x1: int, y1: int) -> bool:
        """Every cell of columns x0..x1, rows y0..y1 is in the set (an empty rectangle is)."""
        if x0 > x1 or y0 > y1:
            return True
        column, row = self.columns(x0, x1), self.rows(y0, y1)
        return column is not None and row is not None and self.filled(column, row)


@record(slots=True)
class Grid:
    """Where the board's cells are drawn: `size` points a square, the `origin` cell's top-left
    corner at (left, top). One arithmetic for every caller, so that all find the same cell at a
    square's edge."""

    left: float
    top: float
    origin: Cell
    size: float

    def point(self, x: float, y: float) -> Point:
        """A lattice point of the board (x, y) in; its position in the drawing out."""
        return self.left + (x - self.origin[0]) * self.size, self.top + (y - self.origin[1]) * self.size

    def column(self, x: float) -> int:
        """A drawing's x in; the board column under it out (it may be off the board)."""
        return self.origin[0] + math.floor((x - self.left) / self.size)

    def row(self, y: float) -> int:
        """A drawing's y in; the board row under it out."""
        return self.origin[1] + math.floor((y - self.top) / self.size)

    def cell_at(self, x: float, y: float) -> Cell:
        """A point of the drawing in; the board cell under it out (it may be off the board)."""
        return self.column(x), self.row(y)


@record
class Obstruction:
    """A box a label must keep clear of, with what it is and whose it is."""

    box: Box
    kind: str  # wall, door, symbol, label, ...
    owner: str = ""  # what it belongs to: a label may touch its own thing's box, never another's


class Placer:
    """The map's free space: blocked boxes by kind, and the floor a label may stand on."""

    def __init__(self, grid: Grid, floor: set[Cell], bounds: Box) -> None:
        self.s = grid.size
        self.grid = grid
        self.to_cell = grid.cell_at  # a point in; the board cell under it out
        self.floor = floor
        self.floor_counts = CellCounts(floor)
        self.bounds = bounds
        self.buckets: dict[tuple[int, int], list[Obstruction]] = {}
        self.all: list[Obstruction] = []

    def _columns_under(self, counts: CellCounts, x0: float, x1: float) -> tuple[int, int, int] | None:
        """counts.columns() for the board columns a box from x0 to x1 lies over (as on_floor finds them)."""
        return counts.columns(self.grid.column(x0 + EPS), self.grid.column(x1 - EPS))

    def _rows_under(self, counts: CellCounts, y0: float, y1: float) -> tuple[int, int, int] | None:
        """counts.rows() likewise for a box from y0 to y1."""
        return counts.rows(self.grid.row(y0 + EPS), self.grid.row(y1 - EPS))

    def cell_origin(self, cell: Cell) -> Point:
        """A board cell in; its top-left point out."""
        return self.grid.point(*cell)

    def _keys(self, box: Box) -> Iterator[tuple[int, int]]:
        s = self.s
        for bx in range(math.floor(box[0] / s), math.floor(box[2] / s) + 1):
            for by in range(math.floor(box[1] / s), math.floor(box[3] / s) + 1):
                yield bx, by

    def block(self, box: Box, kind: str, owner: str = "") -> None:
        item = Obstruction(box, kind, owner)
        self.all.append(item)
        for key in self._keys(box):
            self.buckets.setdefault(key, []).append(item)

    def near(self, box: Box) -> Iterator[Obstruction]:
        seen = set()
        for key in self._keys(box):
            for item in self.buckets.get(key, ()):
                if id(item) not in seen:
                    seen.add(id(item))
                    yield item

    def on_floor(self, box: Box, cells: set[Cell] | CellCounts | None = None) -> bool:
        """Every cell the box lies over is floor (with `cells`, one of those instead)."""
        if cells is None:
            allowed = self.floor_counts
        elif isinstance(cells, CellCounts):
            allowed = cells
        else:
            allowed = CellCounts(cells)
        x0, y0 = self.to_cell(box[0] + EPS, box[1] + EPS)
        x1, y1 = self.to_cell(box[2] - EPS, box[3] - EPS)
        return allowed.holds(x0, y0, x1, y1)

    def free(self, box: Box, cells: set[Cell] | CellCounts | None = None, clearance: float = 0.0) -> bool:
        b = self.bounds
        if box[0] < b[0] or box[1] < b[1] or box[2] > b[2] or box[3] > b[3]:
            return False
        if not self.on_floor(box, cells):
            return False
        return not any(intersects(box, o.box, clearance) for o in self.near(box))

    def line_clear(self, p: Point, q: Point, owner: str, label_box: Box) -> bool:
        """A leader line from p to q crosses nothing but its own thing and its label."""
        box = (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))
        for o in self.near(box):
            if o.owner == owner and owner:
                continue
            if o.box == label_box:
                continue
            if segment_hits(p, q, o.box):
                return False
        return True

    def find(
        self,
        anchor: Box,
        width: float,
        height: float,
        *,
        owner: str,
        reach: float,
        cells: set[Cell] | CellCounts | None = None,
        centre_ok: bool = False,
        clearance: float = 0.0,
    ) -> tuple[Box, bool] | None:
        """A free box `width` x `height` near `anchor`, no further than `reach`: (box, needs a leader) or None.

        Candidates on a quarter-cell lattice around the anchor, nearest first; ties prefer below,
        then right, above and left (the order a reader looks). `centre_ok`: the box may sit over
        the anchor itself (an area's badge on its middle).

        A candidate's distance is its column's and its row's distances put together, so those are
        worked out once a column and once a row; the direction is worked out only for the
        candidates at the distances tried (most labels find room among the nearest few dozen of
        several hundred).
        """
        s = self.s
        step = s / 4
        b = self.bounds
        if width > b[2] - b[0] or height > b[3] - b[1]:
            return None  # wider than the map: no place can hold it (the legend's key will)
        if cells is not None and not isinstance(cells, CellCounts):
            cells = CellCounts(cells)
        ax, ay = (anchor[0] + anchor[2]) / 2, (anchor[1] + anchor[3]) / 2
        steps = int(math.ceil((reach + max(width, height)) / step))
        # Only the candidates whose box lies within the map's bounds: the search stays bounded by
        # the map, however long the words (a 3,000-character name took 51 s, quadratically).
        i_range = range(
            max(-steps, math.ceil((b[0] + width / 2 - ax) / step)),
            min(steps, math.floor((b[2] - width / 2 - ax) / step)) + 1,
        )
        j_range = range(
            max(-steps, math.ceil((b[1] + height / 2 - ay) / step)),
            min(steps, math.floor((b[3] - height / 2 - ay) / step)) + 1,
        )
        # Each column's and row's box edges, distance to the anchor and overlap with it, as
        # gap_between and intersects work them out for the whole box, and the board cells it
        # covers, as on_floor works them out.
        spans_x = [_span(ax + i * step, width, anchor[0], anchor[2]) + (i,) for i in i_range]
        spans_y = [_span(ay + j * step, height, anchor[1], anchor[3]) + (j,) for j in j_range]
        if not centre_ok:  # a row or column further than `reach` holds no candidate
            spans_x = [c for c in spans_x if c[3] <= reach]
            spans_y = [r for r in spans_y if r[3] <= reach]
        # Only the candidates on floor (or on `cells`) are kept: free() would refuse the others,
        # so leaving them out changes no choice (a tie's order is within its own candidates).
        # Each column's and row's part of the summed-area look-up is worked out once (holds(),
        # shared along the row and the column); a row or column off the table holds nothing.
        counts = cells if cells is not None else self.floor_counts
        sums = counts.sums
        columns = [c + o for c in spans_x if (o := self._columns_under(counts, c[0], c[1]))]
        rows = [r + o for r in spans_y if (o := self._rows_under(counts, r[0], r[1]))]
        near = []
        for x0, x1, cx, dx, x_over, i, left, right, wide in columns:
            for y0, y1, cy, dy, y_over, j, top, bottom, tall in rows:
                if x_over and y_over and not centre_ok:
                    continue  # over the anchor itself
                # counts.filled(), written out: this loop is most of placing a label
                if sums[bottom + right] - sums[top + right] - sums[bottom + left] + sums[top + left] != wide * tall:
                    continue
                gap = math.hypot(cx - ax, cy - ay) if centre_ok else math.hypot(dx, dy)
                if gap <= reach:
                    near.append((gap, j, i, cx, cy, (x0, y0, x1, y1)))
        # Nearest first, a gap rounded to 3 places making a tie (as before); each tie's candidates
        # in the reading order: below, right, above, left, then by row and column.
        near.sort(key=_first)
        start = 0
        while start < len(near):
            gap = round(near[start][0], 3)
            end = start + 1
            while end < len(near) and round(near[end][0], 3) == gap:
                end += 1
            tied = []
            for _raw, j, i, cx, cy, box in near[start:end]:
                angle = math.atan2(cy - ay, cx - ax)  # below (pi/2) first, then right, above, left
                tied.append((round((angle - math.pi / 2) % (2 * math.pi), 3), j, i, box))
            tied.sort(key=_three)
            start = end
            for _pref, _j, _i, box in tied:
                if not self.free(box, cells, clearance):
                    continue
                leader = not centre_ok and gap > s * 0.35
                if leader:
                    p, q = _nearest_points(anchor, box)
                    if not self.line_clear(p, q, owner, box):
                        continue
                return box, leader
        return None

    def find_in(
        self, cells: Iterable[Cell], centre: Point, width: float, height: float, *, clearance: float = 0.0
    ) -> tuple[Box, bool] | None:
        """A free box `width` x `height` over `cells` only, nearest `centre`: (box, False) or None.
        Candidates: each cell's middle and its quarter points."""
        s = self.s
        cells = list(cells)
        allowed = CellCounts(cells)
        filled = allowed.filled
        cx0, cy0 = centre
        # A candidate whose box is not over the cells is left out before sorting (free() would
        # refuse it): the cells under its box's columns and rows as on_floor finds them, once
        # for each of the few distinct centres along x and along y.
        across: dict[float, tuple[int, int, int] | None] = {}
        down: dict[float, tuple[int, int, int] | None] = {}
        candidates = []
        for cell in cells:
            x, y = self.cell_origin(cell)
            for fx in (0.5, 0.25, 0.75):
                cx = x + fx * s
                if cx not in across:
                    across[cx] = self._columns_under(allowed, cx - width / 2, cx + width / 2)
                column = across[cx]
                if column is None:
                    continue
                for fy in (0.5, 0.25, 0.75):
                    cy = y + fy * s
                    if cy not in down:
                        down[cy] = self._rows_under(allowed, cy - height / 2, cy + height / 2)
                    row = down[cy]
                    if row is not None and filled(column, row):
                        candidates.append((round(math.hypot(cx - cx0, cy - cy0), 3), cy, cx))
        candidates.sort()
        for _d, cy, cx in candidates:
            box = (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
            if self.free(box, allowed, clearance):
                return box, False
        return None


_first = itemgetter(0)
_three = itemgetter(0, 1, 2)


def _span(centre: float, size: float, low: float, high: float) -> tuple[float, float, float, float, bool]:
    """Along one axis, a candidate box of `size` centred on `centre` beside an anchor spanning low..high:
    its edges, its centre, its distance to the anchor and whether it overlaps it (as gap_between
    and intersects work them out)."""
    start, end = centre - size / 2, centre + size / 2
    return start, end, centre, max(0.0, start - high, low - end), start < high and low < end


def _nearest_points(a: Box, b: Box) -> tuple[Point, Point]:
    """The two nearest points of boxes a and b (for a leader line from a to b)."""

    def clamp(v: float, lo: float, hi: float) -> float:
        return max(lo, min(hi, v))

    bx, by = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    p = (clamp(bx, a[0], a[2]), clamp(by, a[1], a[3]))
    q = (clamp(p[0], b[0], b[2]), clamp(p[1], b[1], b[3]))
    return p, q


leader_points = _nearest_points
