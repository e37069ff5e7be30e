"""A compiled quest in; its print-and-play PDF out: the map at game size over as many pages as it
needs, and its tokens and markers to cut out (render_play).

A group without the out-of-print tiles plays from this: the map is drawn at the table's scale
(one square = SQUARE_MM, an inch, unless asked otherwise) with every map piece outlined and
named, cut into pages of the paper asked for (a page with no square of floor is left out). Each
page shows a window of whole squares and,
on its right and bottom, an overlap strip the next page covers: trim a page along its dashed
edges, lay it on the one before so the crosshairs meet, and tape. The first page says so, with
a scale to check the printer kept the size and a diagram of how the pages go together; the
last pages hold one token for each figure, marker and door the quest puts on the table, at
game size (questc.draw.tokens), each kind with its count.

The geometry is `plan(...)` (pure numbers; the tests measure the PDF against it); the look is
templates/sheet/play.j2 over sheet.typ's qs-play-* functions. Vector and tagged as the sheet
is: each page's map is the same SVG, clipped to its window, with alt text naming the squares it
shows; marks and cut lines are artifacts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest
    from questc.draw.map import MapDrawing

MM = 72 / 25.4
SQUARE_MM = 25.4  # a map square on the table: an inch
MIN_SQUARE_MM, MAX_SQUARE_MM = 10.0, 60.0
MARGIN_MM = 10.0  # what most printers leave unprinted, and room for the page's label
OVERLAP_MM = 10.0  # the strip a page shares with the next, to glue under it
MAX_PAGES = 400  # a grid of more pages than this is no map to tape together: refused


@dataclass(frozen=True)
class Window:
    """One page of the map: its column and row (0-based), its label (A1: column A, row 1), and the
    part of the map drawing it shows: from (x, y), `width` x `height` points, plus the overlap."""

    column: int
    row: int
    label: str
    x: float
    y: float


@dataclass(frozen=True)
class PlayPlan:
    """How a map at game size goes onto pages: the paper (turned or not), the square's size, the
    window (whole squares) each page shows and the overlap beyond it, the columns and rows."""

    paper: str
    landscape: bool
    page_width: float
    page_height: float
    margin: float
    square: float
    width: float
    height: float
    overlap: float
    columns: int
    rows: int
    windows: tuple[Window, ...]
    x0: float = 0.0  # where the first window starts in the map's drawing (at or left of its edge)
    y0: float = 0.0

    @property
    def pages(self) -> int:
        return self.columns * self.rows


def column_name(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA: a page's column, as a spreadsheet names it."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def plan(md: MapDrawing, paper: str, square: float) -> PlayPlan:
    """A map drawn at game size (`square` points a square) and a paper in; its pages out: the
    orientation that takes the fewer pages (upright on a tie), windows of whole squares aligned
    with the map's squares, so every cut runs along a line of the grid."""
    from questc.draw.page import paper_size

    margin, overlap = MARGIN_MM * MM, OVERLAP_MM * MM
    best: PlayPlan | None = None
    for landscape in (False, True):
        page_w, page_h = paper_size(paper)
        if landscape:
            page_w, page_h = page_h, page_w
        across = math.floor((page_w - 2 * margin - overlap) / square + 1e-9)
        down = math.floor((page_h - 2 * margin - overlap) / square + 1e-9)
        if across < 1 or down < 1:
            continue
        width, height = across * square, down * square
        # the windows start on a line of the grid at or before the drawing's left and top edge
        x0 = md.left - math.ceil(md.left / square - 1e-9) * square
        y0 = md.top - math.ceil(md.top / square - 1e-9) * square
        columns = max(1, math.ceil((md.width - x0) / width - 1e-9))
        rows = max(1, math.ceil((md.height - y0) / height - 1e-9))
        windows = tuple(
            Window(c, r, f"{column_name(c)}{r + 1}", x0 + c * width, y0 + r * height)
            for r in range(rows)
            for c in range(columns)
        )
        made = PlayPlan(
            paper.lower(),
            landscape,
            page_w,
            page_h,
            margin,
            square,
            width,
            height,
            overlap,
            columns,
            rows,
            windows,
            x0,
            y0,
        )
        if best is None or made.pages < best.pages:
            best = made
    if best is None:
        raise ValueError(f"a square of {square / MM:g} mm does not fit a page of {paper}")
    if best.pages > MAX_PAGES:
        raise ValueError(
            f"the map at game size would take a grid of {best.pages} pages (at most {MAX_PAGES}): "
            "choose a smaller --square-size"
        )
    return best


def check_square(square_mm: float) -> float:
    """A square's size in millimetres in; the same out, or ValueError saying the sizes accepted."""
    if not MIN_SQUARE_MM <= square_mm <= MAX_SQUARE_MM:
        raise ValueError(
            f"a square of {square_mm:g} mm: give a size from {MIN_SQUARE_MM:g} to {MAX_SQUARE_MM:g} mm "
            f"(the game's squares are about {SQUARE_MM:g} mm)"
        )
    return square_mm


def play_markup(quest: CompiledQuest, paper: str = "a4", square_mm: float = SQUARE_MM) -> str:
    """A compiled quest in; its print-and-play pages' Typst markup out (without the page set-up a
    document starts with): the instructions, the map's pages, the tokens."""
    from markupsafe import Markup

    from questc.draw.items import Drawing
    from questc.draw.map import draw_map
    from questc.draw.svg import to_svg
    from questc.draw.tokens import quest_tokens
    from questc.emit.pdf import _render
    from questc.emit.typst_markup import string

    square = check_square(square_mm) * MM
    md = draw_map(quest, square, pieces=True)
    layout = plan(md, paper, square)
    svg = to_svg(md.drawing, standalone=False).decode("utf-8")
    # the diagram: the floor, walls, doors and pieces only, scaled to the first page
    layers = [layer for layer in md.drawing.layers if layer.name in ("floor", "pieces", "walls", "doors")]
    overview = to_svg(Drawing(md.width, md.height, layers, background=None), standalone=False).decode("utf-8")
    board = quest.board
    floor = set(board.cells)
    pages = []

    def printed(window: Window) -> bool:
        """A window with a floor square in it: a page to print; others are left out (a floor square in
        only its overlap strip is in the next page's window)."""
        (x0, y0), (x1, y1) = (
            md.cell_at(window.x + 0.01, window.y + 0.01),
            md.cell_at(window.x + layout.width - 0.01, window.y + layout.height - 0.01),
        )
        return any((x, y) in floor for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))

    kept = [window for window in layout.windows if printed(window)]
    labels = {(w.column, w.row): w.label for w in kept}
    for window in kept:
        first = md.cell_at(window.x + 0.01, window.y + 0.01)
        last = md.cell_at(window.x + layout.width - 0.01, window.y + layout.height - 0.01)
        columns = (max(first[0], board.origin[0]), min(last[0], board.origin[0] + board.width - 1))
        rows = (max(first[1], board.origin[1]), min(last[1], board.origin[1] + board.height - 1))
        right = labels.get((window.column + 1, window.row))
        below = labels.get((window.column, window.row + 1))
        empty = columns[0] > columns[1] or rows[0] > rows[1]
        alt = (
            f"Map page {window.label}: beyond the map's squares"
            if empty
            else f"Map page {window.label} of {quest.model.title} at game size: squares {columns[0]} to {columns[1]} "
            f"across, {rows[0]} to {rows[1]} down"
        )
        info = f"column {column_name(window.column)} of {layout.columns}, row {window.row + 1} of {layout.rows}" + (
            "" if empty else f" · squares {columns[0]}–{columns[1]} across, {rows[0]}–{rows[1]} down"
        )
        pages.append(
            {
                "label": window.label,
                "column": window.column,
                "row": window.row,
                "x": window.x,
                "y": window.y,
                "right": right,
                "below": below,
                "alt": alt,
                "info": info,
                "cut_left": (window.column - 1, window.row) in labels,
                "cut_top": (window.column, window.row - 1) in labels,
            }
        )
    tokens: list[dict] = []
    for kind in quest_tokens(quest, square):  # grouped, in the order quest_tokens gives them
        if not tokens or tokens[-1]["group"] != kind.group:
            tokens.append({"group": kind.group, "kinds": []})
        tokens[-1]["kinds"].append(
            {
                "words": kind.words,
                "count": kind.count,
                "width": kind.drawing.width,
                "svg": Markup(string(to_svg(kind.drawing, standalone=False).decode("utf-8"))),
            }
        )
    return _render(
        "play.j2",
        q={"title": quest.model.title, "description": md.drawing.description},
        plan=layout,
        pages=pages,
        tokens=tokens,
        square_mm=square_mm,
        map_svg=Markup(string(svg)),
        map_width=md.width,
        map_height=md.height,
        overview_svg=Markup(string(overview)),
    )


def render_play(quest: CompiledQuest, paper: str = "a4", square_mm: float = SQUARE_MM) -> bytes:
    """A compiled quest in; its print-and-play PDF out (see the module docstring), tagged PDF/UA-1,
    the same bytes every time. ValueError for an unknown paper or a square size out of range."""
    from questc.emit.pdf import _date_markup, _prelude, compile_typst

    model = quest.model
    source = (
        _prelude(paper=paper, title=f"{model.title}: print and play", author=model.author, running=False)
        + _date_markup()
        + play_markup(quest, paper, square_mm)
    )
    return compile_typst(source)
