"""The quest map as a display list, built once from a compiled quest (see questc.draw).

Drawn bottom to top, one layer each: floor (tinted by area), obstacles (fill and pattern), grid,
obstacle outlines, stairs, area borders, walls, doors, markers, figures, labels, frame (the
grid reference and the title). Every size is in points at the printed scale: `cell` points
per map square, and no text smaller than MIN_TEXT.

Words on the map:
  - a figure's name is printed on its token, one text size for every token of one size; when
    the monster names do not fit a token of that size at MIN_TEXT, every such token carries a
    short code instead (Ko: kobold), and a named monster whose name does not fit carries a key
    number; the legend lists codes and numbers;
  - doors, encounters, relics and stairs get their name on a label placed beside them
    (questc.draw.labels), never over a wall, a door, a symbol or another label, with a leader
    line when it had to move away, or a key number when there was no room;
  - obstacles are named by the legend; a label names them on the map only where it fits beside;
  - each area's letter stands on a badge inside the area, clear of everything else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from questc.draw import symbols as sym
from questc.draw.items import Box, Drawing, Group, Item, Layer, Line, Paint, Rect, Text
from questc.draw.labels import Grid, Placer, leader_points
from questc.draw.metrics import ASCENT, DESCENT, baseline_for_middle, shortened, text_width
from questc.draw.symbols import MIN_TEXT, Palette
from questc.model.quest import readable  # names for players: one rule for every output
from questc.records import record
from questc.words import count_range, plural

if TYPE_CHECKING:
    from collections.abc import Iterable

    from questc.catalog.model import ObstacleKind
    from questc.compiled import CompiledQuest
    from questc.model.quest import Figure, Marker, ObstacleModel

Cell = tuple[int, int]
Edge = tuple[int, int, int, int]

# Pieces named by their kind alone (`end cap`): a quest has few of them, and they carry no code.
SMALL_PIECES = ("end_cap", "extender", "transition", "entrance", "exit")
BADGE_WIDTH = 1.6  # an area's badge is at most this many squares wide

LAYERS = (
    "floor",
    "obstacles",
    "grid",
    "outlines",
    "stairs",
    "borders",
    "pieces",
    "walls",
    "doors",
    "markers",
    "figures",
    "labels",
    "frame",
)


@record
class LegendEntry:
    """One line of the legend: its words and what its symbol is (`what`: a tuple naming a symbol kind
    and its details, drawn by questc.draw.legend.symbol)."""

    label: str
    what: tuple[Any, ...]  # a symbol kind, then its details (a colour, an ObstacleKind...)


@record
class PlacedLabel:
    """A word on the map and where it went: its box (pill included), what it names, and how it got
    there (on: on its own token; badge: a player-count badge on its token; beside; leader: beside
    with a leader line; key: a key number; forced: an area's badge on a square of its area with
    no room around it; unplaced: an area badge with no square to stand on)."""

    text: str
    box: Box
    owner: str
    how: str
    size: float


@dataclass
class MapDrawing:
    """The map drawn: the display list and the geometry a caller needs to find cells in it.

    cell: points per map square; origin: the board's top-left cell; columns, rows: the board's
    size in cells; left, top: where the origin cell's top-left corner is (points).
    """

    drawing: Drawing
    cell: float
    origin: Cell
    columns: int
    rows: int
    left: float
    top: float
    legend: list[LegendEntry] = field(default_factory=list)
    labels: list[PlacedLabel] = field(default_factory=list)
    walls: list[Box] = field(default_factory=list)
    doors: list[tuple[Box, str]] = field(default_factory=list)  # (slab, owner "door:id")
    symbols: list[tuple[Box, str]] = field(default_factory=list)  # (box, owner): markers, figures, stairs
    text_sizes: dict[tuple[int, int], float] = field(default_factory=dict)  # token footprint -> its text size

    @property
    def width(self) -> float:
        return self.drawing.width

    @property
    def height(self) -> float:
        return self.drawing.height

    @property
    def grid(self) -> Grid:
        """Where the board's cells are in the drawing."""
        return Grid(self.left, self.top, self.origin, self.cell)

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A lattice point of the board (x, y) in; its position in the drawing out."""
        return self.grid.point(x, y)

    def cell_rect(self, cell: Cell) -> tuple[float, float, float, float]:
        """A board cell in; its square (x, y, width, height) in the drawing out."""
        x, y = self.point(*cell)
        return (x, y, self.cell, self.cell)

    def cell_at(self, x: float, y: float) -> Cell:
        """A point of the drawing in; the board cell under it out (it may be off the board)."""
        return self.grid.cell_at(x, y)


def _merge(edges: Iterable[Edge]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Unit edges (x0, y0, x1, y1) in; maximal straight runs ((x0, y0), (x1, y1)) out, sorted."""
    horizontal: dict[int, list[int]] = {}
    vertical: dict[int, list[int]] = {}
    for x0, y0, x1, y1 in edges:
        if y0 == y1:
            horizontal.setdefault(y0, []).append(min(x0, x1))
        else:
            vertical.setdefault(x0, []).append(min(y0, y1))
    runs = []
    for y, xs in sorted(horizontal.items()):
        for start, end in _runs(xs):
            runs.append(((start, y), (end, y)))
    for x, ys in sorted(vertical.items()):
        for start, end in _runs(ys):
            runs.append(((x, start), (x, end)))
    return runs


def _runs(starts: list[int]) -> list[tuple[int, int]]:
    """Unit steps' starting coordinates in; maximal runs (first, last + 1) out."""
    out: list[tuple[int, int]] = []
    for value in sorted(starts):
        if out and out[-1][1] == value:
            out[-1] = (out[-1][0], value + 1)
        else:
            out.append((value, value + 1))
    return out


def obstacle_groups(obstacles: Iterable[ObstacleModel]) -> list[tuple[ObstacleKind, list[Cell]]]:
    """Obstacles in; (kind, cells) for each 4-connected group of cells of one kind out, in a fixed order.

    Two `rubble at 2,3 2,4` cells make one rubble patch on the map: one outline, one label.
    """
    by_kind: dict[str, tuple[ObstacleKind, set[Cell]]] = {}
    for obstacle in obstacles:
        kind, cells = by_kind.setdefault(obstacle.kind.name, (obstacle.kind, set()))
        cells.update(obstacle.cells)
    groups = []
    for name in sorted(by_kind):
        kind, cells = by_kind[name]
        left = set(cells)
        while left:
            start = min(left, key=lambda c: (c[1], c[0]))
            group, todo = {start}, [start]
            left.discard(start)
            while todo:
                x, y = todo.pop()
                for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if nxt in left:
                        left.discard(nxt)
                        group.add(nxt)
                        todo.append(nxt)
            groups.append((kind, sorted(group)))
    groups.sort(key=lambda g: (min(g[1], key=lambda c: (c[1], c[0]))[::-1], g[0].name))
    return groups


def _codes(names: list[str]) -> dict[str, str]:
    """Monster names in; a short code for each out (kobold -> Ko, ferrox -> Fe), unique among them."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(set(names)):
        letters = [c for c in name if c.isalpha()]
        words = name.split()
        tries = []
        if len(words) > 1:
            tries.append((words[0][0] + words[1][0]).upper())
        tries += [(letters[0].upper() + letters[k]) for k in range(1, len(letters))]
        tries += [(letters[0].upper() + letters[1] + letters[k]) for k in range(2, len(letters))]
        code = next((t for t in tries if t not in taken), None)
        n = 2
        while code is None or code in taken:
            code = f"{letters[0].upper() if letters else 'M'}{n}"
            n += 1
        taken.add(code)
        out[name] = code
    return out


def _fit_lines(text: str, width: float, height: float, size: float, weight: str, most: int = 3) -> list[str] | None:
    """Words in; their lines (at most `most`) if they fit `width` x `height` at `size`, else None."""
    words = text.split()
    if not words:
        return []
    for count in range(1, min(most, len(words)) + 1):
        per = math.ceil(len(words) / count)
        lines = [" ".join(words[i : i + per]) for i in range(0, len(words), per)]
        if max(text_width(line, size, weight) for line in lines) <= width and len(lines) * size * 1.1 <= height:
            return lines
    return None


def _best_size(texts: list[str], width: float, height: float, cap: float, weight: str) -> float:
    """The largest size, at most `cap`, at which every text fits the box (wrapped); 0 if none fits at MIN_TEXT."""
    size = cap
    while size >= MIN_TEXT:
        if all(_fit_lines(t, width, height, size, weight) is not None for t in texts):
            return size
        size = round(size - 0.25, 2)
    return 0.0


@record
class Frame:
    """The map's frame at a scale: where the board starts (left, top), the drawing's size, and the
    grid reference's and title's text sizes."""

    left: float
    top: float
    width: float
    height: float
    grid_size: float
    grid_gap: float
    title_size: float


def frame(columns: int, rows: int, origin: Cell, s: float, title: bool) -> Frame:
    """A board's size in cells and a scale in; the frame around it out (cheap: no drawing)."""
    grid_size = max(MIN_TEXT, min(s * 0.2, 10.0))
    digits = max(len(str(origin[0] + columns - 1)), len(str(origin[1] + rows - 1)), 1)
    grid_gap = grid_size * 0.9 + s * 0.06
    side = text_width("8" * digits, grid_size) + grid_gap + s * 0.1
    top = grid_size * 1.2 + grid_gap
    title_size = max(12.0, s * 0.36)
    title_h = title_size * 1.7 if title else 0.0
    left = round(side, 2)
    return Frame(
        left,
        round(title_h + top, 2),
        round(left * 2 + columns * s, 2),
        round(title_h + top * 2 + rows * s, 2),
        grid_size,
        grid_gap,
        title_size,
    )


def fit_cell(
    columns: int, rows: int, origin: Cell, width: float, height: float, title: bool = False, largest: float = 36.0
) -> float:
    """The largest scale (points per square, at most `largest`, in steps of 0.05) at which the map's
    frame fits `width` x `height` points."""
    lo, hi = 1.0, largest
    if _fits(columns, rows, origin, hi, width, height, title):
        return hi
    for _ in range(40):
        mid = (lo + hi) / 2
        if _fits(columns, rows, origin, mid, width, height, title):
            lo = mid
        else:
            hi = mid
    return math.floor(lo * 20) / 20


def _fits(columns: int, rows: int, origin: Cell, s: float, width: float, height: float, title: bool) -> bool:
    f = frame(columns, rows, origin, s, title)
    return f.width <= width and f.height <= height


class _Builder:
    def __init__(
        self, quest: CompiledQuest, cell: float, title: bool, palette: Palette | None = None, pieces: bool | None = None
    ) -> None:
        self.model = quest.model
        # the map pieces' outlines and names: as the edition draws its maps, unless asked
        self.show_pieces = quest.model.edition.map_pieces if pieces is None else pieces
        self.qb = quest.quest_board
        self.board = quest.board
        self.p = palette or Palette()
        self.s = float(cell)
        self.show_title = title
        self.layers = {name: Layer(name) for name in LAYERS}
        self.legend: list[LegendEntry] = []
        self.keys: list[LegendEntry] = []  # numbered keys and codes, listed after the symbols
        self.labels: list[PlacedLabel] = []
        self.walls: list[Box] = []
        self.door_boxes: list[tuple[Box, str]] = []
        self.symbol_boxes: list[tuple[Box, str]] = []
        self.text_sizes: dict[tuple[int, int], float] = {}
        self.area_keys: dict[str, str] = {}  # area id -> what its badge says instead (a name too long)
        self.badges_drawn: set[tuple[int, int]] = set()  # the player counts whose badge stands on a token
        self.rings = False  # a token too small for its badge: a dashed ring

    # geometry ------------------------------------------------------------------------
    def _layout(self) -> None:
        f = frame(self.board.width, self.board.height, self.board.origin, self.s, self.show_title)
        self.grid_size, self.grid_gap, self.title_size = f.grid_size, f.grid_gap, f.title_size
        self.left, self.top, self.width, self.height = f.left, f.top, f.width, f.height
        self.grid = Grid(self.left, self.top, self.board.origin, self.s)

    def point(self, x: float, y: float) -> tuple[float, float]:
        return self.grid.point(x, y)

    def cell_box(self, cell: Cell) -> Box:
        x, y = self.point(*cell)
        return (x, y, x + self.s, y + self.s)

    # what the map holds ------------------------------------------------------------------
    def _collect(self) -> None:
        model = self.model
        self.area_ids = list(model.areas)
        self.area_of: dict[Cell, str] = {}
        for area in model.areas.values():
            for cell in sorted(area.cells):
                self.area_of.setdefault(cell, area.id)
        self.tint = self._tints()
        self.groups = obstacle_groups(model.obstacles)
        self.figure_cells = {c for f in model.figures for c in f.cells}
        self.border_edges = self._border_edges()

    def _tints(self) -> dict[str, str]:
        """Area id -> floor tint: greedy colouring in source order, so two areas that touch
        (side by side, through a door or by stairs) never share a tint while the palette allows it."""
        palette = [sym._hex(c) for c in self.p.colours["floor"]]
        touching: dict[str, set[str]] = {a: set() for a in self.area_ids}
        for (x, y), area in self.area_of.items():
            for other in ((x + 1, y), (x, y + 1)):
                neighbour = self.area_of.get(other)
                if neighbour is not None and neighbour != area:
                    touching[area].add(neighbour)
                    touching[neighbour].add(area)
        for stairs in self.board.stairs:
            a, b = (self.area_of.get(end) for end in stairs.ends)
            if a and b and a != b:
                touching[a].add(b)
                touching[b].add(a)
        chosen: dict[str, int] = {}
        for index, area in enumerate(self.area_ids):
            taken = {chosen[n] for n in touching[area] if n in chosen}
            free = [k for k in range(len(palette)) if k not in taken]
            counts = {k: list(chosen.values()).count(k) for k in free}
            chosen[area] = min(free, key=lambda k: (counts[k], k)) if free else index % len(palette)
        return {area: palette[k] for area, k in chosen.items()}

    def _border_edges(self) -> list[Edge]:
        """Edges between floor cells of two areas where no wall or door stands: the area borders."""
        floor = set(self.board.cells)
        doors = {e for edges in self.qb.door_edges.values() for e in edges}
        out = []
        for x, y in self.board.cells:
            for other, edge in (((x + 1, y), (x + 1, y, x + 1, y + 1)), ((x, y + 1), (x, y + 1, x + 1, y + 1))):
                if (
                    other in floor
                    and self.area_of.get((x, y)) != self.area_of.get(other)
                    and edge not in self.board.walls
                    and edge not in doors
                ):
                    out.append(edge)
        return out

    # drawing --------------------------------------------------------------------------
    def build(self) -> MapDrawing:
        self._collect()
        self._layout()
        self.placer = Placer(
            self.grid,
            set(self.board.cells),
            (self.left, self.top, self.left + self.board.width * self.s, self.top + self.board.height * self.s),
        )
        self._floor()
        self._obstacles()
        self._grid()
        self._stairs()
        self._borders()
        self._pieces()
        self._walls()
        self._doors()
        self._edges()
        self._markers()
        self._figures()
        self._area_badges()
        self._piece_labels()
        self._named_labels()
        self._frame()
        self._legend_entries()
        drawing = Drawing(
            self.width,
            self.height,
            [self.layers[name] for name in LAYERS],
            background=self.p.c("background"),
            title=self.model.title,
            description=self.description(),
        )
        return MapDrawing(
            drawing,
            self.s,
            self.board.origin,
            self.board.width,
            self.board.height,
            self.left,
            self.top,
            legend=self.legend + self.keys,
            labels=self.labels,
            walls=self.walls,
            doors=self.door_boxes,
            symbols=self.symbol_boxes,
            text_sizes=self.text_sizes,
        )

    def description(self) -> str:
        """The map in words (the PDF's alt text): its areas, in order, and what joins them."""
        parts = []
        for area in self.model.areas.values():
            parts.append(f"area {area.id}, {area.name}{' (start)' if area.start else ''}")
        doors = len(self.board.doors)
        stairs = len(self.board.stairs)
        text = f"Map of {self.model.title}, {self.board.width} by {self.board.height} squares: " + "; ".join(parts)

        extras = []
        if doors:
            extras.append(plural(doors, "door"))
        if stairs:
            extras.append(plural(stairs, "staircase"))
        return text + (". " + " and ".join(extras).capitalize() + "." if extras else ".")

    def _floor(self) -> None:
        s = self.s
        for cell in self.board.cells:
            x, y = self.point(*cell)
            area = self.area_of.get(cell)
            attrs: tuple[tuple[str, str], ...] = (("cell", f"{cell[0]},{cell[1]}"),)
            if area:
                attrs += (("area", area),)
            self.layers["floor"].add(
                Group("cell", (Rect(x, y, s, s, Paint(fill=self.tint.get(area or "", self.p.c("background")))),), attrs)
            )

    def _obstacles(self) -> None:
        s = self.s
        for obstacle in self.model.obstacles:
            for cell in obstacle.cells:
                x, y = self.point(*cell)
                self.layers["obstacles"].add(
                    Group(
                        "obstacle",
                        tuple(sym.obstacle_cell(self.p, x, y, s, obstacle.kind)),
                        (("cell", f"{cell[0]},{cell[1]}"), ("obstacle", obstacle.kind.name)),
                    )
                )
                self.placer.block(self.cell_box(cell), "symbol", f"obstacle:{obstacle.kind.name}")
        for kind, cells in self.groups:
            style = self.p.obstacle(kind)
            cellset = set(cells)
            items = []
            for x, y in cells:
                for (nx, ny), a, b in (
                    ((x, y - 1), (x, y), (x + 1, y)),
                    ((x, y + 1), (x, y + 1), (x + 1, y + 1)),
                    ((x - 1, y), (x, y), (x, y + 1)),
                    ((x + 1, y), (x + 1, y), (x + 1, y + 1)),
                ):
                    if (nx, ny) in cellset:
                        continue
                    width = self.s * (0.05 if kind.trap else (0.06 if kind.wall_like else 0.03))
                    # pulled inside the group so it never hides a wall
                    inset = width / 2 + self.s * 0.01
                    dx = 0 if nx == x else (inset if nx < x else -inset)
                    dy = 0 if ny == y else (inset if ny < y else -inset)
                    pa, pb = self.point(*a), self.point(*b)
                    paint = (
                        Paint(stroke=self.p.c("trap_border"), width=width, dash=(self.s * 0.16, self.s * 0.08))
                        if kind.trap
                        else Paint(stroke=sym._hex(style.get("ink")), width=width)
                    )
                    items.append(Line(((pa[0] + dx, pa[1] + dy), (pb[0] + dx, pb[1] + dy)), paint))
            self.layers["outlines"].add(Group("obstacle-outline", tuple(items), (("obstacle", kind.name),)))
        for obstacle in self.model.obstacles:
            if obstacle.facing:
                cx = sum(c[0] for c in obstacle.cells) / len(obstacle.cells) + 0.5
                cy = sum(c[1] for c in obstacle.cells) / len(obstacle.cells) + 0.5
                px, py = self.point(cx, cy)
                self.layers["outlines"].add(*sym.arrow(px, py, self.s, obstacle.facing, self.p.c("trap_border")))

    def _grid(self) -> None:
        floor = set(self.board.cells)
        edges = []
        for x, y in self.board.cells:
            if (x + 1, y) in floor:
                edges.append((x + 1, y, x + 1, y + 1))
            if (x, y + 1) in floor:
                edges.append((x, y + 1, x + 1, y + 1))

        paint = Paint(stroke=self.p.c("grid"), width=max(0.2, self.s / 80))
        for a, b in _merge(edges):
            self.layers["grid"].add(Line((self.point(*a), self.point(*b)), paint))

    def _stairs(self) -> None:
        for stairs in self.board.stairs:
            for end in stairs.ends:
                x, y = self.point(*end)
                self.layers["stairs"].add(
                    Group(
                        "stairs",
                        tuple(sym.stairs(self.p, x, y, self.s, stairs.colour)),
                        (("cell", f"{end[0]},{end[1]}"), ("stairs", stairs.colour)),
                    )
                )
                m = self.s * 0.08
                self.placer.block((x + m, y + m, x + self.s - m, y + self.s - m), "symbol", f"stairs:{stairs.colour}")
                self.symbol_boxes.append(((x + m, y + m, x + self.s - m, y + self.s - m), f"stairs:{stairs.colour}"))

    def _borders(self) -> None:

        paint = Paint(stroke=self.p.c("area_border"), width=self.s * 0.05, dash=(self.s * 0.18, self.s * 0.1))
        for a, b in _merge(self.border_edges):
            self.layers["borders"].add(Line((self.point(*a), self.point(*b)), paint))

    def _pieces(self) -> None:
        """Each map piece's outline, where it meets another piece or the outside: the tiles a group
        lays on the table (or cuts out of a print-and-play map)."""
        self.piece_boxes: dict[str, list[Cell]] = {}
        if not self.show_pieces:
            return
        width = max(0.6, self.s * 0.04)
        paint = Paint(stroke=self.p.c("piece"), width=width)
        for piece in self.model.pieces.values():
            if piece is None:
                continue
            cells = set(piece.shape.cells)
            self.piece_boxes[piece.id] = sorted(cells)
            edges = []
            for x, y in cells:
                for (nx, ny), edge in (
                    ((x, y - 1), (x, y, x + 1, y)),
                    ((x, y + 1), (x, y + 1, x + 1, y + 1)),
                    ((x - 1, y), (x, y, x, y + 1)),
                    ((x + 1, y), (x + 1, y, x + 1, y + 1)),
                ):
                    if (nx, ny) not in cells:
                        edges.append(edge)
            # drawn a little inside the piece, so two pieces side by side show two lines: two tiles
            inset = width * 0.9
            lines = []
            for a, b in _merge(edges):
                (x0, y0), (x1, y1) = self.point(*a), self.point(*b)
                if y0 == y1:  # horizontal: the piece lies below or above it
                    below = (a[0], a[1]) in cells
                    dy = inset if below else -inset
                    lines.append(Line(((x0, y0 + dy), (x1, y1 + dy)), paint))
                else:
                    right = (a[0], a[1]) in cells
                    dx = inset if right else -inset
                    lines.append(Line(((x0 + dx, y0), (x1 + dx, y1)), paint))
            self.layers["pieces"].add(Group("piece", tuple(lines), (("piece", piece.id),)))

    def _piece_labels(self) -> None:
        """Each piece's name where a player finds a tile's code: in its corner nearest the top left,
        on free floor of the piece (a second edition tile's printed code, `22A`; else the piece's
        id and type, `R1 room 6×6`); with no room there, a key number the legend names."""
        if not self.show_pieces:
            return
        size = max(MIN_TEXT, min(self.s * 0.2, 10.0))
        for piece in self.model.pieces.values():
            if piece is None:
                continue
            text = piece.type.tile or (
                piece_words(piece.type.name)
                if piece.type.kind in SMALL_PIECES
                else f"{piece.id} {piece_words(piece.type.name)}"
            )
            cells = self.piece_boxes[piece.id]
            corner = min(cells, key=lambda c: (c[0] + c[1], c[1], c[0]))
            w, h = self._pill(text, size)
            owner = f"piece:{piece.id}"
            found = self.placer.find_in(
                cells, self.point(corner[0] + 0.5, corner[1] + 0.5), w, h, clearance=self.s * 0.03
            )
            if found is None:
                x, y = self.point(*corner)
                self._place_label(
                    text, (x, y, x + self.s, y + self.s), owner, required=True, legend_words=f"{text} (map piece)"
                )
                continue
            box = found[0]
            self.layers["labels"].add(Group("label", tuple(self._piece_pill(text, size, box)), (("for", owner),)))
            self.placer.block(box, "label", owner)
            self.labels.append(PlacedLabel(text, box, owner, "on", size))

    def _piece_pill(self, text: str, size: float, box: Box) -> list:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        ink = self.p.c("piece")
        return [
            Rect(box[0], box[1], box[2] - box[0], box[3] - box[1], Paint(fill=ink), radius=size * 0.2),
            Text(cx, baseline_for_middle(cy, size), text, size, "#ffffff", "bold"),
        ]

    def _walls(self) -> None:
        width = max(1.2, self.s * 0.09)
        h = width / 2
        self.wall_half = h
        wall = self.p.c("wall")
        for a, b in _merge(self.board.walls):
            (x0, y0), (x1, y1) = self.point(*a), self.point(*b)
            box = (min(x0, x1) - h, min(y0, y1) - h, max(x0, x1) + h, max(y0, y1) + h)
            self.layers["walls"].add(Rect(box[0], box[1], box[2] - box[0], box[3] - box[1], Paint(fill=wall)))
            self.walls.append(box)
            self.placer.block(box, "wall")

    def _doors(self) -> None:
        self.door_at: dict[str, Box] = {}
        for door_id, edges in sorted(self.qb.door_edges.items()):
            door = self.board.doors.get(door_id)
            xs = [v for e in edges for v in (e[0], e[2])]
            ys = [v for e in edges for v in (e[1], e[3])]
            a, b = self.point(min(xs), min(ys)), self.point(max(xs), max(ys))
            items, box = sym.door(self.p, a, b, self.s, door.rune if door else None)
            self.layers["doors"].add(Group("door", tuple(items), (("door", door_id),)))
            self.door_at[door_id] = box
            self.door_boxes.append((box, f"door:{door_id}"))
            self.placer.block(box, "door", f"door:{door_id}")

    def _edges(self) -> None:
        """The edge spaces of entrance and exit pieces (second edition): where figures leave the map."""
        self.edge_kinds: set[str] = set()
        for piece in self.model.pieces.values():
            if piece is None or not piece.shape.edge:
                continue
            self.edge_kinds.add(piece.type.kind)
            # Figures leave across the side facing away from the piece's connections.
            facing = {o.side for o in piece.shape.openings}
            away = {"north": "south", "south": "north", "east": "west", "west": "east"}
            sides = {away[side] for side in facing} or {"north", "south", "east", "west"}
            for cell in sorted(piece.shape.edge):
                x, y = cell
                for outward, (dx, dy), a, b in (
                    ("north", (0, -1), (x, y), (x + 1, y)),
                    ("south", (0, 1), (x, y + 1), (x + 1, y + 1)),
                    ("west", (-1, 0), (x, y), (x, y + 1)),
                    ("east", (1, 0), (x + 1, y), (x + 1, y + 1)),
                ):
                    if outward not in sides or self.board.is_floor((x + dx, y + dy)):
                        continue
                    items = sym.edge_mark(self.p, self.point(*a), self.point(*b), self.s, outward, piece.type.kind)
                    self.layers["doors"].add(
                        Group("edge", tuple(items), (("cell", f"{x},{y}"), ("edge", piece.type.kind)))
                    )

    def _markers(self) -> None:
        s = self.s
        self.marker_box: dict[int, Box] = {}
        for index, marker in enumerate(self.model.markers):
            x, y = self.point(*marker.at)
            if marker.at in self.figure_cells:  # small, in a corner, so both show
                cx, cy, r = x + s * 0.8, y + s * 0.8, s * 0.15
            else:
                cx, cy, r = x + s / 2, y + s / 2, s * 0.3
            attrs: tuple[tuple[str, str], ...] = (("cell", f"{marker.at[0]},{marker.at[1]}"), ("marker", marker.kind))
            if marker.kind == "encounter" and marker.encounter:
                attrs += (("encounter", marker.encounter),)
            self.layers["markers"].add(Group("marker", tuple(sym.marker(self.p, marker, cx, cy, r)), attrs))
            box = (cx - r, cy - r, cx + r, cy + r)
            self.marker_box[index] = box
            self.symbol_boxes.append((box, f"marker:{index}"))
            if marker.at not in self.figure_cells:
                self.placer.block(box, "symbol", f"marker:{index}")

    # figures and their words ------------------------------------------------------------
    def _figures(self) -> None:
        s, model = self.s, self.model
        by_size: dict[tuple[int, int], list[Figure]] = {}
        placed = []
        for figure in model.figures:
            xs = [c[0] for c in figure.cells]
            ys = [c[1] for c in figure.cells]
            top_left = (min(xs), min(ys))
            footprint = (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
            placed.append((figure, top_left, footprint))
            by_size.setdefault(footprint, []).append(figure)
        self.codes: dict[str, str] = {}
        self.named_keys: dict[str, str] = {}
        badge_size = max(MIN_TEXT, min(s * 0.15, 8.0))
        plans: dict[tuple[int, int], tuple[float, bool, float, float]] = {}
        for footprint, figures in sorted(by_size.items()):
            x0, y0, x1, y1 = sym.figure_shape(0, 0, s, footprint)
            one = footprint == (1, 1)
            inner_w = (x1 - x0) * (0.82 if one else 0.88)
            inner_h = (y1 - y0) * (0.7 if one else 0.8)
            if any(f.players for f in figures):
                inner_h -= badge_size * 1.2  # room for the player-count badge
            cap = max(MIN_TEXT, s * (0.2 if one else 0.3))
            monsters = sorted({readable(f.type.name) for f in figures if f.rank != "named"})
            size = _best_size(monsters, inner_w, inner_h, cap, "bold") if monsters else cap
            coded = size == 0.0
            if coded:  # the names do not fit: codes, at the size the codes fit
                codes = _codes([readable(f.type.name) for f in figures if f.rank != "named"])
                self.codes.update(codes)
                size = max(MIN_TEXT, _best_size(sorted(codes.values()), inner_w, inner_h, cap, "bold"))
            if not monsters:
                size = max(
                    MIN_TEXT,
                    min(
                        cap,
                        _best_size([self._named_name(f) for f in figures], inner_w, inner_h, cap, "bold") or MIN_TEXT,
                    ),
                )
            plans[footprint] = (size, coded, inner_w, inner_h)
            self.text_sizes[footprint] = size
        for figure, top_left, footprint in placed:
            x, y = self.point(*top_left)
            size, coded, inner_w, inner_h = plans[footprint]
            items = list(sym.figure(self.p, x, y, s, figure.rank, footprint))
            _fill, _ring, ink = sym.figure_colours(self.p, figure.rank)
            shape = sym.figure_shape(x, y, s, footprint)
            cx, cy = (shape[0] + shape[2]) / 2, (shape[1] + shape[3]) / 2
            owner = f"figure:{top_left[0]},{top_left[1]}"
            if figure.rank == "named" and figure.named is not None:
                name = self._named_name(figure)
                lines = _fit_lines(name, inner_w, inner_h, size, "bold")
                if lines is None:
                    number = self._key(f"{name} ({readable(figure.type.name)}, named)", ("key",))
                    self.named_keys[figure.named] = number
                    lines = [number]
                shown, how = " ".join(lines), "on"  # the name, or its key number, on its own token
            else:
                monster = readable(figure.type.name)
                lines = [self.codes[monster]] if coded else _fit_lines(monster, inner_w, inner_h, size, "bold")
                lines = lines or [monster]
                shown, how = " ".join(lines), "on"
            badge = self.p.word("players", players=count_range(figure.players)) if figure.players else None
            room = footprint[1] * s - 2 * (self.wall_half + s * 0.02)
            text_h = len(lines) * size * 1.1
            if badge and (
                text_h + badge_size * 1.3 > room
                or text_width(badge, badge_size) + badge_size * 0.6 > shape[2] - shape[0]
            ):
                # No room on the token for both: a badge beside it would stand on a square's corner,
                # unclear whose it is. The token gets a dashed ring instead; the area's list on the
                # sheet says which player counts it is for.
                badge = None
                self.rings = True
                items += sym.conditional_ring(self.p, shape, s, footprint)
            block_h = text_h + (badge_size * 1.3 if badge else 0)
            top = cy - block_h / 2
            for k, line in enumerate(lines):
                baseline = top + size * (k * 1.1 + 0.55) + size * sym.metrics_cap_half()
                items.append(Text(cx, baseline, line, size, ink, "bold"))
            widest = max(text_width(line, size, "bold") for line in lines)
            first = top + size * 0.55 + size * sym.metrics_cap_half()
            last = first + (len(lines) - 1) * size * 1.1
            text_box = (cx - widest / 2, first - ASCENT * size, cx + widest / 2, last + DESCENT * size)
            self.labels.append(PlacedLabel(shown, text_box, owner, how, size))
            if badge:
                badge_items, badge_box = sym.players_badge(
                    self.p, cx, top + text_h + badge_size * 0.7, badge, badge_size
                )
                items += badge_items
                self.labels.append(PlacedLabel(badge, badge_box, owner, "badge", badge_size))
                assert figure.players is not None
                self.badges_drawn.add(figure.players)
            attrs: tuple[tuple[str, str], ...] = (
                ("cell", f"{figure.at[0]},{figure.at[1]}"),
                ("figure", figure.type.name),
                ("rank", figure.rank),
            )
            if figure.named:
                attrs += (("named", figure.named),)
            if figure.players:
                attrs += (("players", count_range(figure.players)),)
            self.layers["figures"].add(Group("figure", tuple(items), attrs))
            self.symbol_boxes.append((shape, owner))
            for cell in figure.cells:
                self.placer.block(self.cell_box(cell), "symbol", owner)
        # markers under figures (small, in a corner) are part of the figure's cell: nothing to place

    def _named_name(self, figure: Figure) -> str:
        named = self.model.named.get(figure.named) if figure.named else None
        return named.display if named else readable(figure.named or figure.type.name)

    def _key(self, words: str, what: tuple[Any, ...]) -> str:
        number = str(len([k for k in self.keys if k.what[0] == "key"]) + 1)
        self.keys.append(LegendEntry(_legend_words(words), ("key", number)))
        return number

    # labels beside things ------------------------------------------------------------------
    def _label_size(self) -> float:
        return max(MIN_TEXT, min(self.s * 0.15, 9.0))

    def _pill(self, text: str, size: float) -> tuple[float, float]:
        pad_x, pad_y = size * 0.3, size * 0.14
        w = text_width(text, size) + 2 * pad_x
        h = (ASCENT + DESCENT) * size + 2 * pad_y
        return w, h

    def _place_label(self, text: str, anchor: Box, owner: str, *, required: bool, legend_words: str) -> None:
        size = self._label_size()
        w, h = self._pill(text, size)
        # Squares smaller than the smallest words (the widest maps): nothing fits beside a thing,
        # and searching for room, label by label, took minutes on the largest map lint accepts.
        tiny = self.s < MIN_TEXT
        found = (
            None if tiny else self.placer.find(anchor, w, h, owner=owner, reach=self.s * 1.6, clearance=self.s * 0.03)
        )
        if found is not None:
            box, leader = found
            items: list[Item] = []
            if leader:
                p, q = leader_points(anchor, box)
                items.append(Line((p, q), Paint(stroke=self.p.c("text"), width=max(0.4, self.s * 0.02))))
            items += self._pill_items(text, size, box)
            self.layers["labels"].add(Group("label", tuple(items), (("for", owner),)))
            self.placer.block(box, "label", owner)
            self.labels.append(PlacedLabel(text, box, owner, "leader" if leader else "beside", size))
            return
        if not required:
            return
        number = self._key(legend_words, ("key",))
        items, box = sym.key_badge(self.p, 0, 0, number, size)
        bw, bh = box[2] - box[0], box[3] - box[1]
        spot = (
            None if tiny else self.placer.find(anchor, bw, bh, owner=owner, reach=self.s * 1.2, clearance=self.s * 0.02)
        )
        if spot is not None:
            box, leader = spot
        else:  # no room even for a number beside it: the number stands on its own thing
            ax, ay = (anchor[0] + anchor[2]) / 2, (anchor[1] + anchor[3]) / 2
            box = (ax - bw / 2, ay - bh / 2, ax + bw / 2, ay + bh / 2)
            leader = False
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        items, box = sym.key_badge(self.p, cx, cy, number, size)
        if leader:
            p, q = leader_points(anchor, box)
            items = [Line((p, q), Paint(stroke=self.p.c("text"), width=max(0.4, self.s * 0.02)))] + items
        self.layers["labels"].add(Group("label", tuple(items), (("for", owner), ("key", number))))
        self.placer.block(box, "label", owner)
        self.labels.append(PlacedLabel(number, box, owner, "key", size))

    def _pill_items(self, text: str, size: float, box: Box) -> list[Item]:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return [
            Rect(
                box[0],
                box[1],
                box[2] - box[0],
                box[3] - box[1],
                Paint(fill=self.p.c("label_background"), stroke=self.p.c("grid"), width=max(0.3, size * 0.04)),
                radius=(box[3] - box[1]) / 2,
            ),
            Text(cx, baseline_for_middle(cy, size), text, size, self.p.c("text")),
        ]

    def _area_badges(self) -> None:
        """Each area's name on a badge of bounded size (at most BADGE_WIDTH squares wide; a name too
        long for it at the smallest words gets a key number, which the legend names): on free floor
        of the area nearest its middle, else beside the area with a leader line, else on a square of
        the area where no figure or marker stands. A badge never covers a figure or a token."""
        s = self.s
        for area in self.model.areas.values():
            cells = sorted(c for c in area.cells if self.board.is_floor(c))
            if not cells:
                continue
            text, size, width, height = self._badge_size(area.id)
            if text != area.id:
                self.area_keys[area.id] = text
            mx = sum(c[0] for c in cells) / len(cells) + 0.5
            my = sum(c[1] for c in cells) / len(cells) + 0.5
            px, py = self.point(mx, my)
            owner = f"area:{area.id}"
            how, leader = "on", False
            found = self.placer.find_in(cells, (px, py), width, height, clearance=s * 0.03)
            if found is None:
                middle = min(cells, key=lambda c: ((c[0] + 0.5 - mx) ** 2 + (c[1] + 0.5 - my) ** 2, c[1], c[0]))
                found = self.placer.find(
                    self.cell_box(middle), width, height, owner=owner, reach=s * 1.6, clearance=s * 0.02
                )
                # outside its area: a leader line always says whose it is
                how, leader = "leader", found is not None
                anchor = self.cell_box(middle)
            if found is None:
                # No free room: the middlemost square of the area that holds no figure or marker.
                taken = {self.grid.cell_at((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b, _owner in self.symbol_boxes}
                free = [c for c in cells if c not in self.figure_cells and c not in taken]
                if not free:
                    self.labels.append(PlacedLabel(text, (px, py, px, py), owner, "unplaced", size))
                    continue
                best = min(free, key=lambda c: ((c[0] + 0.5 - mx) ** 2 + (c[1] + 0.5 - my) ** 2, c[1], c[0]))
                x, y = self.point(best[0] + 0.5, best[1] + 0.5)
                found, how = ((x - width / 2, y - height / 2, x + width / 2, y + height / 2), False), "forced"
            box = found[0]
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            items = list(sym.area_badge(self.p, cx, cy, height / 2, text, size, width))
            if leader:
                p, q = leader_points(
                    (anchor[0] + s * 0.3, anchor[1] + s * 0.3, anchor[2] - s * 0.3, anchor[3] - s * 0.3), box
                )
                items.insert(0, Line((p, q), Paint(stroke=self.p.c("area_border"), width=max(0.5, s * 0.03))))
            self.layers["labels"].add(Group("area", tuple(items), (("area", area.id),)))
            self.placer.block(box, "label", owner)
            self.labels.append(PlacedLabel(text, box, owner, how, size))

    def _badge_size(self, name: str) -> tuple[str, float, float, float]:
        """An area's id in; what its badge says (the id, or a key number when the id cannot fit),
        the text size, the badge's width and height (points) out."""
        s = self.s
        limit = s * BADGE_WIDTH
        size = max(MIN_TEXT, min(s * 0.34, 14.0))

        def box(text: str, size: float) -> tuple[float, float]:
            height = max(s * 0.6, size * 1.24)
            return max(height, text_width(text, size, "bold") * 1.1 + size * 0.5), height

        while size > MIN_TEXT and box(name, size)[0] > limit:
            size = max(MIN_TEXT, round(size - 0.25, 2))
        if box(name, size)[0] > limit:
            name = f"#{len(self.area_keys) + 1}"
        return (name, size) + box(name, size)

    def _named_labels(self) -> None:
        """Doors, encounters, relics, stairs and obstacles: their names beside them."""
        model = self.model
        for door_id, box in self.door_at.items():
            name = self.door_name(door_id)
            self._place_label(name, box, f"door:{door_id}", required=True, legend_words=f"{name} (door)")
        for index, marker in enumerate(model.markers):
            if marker.kind == "encounter" and marker.encounter:
                name = self.encounter_name(marker.encounter)
                self._place_label(
                    name, self.marker_box[index], f"marker:{index}", required=True, legend_words=f"{name} (encounter)"
                )
            elif marker.kind == "relic" and marker.variant:
                name = self.relic_name(marker)
                self._place_label(
                    name, self.marker_box[index], f"marker:{index}", required=True, legend_words=f"{name} (relic)"
                )
            elif marker.kind == "lieutenant" and marker.variant:
                name = readable(marker.variant).title()
                self._place_label(
                    name, self.marker_box[index], f"marker:{index}", required=True, legend_words=f"{name} (lieutenant)"
                )
        for stairs in self.board.stairs:
            name = self.stairs_name(stairs)
            for end in stairs.ends:
                m = self.s * 0.08
                x, y = self.point(*end)
                self._place_label(
                    name,
                    (x + m, y + m, x + self.s - m, y + self.s - m),
                    f"stairs:{stairs.colour}",
                    required=True,
                    legend_words=f"{name} (stairs)",
                )
        for kind, cells in self.groups:
            label = str(self.p.obstacle(kind).get("label", readable(kind.name)))
            xs = [self.point(*c) for c in cells]
            box = (
                min(p[0] for p in xs),
                min(p[1] for p in xs),
                max(p[0] for p in xs) + self.s,
                max(p[1] for p in xs) + self.s,
            )
            self._place_label(label, box, f"obstacle:{kind.name}", required=False, legend_words=label)

    # names for players (stage: display names) ------------------------------------------------
    def door_name(self, door_id: str) -> str:
        door = self.model.doors.get(door_id)
        return door.display if door is not None else readable(door_id)

    def encounter_name(self, encounter_id: str) -> str:
        encounter = self.model.encounters.get(encounter_id)
        return encounter.display if encounter is not None else readable(encounter_id)

    def relic_name(self, marker: Marker) -> str:
        return marker.display or readable(marker.variant or marker.kind)

    def stairs_name(self, stairs) -> str:  # (the board's Stairs: draw reads it through the compiled quest)
        model = next((s for s in self.model.stairs if s.colour == stairs.colour), None)
        return model.display if model is not None else f"{readable(stairs.colour)} stairs"

    # frame ------------------------------------------------------------------------------------
    def _frame(self) -> None:
        layer = self.layers["frame"]
        ink = self.p.c("faint_text")
        size = self.grid_size
        ox, oy = self.board.origin
        top, bottom = self.top, self.top + self.board.height * self.s
        left, right = self.left, self.left + self.board.width * self.s
        for i in range(self.board.width):
            x = left + (i + 0.5) * self.s
            layer.add(
                Text(x, top - self.grid_gap, str(ox + i), size, ink),
                Text(x, bottom + self.grid_gap + ASCENT * size, str(ox + i), size, ink),
            )
        for j in range(self.board.height):
            y = baseline_for_middle(top + (j + 0.5) * self.s, size)
            layer.add(
                Text(left - self.grid_gap * 0.7, y, str(oy + j), size, ink, anchor="end"),
                Text(right + self.grid_gap * 0.7, y, str(oy + j), size, ink, anchor="start"),
            )
        if self.show_title:
            title = shortened(
                self.p.word("title", title=self.model.title),
                self.board.width * self.s + self.left,
                self.title_size,
                "bold",
            )  # an 80,000-character title made a picture too large to draw
            layer.add(
                Text(self.left, self.title_size * 1.2, title, self.title_size, self.p.c("text"), "bold", anchor="start")
            )

    # the legend's entries ----------------------------------------------------------------
    def _legend_entries(self) -> None:
        """What the legend explains, in a fixed order: only the marks this map holds (plus floor and wall)."""
        p, model, board = self.p, self.model, self.board

        def add(label: str, what: tuple[Any, ...]) -> None:
            self.legend.append(LegendEntry(_legend_words(label), what))

        add(p.word("floor"), ("floor",))
        add(p.word("wall"), ("wall",))
        if any(d.rune is None for d in board.doors.values()):
            add(p.word("door"), ("door", None))
        for rune in sorted({d.rune for d in board.doors.values() if d.rune}):
            add(p.word("rune_door", colour=rune.capitalize()), ("door", rune))
        if self.border_edges:
            add(p.word("area_border"), ("area_border",))
        ranks = {f.rank for f in model.figures}
        for rank, key in (("normal", "monster"), ("master", "master"), ("named", "named")):
            if rank in ranks:
                add(p.word(key), ("figure", rank))
        for counts in sorted(self.badges_drawn):
            text = p.word("players", players=count_range(counts))
            add(p.word("players_legend", players=count_range(counts)), ("players", text))
        if self.rings:
            add(p.word("players_ring"), ("ring",))
        markers = model.markers
        for active in (True, False):
            if any(m.kind == "glyph" and m.active == active for m in markers):
                add(p.word("glyph_active" if active else "glyph_inactive"), ("glyph", active))
        for variant in p.style.get("chests", {}):
            if any(m.kind == "chest" and m.variant == variant for m in markers):
                add(p.word("chest", variant=variant.capitalize()), ("chest", variant))
        for variant in sorted({m.variant for m in markers if m.kind == "treasure" and m.variant is not None}):
            entry = model.catalog.treasures.get(variant)
            title = (entry.title if entry and entry.title else variant).capitalize()
            add(p.word("treasure", title=title), ("treasure", variant))
        if any(m.kind == "relic" for m in markers):
            add(p.word("relic"), ("relic",))
        for colour in sorted({m.variant for m in markers if m.kind == "runekey" and m.variant is not None}):
            add(p.word("runekey", variant=colour.capitalize()), ("runekey", colour))
        if any(m.kind == "encounter" for m in markers):
            add(p.word("encounter"), ("encounter",))
        if any(m.kind == "search" for m in markers):
            add(p.word("search"), ("search",))
        objectives = {m.variant for m in markers if m.kind == "objective"}
        if None in objectives:
            add(p.word("objective_plain"), ("objective", None))
        for colour in sorted(c for c in objectives if c is not None):
            add(p.word("objective", variant=colour.capitalize()), ("objective", colour))
        if any(m.kind == "villager" for m in markers):
            add(p.word("villager"), ("villager",))
        for name in sorted({m.variant for m in markers if m.kind == "lieutenant" and m.variant}):
            add(p.word("lieutenant", name=readable(name).title()), ("lieutenant",))
        for kind in ("entrance", "exit"):
            if kind in self.edge_kinds:
                add(p.word(kind), ("edge", kind))
        for colour in sorted({st.colour for st in board.stairs}):
            add(p.word("stairs", colour=readable(colour).capitalize()), ("stairs", colour))
        kinds: dict[str, Any] = {}
        for obstacle in model.obstacles:
            kinds.setdefault(obstacle.kind.name, obstacle.kind)
        for name in sorted(kinds, key=lambda k: (kinds[k].trap, k)):
            kind = kinds[name]
            label = p.obstacle(kind).get("label", name)
            add(p.word("trap" if kind.trap else "obstacle", label=label), ("obstacle", kind))
        if any(o.facing for o in model.obstacles):
            add(p.word("facing"), ("arrow",))
        if any(label.how == "leader" for label in self.labels):
            add(p.word("leader"), ("leader",))
        for area in model.areas.values():
            shown = self.area_keys.get(area.id, area.id)
            add(
                p.word(
                    "start_area" if area.start else "area",
                    id=shown,
                    name=area.name if shown == area.id else f"{area.id}, {area.name}",
                ),
                ("area", shown),
            )
        for monster, code in sorted(self.codes.items(), key=lambda kv: kv[1]):
            self.keys.append(LegendEntry(p.word("code", code=code, monster=monster), ("code", code)))


LEGEND_CHARACTERS = 60  # a legend line's words at most (a longer name is whole in the sheet's text)


def _legend_words(words: str) -> str:
    """A legend entry's words, cut with an ellipsis past LEGEND_CHARACTERS (a 3,000-character
    door name ran off the page)."""
    return words if len(words) <= LEGEND_CHARACTERS else words[: LEGEND_CHARACTERS - 1].rstrip() + "\u2026"


def with_title(md: MapDrawing, quest: CompiledQuest, palette: Palette | None = None) -> MapDrawing:
    """A map drawn without its title (draw_map(title=False), say a page's) in; the same map under its
    title out, as draw_map(title=True) draws it, without drawing it again: the map's layers moved
    down by the title's height (Layer.offset), the title above. Placing the labels is most of a
    drawing's time, and the PNG is the printed page's map under a title."""
    p = palette or Palette()
    board = quest.board
    plain = frame(board.width, board.height, board.origin, md.cell, False)
    titled = frame(board.width, board.height, board.origin, md.cell, True)
    if (md.left, md.top, md.width, md.height) != (plain.left, plain.top, plain.width, plain.height):
        raise ValueError("with_title takes a map drawn without its title")
    dy = titled.top - plain.top
    words = shortened(
        p.word("title", title=quest.model.title), board.width * md.cell + titled.left, titled.title_size, "bold"
    )  # an 80,000-character title made a picture too large to draw
    layers = [Layer(layer.name, layer.items, (layer.offset[0], layer.offset[1] + dy)) for layer in md.drawing.layers]
    layers.append(
        Layer(
            "title",
            [Text(titled.left, titled.title_size * 1.2, words, titled.title_size, p.c("text"), "bold", anchor="start")],
        )
    )
    drawing = Drawing(
        md.drawing.width,
        titled.height,
        layers,
        background=md.drawing.background,
        title=md.drawing.title,
        description=md.drawing.description,
    )

    def down(box: Box) -> Box:
        return (box[0], box[1] + dy, box[2], box[3] + dy)

    return MapDrawing(
        drawing,
        md.cell,
        md.origin,
        md.columns,
        md.rows,
        md.left,
        titled.top,
        legend=list(md.legend),
        labels=[replace(label, box=down(label.box)) for label in md.labels],
        walls=[down(box) for box in md.walls],
        doors=[(down(box), owner) for box, owner in md.doors],
        symbols=[(down(box), owner) for box, owner in md.symbols],
        text_sizes=dict(md.text_sizes),
    )


def piece_words(name: str) -> str:
    """A map piece type in (room_6x6); how a player reads it out (room 6×6)."""
    import re

    return re.sub(r"(\d)x(\d)", "\\1×\\2", readable(name))


def draw_map(
    quest: CompiledQuest,
    cell: float = 20.0,
    title: bool = False,
    palette: Palette | None = None,
    pieces: bool | None = None,
) -> MapDrawing:
    """A compiled quest in; its map drawn at `cell` points per square out (see the module docstring).

    Raises ValueError for a cell under 1 point.
    """
    # Small squares are what a wide map needs to fit its page: the widest map questc accepts
    # (400 squares) prints at about 1.2 points a square on A4, and lint passed it.
    if cell < 1:
        raise ValueError(f"a map square must be at least 1 point, not {cell}")
    return _Builder(quest, cell, title, palette, pieces).build()
