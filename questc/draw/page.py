"""The map's page: how large the map prints on a sheet of paper, and which way the page turns.

The sheet gives the map a page of its own: a heading, the map as large as the page allows
(portrait or landscape, whichever gives the larger squares), and the legend under it; when
the legend would keep the squares under COMFORTABLE points, the map takes the page alone
and the legend follows on the next. The
PNG uses the same scale, so the picture and the printed map carry the same words at the same
sizes. The numbers (margins, legend sizes) are templates/sheet/styles.yaml's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest
    from questc.draw.map import MapDrawing

MM = 72 / 25.4
PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
LARGEST_CELL = 36.0     # half an inch: a larger map square only spends ink
COMFORTABLE = 24.0      # a third of an inch: squares this large read well; past it the legend comes first


@dataclass(frozen=True)
class LegendPlan:
    """The legend set `width` points wide: `rows` entries down each column, the columns' widths (each
    as wide as its longest entry), the gap between columns, and the height of it all in points.
    `beside_map`: False when the map takes its page alone and the legend follows on the next page."""

    rows: int
    widths: tuple[float, ...]
    gap: float
    height: float
    beside_map: bool = True

    @property
    def columns(self) -> int:
        return len(self.widths)


@dataclass(frozen=True)
class MapPage:
    paper: str
    landscape: bool
    page_width: float
    page_height: float
    margin: float
    body_width: float
    body_height: float
    heading_height: float
    map: MapDrawing        # the map drawn at the printed scale
    legend: LegendPlan


def styles() -> dict:
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
        columns = tuple(max(widths[i:i + rows]) for i in range(0, count, rows))
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


def map_page(quest: CompiledQuest, paper: str = "a4") -> MapPage:
    """A compiled quest and a paper size in; its map page out: orientation, scale, the drawn map."""
    from questc.draw.map import draw_map, fit_cell

    page = styles().get("page", {})
    margin = float(page.get("margin_mm", 16)) * MM
    heading = float(styles().get("map", {}).get("heading_height", 30))
    footer = float(page.get("footer_size", 8)) * 2.5
    board = quest.board
    probe = draw_map(quest, 18.0)
    best = None
    for landscape in (False, True):
        w, h = paper_size(paper)
        if landscape:
            w, h = h, w
        body_w, body_h = w - 2 * margin, h - 2 * margin - footer
        legend = plan_legend(probe.legend, legend_width(body_w))
        alone = fit_cell(board.width, board.height, board.origin, body_w, body_h - heading, largest=LARGEST_CELL)
        shared = fit_cell(board.width, board.height, board.origin, body_w, body_h - heading - legend.height,
                          largest=LARGEST_CELL)
        for cell, beside in ((shared, True), (alone, False)):
            # Squares up to COMFORTABLE points count in full; past that the legend on the map's page
            # is worth more than larger squares; then the larger squares; portrait on a tie.
            score = (round(min(cell, COMFORTABLE), 1), beside, round(cell, 1))
            if best is None or score > best[0]:
                best = (score, cell, landscape, w, h, body_w, body_h, beside)
    assert best is not None
    _score, cell, landscape, w, h, body_w, body_h, beside = best
    for _ in range(4):     # the legend drawn at this scale may be longer (codes, keys): fit again
        drawn = draw_map(quest, cell)
        legend = plan_legend(drawn.legend, legend_width(body_w))
        below = legend.height if beside else 0.0
        if drawn.height + below + heading <= body_h + 0.01 and drawn.width <= body_w + 0.01:
            break
        if cell <= 1.0:   # as small as a square is drawn (draw_map): the widest map is let overflow a little
            break
        refit = fit_cell(board.width, board.height, board.origin, body_w, body_h - heading - below,
                         largest=LARGEST_CELL)
        if beside and refit < cell * 0.5:
            # The legend grew at this scale (words that no longer fit beside their things went
            # into its key) past sharing the page: it follows on the next page instead.
            beside = False
            refit = fit_cell(board.width, board.height, board.origin, body_w, body_h - heading,
                             largest=LARGEST_CELL)
        cell = max(1.0, min(cell * 0.97, refit))
    from dataclasses import replace

    if not beside:    # the legend follows on the next page, which is portrait: its columns fit that
        portrait_w = paper_size(paper)[0] - 2 * margin
        legend = plan_legend(drawn.legend, legend_width(portrait_w))
    return MapPage(paper.lower(), landscape, w, h, margin, body_w, body_h, heading, drawn,
                   replace(legend, beside_map=beside))
