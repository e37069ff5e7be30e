"""A CompiledQuest in; the map as a PNG out: questc.draw's map at the sheet's printed scale,
with its legend under it, rasterised by Pillow at `cell` pixels per map square.

The words are the sizes they print on the sheet (the map page of questc.draw.page), so the
picture reads like the printed map; the PNG carries no timestamp or text chunk. No picture
is over PIXEL_BUDGET: a map too wide for it is drawn at a smaller scale.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from PIL import Image

    from questc.compiled import CompiledQuest
    from questc.draw.items import Drawing
    from questc.draw.map import MapDrawing

DEFAULT_CELL = 160
MIN_CELL = 16
# No picture is larger than this many pixels (width x height; 3 bytes each while it is
# drawn, so 150 MB): a map too wide for it is drawn at a smaller scale. The largest
# shipped quest (three_seals) is 40 million pixels at the default 160, so real quests keep their size;
# the widest map questc accepts (400 x 400 cells) comes out about 17 px a cell.
PIXEL_BUDGET = 50_000_000


def session() -> AbstractContextManager[None]:
    """What a build holds open while it draws its quests' PNGs: the memory of a picture let go
    kept for the next (questc.draw.raster.reusing_picture_memory)."""
    from questc.draw.raster import reusing_picture_memory

    return reusing_picture_memory()


def png_drawing(quest: CompiledQuest, title: bool = True, paper: str = "a4") -> tuple[Drawing, MapDrawing]:
    """The PNG's drawing (map and legend, in points) and the MapDrawing it holds."""
    from questc.draw.items import Drawing, Layer
    from questc.draw.legend import legend_drawing
    from questc.draw.map import with_title
    from questc.draw.page import map_page

    page = map_page(quest, paper)
    md = with_title(page.map, quest) if title else page.map  # the page's map: its labels placed once
    palette_tint = next(iter(_tints(md)), "#f1e8d4")
    from questc.draw.symbols import Palette

    legend = legend_drawing(Palette(), md.legend, md.width - md.left, palette_tint)
    top = md.height + md.cell * 0.3
    layers = list(md.drawing.layers) + [Layer("legend", legend.layers[0].items, (md.left * 0.5, top))]
    drawing = Drawing(
        md.width,
        top + legend.height + md.cell * 0.3,
        layers,
        background=md.drawing.background,
        title=md.drawing.title,
        description=md.drawing.description,
    )
    return drawing, md


def _tints(md: MapDrawing) -> list[str]:
    """The floor tints the map uses, in drawing order (the legend's symbols stand on the first)."""
    from questc.draw.items import Group

    seen: list[str] = []
    for item in md.drawing.layer("floor").items:
        if isinstance(item, Group) and item.items and item.items[0].paint.fill not in seen:
            seen.append(item.items[0].paint.fill)
    return seen


def render_image(quest: CompiledQuest, cell: int = DEFAULT_CELL, title: bool = True, paper: str = "a4") -> Image.Image:
    """A compiled quest in; the map with its legend as a Pillow RGB image out."""
    from questc.draw.raster import to_image

    if cell < MIN_CELL:
        raise ValueError(f"a cell must be at least {MIN_CELL} pixels, not {cell}")
    drawing, md = png_drawing(quest, title, paper)
    scale = cell / md.cell
    pixels = drawing.width * scale * drawing.height * scale
    if pixels > PIXEL_BUDGET:  # checked on the drawing, before a pixel is allocated
        scale *= math.sqrt(PIXEL_BUDGET / pixels) * 0.999
    return to_image(drawing, scale)


def render_png(quest: CompiledQuest, cell: int = DEFAULT_CELL, title: bool = True, paper: str = "a4") -> bytes:
    """A compiled quest in; the map as PNG bytes out, `cell` pixels per map square, its words
    at the sizes they print on `paper`."""
    from questc.draw.raster import encode_png

    return encode_png(render_image(quest, cell, title, paper))
