"""The map on its sheet: how large the map prints, and whether it stands upright or turned.

The map, its heading and its legend print as one unit, never split: the legend is always on the
map's page. The unit is as large as a page's text area allows (squares at most LARGEST_CELL
points): upright, the legend under the map across the page; or turned a quarter (the reader
turns the book), when that makes the squares at least TURN_GAIN times larger. The sheet sets
the unit where it fits after the text, else at the top of the next page (templates/sheet/sheet.typ,
qs-map). The PNG uses the same scale, so the picture and the printed map carry the same words
at the same sizes. The numbers (margins, legend sizes) are templates/sheet/styles.yaml's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

from questc.records import record

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest
    from questc.draw.map import MapDrawing

MM = 72 / 25.4
PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
LARGEST_CELL = 36.0  # half an inch: a larger map square only spends ink
TURN_GAIN = 1.2  # a map turns a quarter only for squares this much larger: turning the book costs the reader


@record
class LegendPlan:
    """The legend set `width` points wide: `rows` entries down each column, the columns' widths (each
    as wide as its longest entry), the gap between columns, and the height of it all in points."""

    rows: int
    widths: tuple[float, ...]
    gap: float
    height: float

    @property
    def columns(self) -> int:
        return len(self.widths)


@record
class MapPage:
    """The map's unit on a page of `paper`: `width` points wide (the text area's width, or its height
    when `turned`), the map drawn at the printed scale, its legend's plan, the heading's height."""

    paper: str
    turned: bool
    page_width: float
    page_height: float
    margin: float
    body_width: float
    body_height: float
    heading_height: float
    map: MapDrawing  # the map drawn at the printed scale
    legend: LegendPlan

    @property
    def width(self) -> float:
        return self.body_height if self.turned else self.body_width

    @property
    def height(self) -> float:
        """The unit's height (its width on the page when turned): heading, map and legend."""
        return self.heading_height + self.map.height + self.legend.height


@cache
def styles() -> dict:
    """The sheet's page styles (styles.yaml), read once: a build asked for them a dozen times a quest,
    each a parse by PyYAML's Python loader (a tenth of `questc build`'s time)."""
    from questc.paths import style_file

    return style_file("styles.yaml")


def legend_spec() -> dict:
    spec = dict(styles().get("legend") or {})
    spec.setdefault("size", 8.5)
    spec.setdefault("icon", 13)
    spec.setdefault("row", 16.5)
    spec.setdefault("label_gap", 5)
    spec.setdefault("column_gap", 14)
    spec.setdefault("heading_size", 9.5)
    spec.setdefault("space_before", 8)
    return spec


def plan_legend(entries, width: float, spec: dict | None = None) -> LegendPlan:
    """Legend entries and the width they may take in; their columns and height out: the fewest rows
    whose columns (each as wide as its longest entry) fit the width."""
    from questc.draw.metrics import text_width

    spec = spec or legend_spec()
    size, icon, gap = float(spec["size"]), float(spec["icon"]), float(spec["column_gap"])
    label_gap = float(spec["label_gap"])
    widths = [icon + label_gap + text_width(e.label, size) for e in entries]
    count = len(widths)
    head = float(spec["heading_size"]) * 1.8
    chosen: tuple[int, tuple[float, ...]] = (count, (max(widths, default=0.0),))
    for rows in range(1, count + 1):
        columns = tuple(max(widths[i : i + rows]) for i in range(0, count, rows))
        if sum(columns) + gap * (len(columns) - 1) <= width:
            chosen = (rows, columns)
            break
    rows, columns = chosen
    spare = width - sum(columns)
    spread = min(float(spec.get("max_column_gap", 30)), spare / (len(columns) - 1)) if len(columns) > 1 else gap
    return LegendPlan(rows, columns, max(gap, spread), head + rows * float(spec["row"]) + float(spec["space_before"]))


def legend_width(body_width: float) -> float:
    """The width the legend's columns share: the page's text width less the compass rose at their left."""
    spec = legend_spec()
    return body_width - float(spec.get("compass", 34)) - float(spec.get("compass_gap", 12))


def paper_size(paper: str) -> tuple[float, float]:
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise ValueError(f"paper {paper!r}: one of {', '.join(PAPERS)}") from None


def body_size(paper: str) -> tuple[float, float, float]:
    """A paper in; the sheet's text area (width, height) and its side margin out, in points."""
    page = styles().get("page", {})
    margin = float(page.get("margin_mm", 16)) * MM
    bottom = float(page.get("bottom_margin_mm", 18)) * MM
    w, h = paper_size(paper)
    return w - 2 * margin, h - margin - bottom, margin


# The last page laid out, for the quest it was laid out for: a build draws the PNG and then the PDF
# of one quest, and both start from the map page (its drawings are half of the PDF's time).
_LAST: tuple = ()


def map_page(quest: CompiledQuest, paper: str = "a4") -> MapPage:
    """A compiled quest and a paper size in; its map's unit out: upright or turned, its scale, the drawn map."""
    global _LAST
    import weakref

    if _LAST and _LAST[0]() is quest and _LAST[1] == paper:
        return _LAST[2]
    with _collector_paused():
        page = _map_page(quest, paper)
    _LAST = (weakref.ref(quest), paper, page)
    return page


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Within: Python's cyclic garbage collector off (as it was, after).

    Laying out a map page draws it two or three times, making hundreds of thousands of
    short-lived objects that reference counting frees (about a thousand are left in cycles on
    the 2,000-cell map, collected later): each full collection they set off walked everything
    the process holds, the checked quest and its board most of all, a third of the page's time
    on that map (0.24 -> 0.15 s)."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _map_page(quest: CompiledQuest, paper: str) -> MapPage:
    from questc.draw.map import draw_map, fit_cell

    heading = float(styles().get("map", {}).get("heading_height", 36))
    body_w, body_h, margin = body_size(paper)
    board = quest.board
    probe = draw_map(quest, 18.0)

    def fit(width: float, height: float, legend_height: float) -> float:
        return fit_cell(
            board.width, board.height, board.origin, width, height - heading - legend_height, largest=LARGEST_CELL
        )

    upright = fit(body_w, body_h, plan_legend(probe.legend, legend_width(body_w)).height)
    turned_cell = fit(body_h, body_w, plan_legend(probe.legend, legend_width(body_h)).height)
    turned = turned_cell >= upright * TURN_GAIN
    width, height = (body_h, body_w) if turned else (body_w, body_h)
    cell = turned_cell if turned else upright
    for _ in range(6):  # the legend drawn at this scale may be longer (codes, keys): fit again
        drawn = draw_map(quest, cell)
        legend = plan_legend(drawn.legend, legend_width(width))
        if drawn.height + legend.height + heading <= height + 0.01 and drawn.width <= width + 0.01:
            break
        if cell <= 1.0:  # as small as a square is drawn (draw_map): the widest map is let overflow a little
            break
        cell = max(1.0, min(cell * 0.97, fit(width, height, legend.height)))
    w, h = paper_size(paper)
    return MapPage(paper.lower(), turned, w, h, margin, body_w, body_h, heading, drawn, legend)
