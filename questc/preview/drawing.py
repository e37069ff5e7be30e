"""The seam between the preview and the map drawing: a checked quest in, the map as SVG out.

The preview never paints the map itself: the map is the printed sheet's drawing
(questc.draw: one display list, rendered to SVG here and to PNG and PDF for print), so
what the page shows is what the sheet prints. This module is the one place that asks
that drawing for a picture; the page draws only its own interaction layer (highlights,
pins, fog) over it, placed by `MapPicture.layout` (the drawing's own geometry).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from questc.api import CompiledQuest

# Points per square: the sheet's own scale for a map that fills a page (questc.draw.page
# fits at most 36), so words on the map have the sizes they print at.
PREVIEW_CELL = 30.0


@dataclass(frozen=True)
class MapPicture:
    """The map as an SVG document, and where its cells are in the SVG's user units.

    layout: cell (units per cell), left/top (the origin cell's top-left corner),
    origin (the board's top-left cell), columns/rows, width/height (the whole picture).
    """

    svg: str
    layout: dict
    legend: tuple = ()   # ({"label": words, "svg": the symbol as the sheet's legend draws it, "what": its kind}, ...)


def map_picture(quest: CompiledQuest) -> MapPicture:
    """A compiled quest (its checks may have found errors) in; its map out.

    Drawn by questc.draw without the title and legend, which the page shows as text. A
    quest whose checks found errors is drawn too (its diagnostics are pinned on this very
    map), the board as built.
    """
    from questc.draw import draw_map
    from questc.draw.svg import to_svg

    drawn = draw_map(quest, PREVIEW_CELL, title=False)
    svg = to_svg(drawn.drawing)
    text = svg.decode("utf-8") if isinstance(svg, bytes) else svg
    if text.startswith("<?xml"):
        text = text[text.index("?>") + 2:].lstrip()
    return MapPicture(text, {
        "cell": drawn.cell, "left": drawn.left, "top": drawn.top,
        "origin": list(drawn.origin), "columns": drawn.columns, "rows": drawn.rows,
        "width": drawn.width, "height": drawn.height,
    }, _legend(drawn))


def _legend(drawn) -> tuple:
    """The map's legend (the codes and key numbers on it need one): words and symbols, as the sheet's."""
    from questc.draw.legend import symbol_drawing
    from questc.draw.svg import to_svg
    from questc.draw.symbols import Palette

    palette = Palette()
    entries = []
    for entry in drawn.legend:
        symbol = to_svg(symbol_drawing(palette, entry.what, 20, _LEGEND_TINT)).decode("utf-8")
        if symbol.startswith("<?xml"):
            symbol = symbol[symbol.index("?>") + 2:].lstrip()
        entries.append({"label": entry.label, "svg": symbol, "what": entry.what})
    return tuple(entries)


_LEGEND_TINT = "#f1e8d4"   # the floor under a legend symbol, as the printed legend has it
