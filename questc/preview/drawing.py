"""The seam between the preview and the map drawing: a checked quest in, the map as SVG out.

The preview never paints the map itself: the map is the printed sheet's drawing,
so what the page shows is what the sheet prints. This module is the one place that
asks that drawing for a picture; the page draws only its own interaction layer
(highlights, pins, fog) over it, placed by `MapPicture.layout`.
"""
from __future__ import annotations

import base64
import io
from dataclasses import dataclass

# Pixels per cell of the embedded picture: sharp enough to zoom in on a small map,
# small enough that a 2,000-cell map is drawn well inside the save-to-page budget.
_CELL_SMALL_MAP = 64
_CELL_LARGE_MAP = 36
_LARGE_MAP = 600   # floor cells


@dataclass(frozen=True)
class MapPicture:
    """The map as an SVG document, and where its cells are in the SVG's user units.

    layout: cell (units per cell), left/top (the origin cell's top-left corner),
    origin (the board's top-left cell), columns/rows, width/height (the whole picture).
    """

    svg: str
    layout: dict


def map_picture(result) -> MapPicture:
    """A QuestResult whose board was built (`result.context` set, errors allowed) in; its map out.

    Drawn by the printed sheet's painter (questc.emit.png) without the title and
    legend, which the page shows as text; a quest with check errors is drawn too,
    since its diagnostics are pinned on this very map.
    """
    from questc.emit.png import MIN_CELL, _Painter

    cells = len(result.context.board.board.cells)
    cell = max(MIN_CELL, _CELL_SMALL_MAP if cells <= _LARGE_MAP else _CELL_LARGE_MAP)
    painter = _Painter(result, cell, title=False, legend=False)
    image = painter.paint()
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)   # a picture for the screen: fast over small
    layout = painter.layout
    data = base64.b64encode(out.getvalue()).decode("ascii")
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {layout.width} {layout.height}" '
           f'width="{layout.width}" height="{layout.height}" class="questc-map">'
           f'<image href="data:image/png;base64,{data}" x="0" y="0" width="{layout.width}" '
           f'height="{layout.height}"/></svg>')
    return MapPicture(svg, {
        "cell": layout.cell, "left": layout.left, "top": layout.top,
        "origin": list(layout.origin), "columns": layout.columns, "rows": layout.rows,
        "width": layout.width, "height": layout.height,
    })
