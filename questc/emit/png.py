"""A compiled QuestResult in; the map as a PNG out: questc.draw's map at the sheet's printed scale,
with its legend under it, rasterised by Pillow at `cell` pixels per map square.

The words are the sizes they print on the sheet (the map page of questc.draw.page), so the
picture reads like the printed map; the PNG carries no timestamp or text chunk. No picture
is over PIXEL_BUDGET: a map too wide for it is drawn at a smaller scale.
"""
from __future__ import annotations

import math

DEFAULT_CELL = 160
MIN_CELL = 16
# No picture is larger than this many pixels (width x height; 3 bytes each while it is
# drawn, so 150 MB): a map too wide for it is drawn at a smaller scale. The largest
# shipped quest (three_seals) is 40 million pixels at the default 160, so real quests keep their size;
# the widest map questc accepts (400 x 400 cells) comes out about 17 px a cell.
PIXEL_BUDGET = 50_000_000
# libvips writes the PNG from a copy of the picture's bytes, so the picture is held twice while it
# is written (Pillow's writer needs no copy): past this many pixels (three_seals, the largest
# shipped quest, is 39.8 million) Pillow writes it, keeping the largest picture's build within
# the memory budget (docs/performance.md, "Render budget").
FAST_WRITER_LIMIT = 40_000_000


def png_drawing(result, title: bool = True, paper: str = "a4"):
    """The PNG's drawing (map and legend, in points) and the MapDrawing it holds."""
    from questc.draw.items import Drawing, Layer
    from questc.draw.legend import legend_drawing
    from questc.draw.page import map_page
    from questc.draw.map import draw_map

    page = map_page(result, paper)
    md = draw_map(result, page.map.cell, title=title) if title else page.map
    palette_tint = next(iter(_tints(md)), "#f1e8d4")
    from questc.draw.symbols import Palette

    legend = legend_drawing(Palette(), md.legend, md.width - md.left, palette_tint)
    top = md.height + md.cell * 0.3
    layers = list(md.drawing.layers) + [Layer("legend", legend.layers[0].items, (md.left * 0.5, top))]
    drawing = Drawing(md.width, top + legend.height + md.cell * 0.3, layers, background=md.drawing.background,
                      title=md.drawing.title, description=md.drawing.description)
    return drawing, md


def _tints(md):
    """The floor tints the map uses, in drawing order (the legend's symbols stand on the first)."""
    from questc.draw.items import Group

    seen = []
    for item in md.drawing.layer("floor").items:
        if isinstance(item, Group) and item.items and item.items[0].paint.fill not in seen:
            seen.append(item.items[0].paint.fill)
    return seen


def render_image(result, cell: int = DEFAULT_CELL, title: bool = True, paper: str = "a4"):
    """A compiled QuestResult in; the map with its legend as a Pillow RGB image out."""
    from questc.draw.raster import to_image

    if not getattr(result, "compiled", False):
        raise ValueError(f"{result.path}: the quest has errors; no map is drawn for it")
    if cell < MIN_CELL:
        raise ValueError(f"a cell must be at least {MIN_CELL} pixels, not {cell}")
    drawing, md = png_drawing(result, title, paper)
    scale = cell / md.cell
    pixels = drawing.width * scale * drawing.height * scale
    if pixels > PIXEL_BUDGET:   # checked on the drawing, before a pixel is allocated
        scale *= math.sqrt(PIXEL_BUDGET / pixels) * 0.999
    return to_image(drawing, scale)


def render_png(result, cell: int = DEFAULT_CELL, title: bool = True, paper: str = "a4") -> bytes:
    """A compiled QuestResult in; the map as PNG bytes out, `cell` pixels per map square, its words
    at the sizes they print on `paper`."""
    image = render_image(result, cell, title, paper)
    if image.width * image.height > FAST_WRITER_LIMIT:
        import io

        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=6)
        return out.getvalue()
    size, data = image.size, image.tobytes()
    del image
    return encode_png(data, size)


def encode_png(data: bytes, size: tuple[int, int]) -> bytes:
    """An RGB picture's bytes (a Pillow image's `tobytes()`) and size in; PNG bytes out (no
    timestamp, no metadata), the same bytes each time.

    libvips writes them (pyvips), not Pillow: Pillow's PNG writer tries five filters on every
    row of an RGB image and keeps the best, which is most of a large map's PNG time (three_seals,
    40 million pixels: 0.92 s of 1.29 s), while the map's flat colours need no filter. libvips's,
    unfiltered at zlib level 6, writes the same pixels in 0.16 s, 8 % larger
    (docs/performance.md, "Pictures")."""
    import pyvips

    # One worker: the PNG is one stream, written by one thread anyway, and every worker libvips
    # starts reserves address space of its own (a build under a 500 MB limit ran out of it).
    pyvips.concurrency_set(1)
    picture = pyvips.Image.new_from_memory(data, size[0], size[1], 3, "uchar")
    data = bytes(picture.pngsave_buffer(compression=6, filter="none", keep="none"))
    # libvips always writes a pHYs chunk (a resolution; 0 here): the picture has no print size,
    # so it is left out, as Pillow left it out. It follows the signature and IHDR (8 + 25 bytes).
    at = 8 + 25
    length = int.from_bytes(data[at:at + 4], "big")
    if data[at + 4:at + 8] == b"pHYs":
        data = data[:at] + data[at + 12 + length:]
    return data

