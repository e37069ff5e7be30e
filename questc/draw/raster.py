"""A Drawing in; a Pillow RGB image out, `scale` pixels per point.

The same display list as the SVG: shapes in order, patterns from the same unit tiles, text in
the bundled font at its size (Pillow's basic layout engine, so no machine's shaping library
changes a pixel). Pillow draws without anti-aliasing; lines are at least one pixel wide.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from questc.draw.items import Drawing, Ellipse, Group, Item, Line, Polygon, Rect, Text

if TYPE_CHECKING:
    from PIL import Image as PILImage
    from PIL import ImageDraw as PILImageDraw
from questc.draw.patterns import pattern


def _rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _w(width: float, scale: float) -> int:
    return max(1, int(round(width * scale)))


@lru_cache(maxsize=256)
def _tile(name: str, size: int) -> PILImage.Image:
    """A pattern name and a tile size in pixels in; an 'L' mask of the pattern's ink out."""
    from PIL import Image, ImageDraw

    tile = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(tile)
    for item in pattern(name):
        _paint(draw, item, size, {"ink": 255}, tile=True)
    return tile


def _colour(value: str | None, overrides: dict[str, int]) -> int | tuple[int, int, int] | None:
    if value is None:
        return None
    if value in overrides:
        return overrides[value]
    return _rgb(value)


def _paint(draw: PILImageDraw.ImageDraw, item: Rect | Ellipse | Polygon | Line, scale: float, overrides: dict[str, int] | None = None,
           tile: bool = False) -> None:
    """One shape onto an ImageDraw (coordinates times `scale`)."""
    o = overrides or {}
    p = item.paint
    fill, stroke = _colour(p.fill, o), _colour(p.stroke, o)
    width = _w(p.width, scale) if p.stroke and p.width > 0 else 0
    if isinstance(item, Rect):
        box = (item.x * scale, item.y * scale, (item.x + item.w) * scale, (item.y + item.h) * scale)
        if box[2] - box[0] < 1 or box[3] - box[1] < 1:
            box = (box[0], box[1], max(box[2], box[0] + 1), max(box[3], box[1] + 1))
        if item.radius:
            radius = min(item.radius * scale, (box[2] - box[0]) / 2, (box[3] - box[1]) / 2)
            draw.rounded_rectangle(box, radius=radius, fill=fill, outline=stroke if width else None, width=width)
        else:
            draw.rectangle(box, fill=fill, outline=stroke if width else None, width=width)
    elif isinstance(item, Ellipse):
        box = ((item.cx - item.rx) * scale, (item.cy - item.ry) * scale, (item.cx + item.rx) * scale,
               (item.cy + item.ry) * scale)
        draw.ellipse(box, fill=fill, outline=stroke if width else None, width=width)
    elif isinstance(item, Polygon):
        points = [(x * scale, y * scale) for x, y in item.points]
        draw.polygon(points, fill=fill, outline=stroke if width else None, width=width)
    elif isinstance(item, Line):
        points = [(x * scale, y * scale) for x, y in item.points]
        if not stroke:
            return
        if p.dash:
            for a, b in zip(points, points[1:]):
                _dashed(draw, a, b, width, stroke, p.dash[0] * scale, p.dash[1] * scale)
        else:
            draw.line(points, fill=stroke, width=width, joint="curve" if len(points) > 2 and not tile else None)


def _dashed(draw, a, b, width, fill, dash, gap) -> None:
    import math

    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line((x0 + ux * pos, y0 + uy * pos, x0 + ux * end, y0 + uy * end), fill=fill, width=width)
        pos = end + gap


class _Painter:
    def __init__(self, image: PILImage.Image, scale: float) -> None:
        from PIL import ImageDraw

        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.scale = scale
        self.dx = self.dy = 0.0

    def item(self, item: Item) -> None:
        if isinstance(item, Group):
            for inner in item.items:
                self.item(inner)
        elif isinstance(item, Text):
            self.text(item)
        else:
            _paint(self.draw, item, self.scale)
            if isinstance(item, Rect) and item.paint.pattern:
                self.pattern(item)

    def pattern(self, item: Rect) -> None:
        s = self.scale
        x0, y0 = int(round(item.x * s)), int(round(item.y * s))
        x1, y1 = int(round((item.x + item.w) * s)), int(round((item.y + item.h) * s))
        size = int(round((item.paint.tile or item.w) * s))
        if size < 2:
            return
        mask = _tile(item.paint.pattern, size)
        ink = _rgb(item.paint.ink or "#000000")
        for ty in range(y0, y1, size):
            for tx in range(x0, x1, size):
                w, h = min(size, x1 - tx), min(size, y1 - ty)
                self.image.paste(ink, (tx, ty, tx + w, ty + h), mask.crop((0, 0, w, h)))

    def text(self, item: Text) -> None:
        from questc.fonts import pillow_font, runs

        s = self.scale
        style = item.weight if item.weight in ("bold", "italic") else "regular"
        size = max(1, int(round(item.size * s)))
        parts = [(piece, pillow_font(size, style, file)) for piece, file in runs(item.text, style)]
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[item.anchor]
        fill = _rgb(item.fill)
        if not parts:
            return
        if len(parts) > 1:   # characters from other fonts (other scripts): each run in its own font
            self._runs(parts, item, anchor, fill)
            return
        font = parts[0][1]
        if not item.rotate:
            self.draw.text((item.x * s, item.y * s), item.text, font=font, fill=fill, anchor=anchor)
            return
        from PIL import Image, ImageDraw

        x0, y0, x1, y1 = font.getbbox(item.text, anchor=anchor)
        tile = Image.new("L", (int(x1 - x0) + 4, int(y1 - y0) + 4), 0)
        ImageDraw.Draw(tile).text((2 - x0, 2 - y0), item.text, font=font, fill=255, anchor=anchor)
        turned = tile.rotate(item.rotate, expand=True)
        px, py = int(item.x * s - turned.width / 2), int(item.y * s - turned.height / 2)
        self.image.paste(fill, (px, py, px + turned.width, py + turned.height), turned)

    def _runs(self, parts, item: Text, anchor: str, fill) -> None:
        """A line set in several fonts: the runs side by side on one baseline, the whole anchored
        as one text (turned as one when the item is turned)."""
        from PIL import Image, ImageDraw

        widths = [font.getlength(piece) for piece, font in parts]
        total = sum(widths)
        ascent = max(font.getmetrics()[0] for _, font in parts)
        descent = max(font.getmetrics()[1] for _, font in parts)
        tile = Image.new("L", (max(1, int(total) + 4), ascent + descent + 4), 0)
        pen, draw = 2.0, ImageDraw.Draw(tile)
        for (piece, font), width in zip(parts, widths):
            draw.text((pen, 2 + ascent), piece, font=font, fill=255, anchor="ls")
            pen += width
        if item.rotate:
            tile = tile.rotate(item.rotate, expand=True)
            px, py = int(item.x * self.scale - tile.width / 2), int(item.y * self.scale - tile.height / 2)
        else:
            shift = {"ls": 0.0, "ms": total / 2, "rs": total}[anchor]
            px, py = int(round(item.x * self.scale - shift - 2)), int(round(item.y * self.scale - ascent - 2))
        self.image.paste(fill, (px, py, px + tile.width, py + tile.height), tile)


def to_image(drawing: Drawing, scale: float) -> PILImage.Image:
    """A Drawing in; a Pillow RGB image of it out, `scale` pixels per point."""
    from PIL import Image

    size = (max(1, int(round(drawing.width * scale))), max(1, int(round(drawing.height * scale))))
    image = Image.new("RGB", size, _rgb(drawing.background or "#ffffff"))
    painter = _Painter(image, scale)
    for layer in drawing.layers:
        if any(layer.offset):
            from questc.draw.items import Layer, shifted

            layer = Layer(layer.name, [shifted(item, *layer.offset) for item in layer.items])
        for item in layer.items:
            painter.item(item)
    return image


def to_png(drawing: Drawing, scale: float) -> bytes:
    """A Drawing in; PNG bytes out (no timestamp, no text chunks)."""
    import io

    out = io.BytesIO()
    to_image(drawing, scale).save(out, format="PNG", compress_level=6)
    return out.getvalue()
