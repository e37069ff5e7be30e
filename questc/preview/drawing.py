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
    legend: tuple = ()  # ({"label": words, "svg": the symbol as the sheet's legend draws it, "what": its kind}, ...)


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
        text = text[text.index("?>") + 2 :].lstrip()
    return MapPicture(
        text,
        {
            "cell": drawn.cell,
            "left": drawn.left,
            "top": drawn.top,
            "origin": list(drawn.origin),
            "columns": drawn.columns,
            "rows": drawn.rows,
            "width": drawn.width,
            "height": drawn.height,
        },
        _legend(drawn),
    )


def picture_key(quest: CompiledQuest) -> tuple:
    """What the map drawing reads of a quest besides its board, without places in the text: two
    checks with equal keys on the same board draw the same picture. Typing in a `read`, a note, a
    trigger or the victory changes nothing here, so the page keeps its picture (the drawing of a
    2,000-square map is most of a scene's time). Conservative: anything the drawing might read
    of a placed thing is in it."""
    import dataclasses

    def plain(record, skip=()) -> tuple:
        out = []
        for f in dataclasses.fields(record):
            if f.name in ("span", "node") or f.name in skip:
                continue
            value = getattr(record, f.name)
            if not isinstance(value, (str, int, float, bool, tuple, frozenset, type(None))):
                value = getattr(value, "name", repr(value))  # a catalog entry: by its name
            out.append(value)
        return tuple(out)

    model = quest.model
    return (
        model.edition.name,
        model.reveal,
        model.title,
        tuple(plain(a, skip=("read", "notes")) for a in model.areas.values()),
        tuple(plain(f) for f in model.figures),
        tuple(plain(m) for m in model.markers),
        tuple(plain(o) for o in model.obstacles),
        tuple((d.id, d.display, d.rune) for d in model.doors.values()),
        tuple((named.id, named.display) for named in model.named.values()),
        tuple((e.id, e.at) for e in model.encounters.values()),
        tuple((p.id, p.type.name, p.at, p.turn) for p in model.pieces.values() if p is not None),
    )


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
            symbol = symbol[symbol.index("?>") + 2 :].lstrip()
        entries.append({"label": entry.label, "svg": symbol, "what": entry.what})
    return tuple(entries)


_LEGEND_TINT = "#f1e8d4"  # the floor under a legend symbol, as the printed legend has it
