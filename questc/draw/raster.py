"""A Drawing in; a Pillow RGB image out, `scale` pixels per point.

The same display list as the SVG: shapes in order, patterns from the same unit tiles, text in
the bundled font at its size (Pillow's basic layout engine, so no machine's shaping library
changes a pixel). Pillow draws without anti-aliasing; lines are at least one pixel wide.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING

from questc.draw.items import Drawing, Ellipse, Group, Item, Line, Polygon, Rect, Text

if TYPE_CHECKING:
    from PIL import Image as PILImage
    from PIL import ImageDraw as PILImageDraw
from questc.draw.patterns import pattern

# libvips writes the PNG from the picture's bytes packed in one piece, the picture let go first:
# at the largest picture a build draws (emit.png.PIXEL_BUDGET, 50 million pixels) a build needs
# about 415 MB of address space, within the 500 MB the hostile tests set. Past this many pixels
# (a map_png at a scale its caller chose) Pillow writes it, without the copy, six times slower.
FAST_WRITER_LIMIT = 50_000_000
# libvips's zlib level: 4, not the usual 6, for a picture written in 0.58 of the time and 18 % larger
# (the shipped quests and the 2,000-cell map: 0.80 -> 0.46 s, 8.3 -> 9.8 MB; level 5: 0.60 s, +6 %).
# A trade-off, taken for `questc build` (docs/performance.md, "Pictures"); PNG filters made the
# files smaller but took longer than level 6 unfiltered.
ZLIB_LEVEL = 4


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


def _paint(
    draw: PILImageDraw.ImageDraw,
    item: Rect | Ellipse | Polygon | Line,
    scale: float,
    overrides: dict[str, int] | None = None,
    tile: bool = False,
    image: PILImage.Image | None = None,
    dx: float = 0.0,
    dy: float = 0.0,
) -> None:
    """One shape onto an ImageDraw (coordinates moved by (dx, dy), then times `scale`); `image`, the
    image it draws on."""
    o = overrides or {}
    p = item.paint
    fill, stroke = _colour(p.fill, o), _colour(p.stroke, o)
    width = _w(p.width, scale) if p.stroke and p.width > 0 else 0
    if isinstance(item, Rect):
        x, y = item.x + dx, item.y + dy
        box = (x * scale, y * scale, (x + item.w) * scale, (y + item.h) * scale)
        if box[2] - box[0] < 1 or box[3] - box[1] < 1:
            box = (box[0], box[1], max(box[2], box[0] + 1), max(box[3], box[1] + 1))
        if item.radius:
            radius = min(item.radius * scale, (box[2] - box[0]) / 2, (box[3] - box[1]) / 2)
            try:
                draw.rounded_rectangle(box, radius=radius, fill=fill, outline=stroke if width else None, width=width)
            except ValueError:
                # Pillow refuses the outline of a pill at most two pixels wider than tall at some scales
                # (its straight top edge comes out shorter than nothing): as good as round at that size.
                draw.ellipse(box, fill=fill, outline=stroke if width else None, width=width)
        else:
            draw.rectangle(box, fill=fill, outline=stroke if width else None, width=width)
    elif isinstance(item, Ellipse):
        cx, cy = item.cx + dx, item.cy + dy
        box = ((cx - item.rx) * scale, (cy - item.ry) * scale, (cx + item.rx) * scale, (cy + item.ry) * scale)
        draw.ellipse(box, fill=fill, outline=stroke if width else None, width=width)
    elif isinstance(item, Polygon):
        points = [((x + dx) * scale, (y + dy) * scale) for x, y in item.points]
        if width > 1 and image is not None:
            _wide_outline_polygon(image, points, fill, stroke, width)
        else:
            draw.polygon(points, fill=fill, outline=stroke if width else None, width=width)
    elif isinstance(item, Line):
        points = [((x + dx) * scale, (y + dy) * scale) for x, y in item.points]
        if not stroke:
            return
        if p.dash:
            for a, b in zip(points, points[1:]):
                _dashed(draw, a, b, width, stroke, p.dash[0] * scale, p.dash[1] * scale)
        else:
            draw.line(points, fill=stroke, width=width, joint="curve" if len(points) > 2 and not tile else None)


def _wide_outline_polygon(image, points, fill, stroke, width: int) -> None:
    """`draw.polygon` with an outline wider than a pixel, drawn on the part of the image it covers.

    Pillow draws such an outline inside the polygon through masks the size of the whole image
    (four of them, each polygon): 18 ms a polygon on a 40-million-pixel map, most of the
    raster's time. Drawn on a crop holding the polygon and its outline, moved by whole
    pixels, it sets the same pixels."""
    from PIL import ImageDraw

    xs, ys = [x for x, _ in points], [y for _, y in points]
    x0, y0 = max(0, int(min(xs)) - width - 2), max(0, int(min(ys)) - width - 2)
    x1, y1 = min(image.width, int(max(xs)) + width + 3), min(image.height, int(max(ys)) + width + 3)
    if x1 <= x0 or y1 <= y0:
        return
    crop = image.crop((x0, y0, x1, y1))
    ImageDraw.Draw(crop).polygon([(x - x0, y - y0) for x, y in points], fill=fill, outline=stroke, width=width)
    image.paste(crop, (x0, y0))


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
        self.dx = self.dy = 0.0  # the offset of the layer being painted (Layer.offset), in points

    def item(self, item: Item) -> None:
        if isinstance(item, Group):
            for inner in item.items:
                self.item(inner)
        elif isinstance(item, Text):
            self.text(item)
        else:
            _paint(self.draw, item, self.scale, image=self.image, dx=self.dx, dy=self.dy)
            if isinstance(item, Rect) and item.paint.pattern:
                self.pattern(item)

    def pattern(self, item: Rect) -> None:
        s = self.scale
        x, y = item.x + self.dx, item.y + self.dy
        x0, y0 = int(round(x * s)), int(round(y * s))
        x1, y1 = int(round((x + item.w) * s)), int(round((y + item.h) * s))
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
        if len(parts) > 1:  # characters from other fonts (other scripts): each run in its own font
            self._runs(parts, item, anchor, fill)
            return
        font = parts[0][1]
        x, y = item.x + self.dx, item.y + self.dy
        if not item.rotate:
            self.draw.text((x * s, y * s), item.text, font=font, fill=fill, anchor=anchor)
            return
        from PIL import Image, ImageDraw

        x0, y0, x1, y1 = font.getbbox(item.text, anchor=anchor)
        tile = Image.new("L", (int(x1 - x0) + 4, int(y1 - y0) + 4), 0)
        ImageDraw.Draw(tile).text((2 - x0, 2 - y0), item.text, font=font, fill=255, anchor=anchor)
        turned = tile.rotate(item.rotate, expand=True)
        px, py = int(x * s - turned.width / 2), int(y * s - turned.height / 2)
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
        x, y = item.x + self.dx, item.y + self.dy
        if item.rotate:
            tile = tile.rotate(item.rotate, expand=True)
            px, py = int(x * self.scale - tile.width / 2), int(y * self.scale - tile.height / 2)
        else:
            shift = {"ls": 0.0, "ms": total / 2, "rs": total}[anchor]
            px, py = int(round(x * self.scale - shift - 2)), int(round(y * self.scale - ascent - 2))
        self.image.paste(fill, (px, py, px + tile.width, py + tile.height), tile)


def to_image(drawing: Drawing, scale: float) -> PILImage.Image:
    """A Drawing in; a Pillow RGB image of it out, `scale` pixels per point."""
    from PIL import Image

    size = (max(1, int(round(drawing.width * scale))), max(1, int(round(drawing.height * scale))))
    image = Image.new("RGB", size, _rgb(drawing.background or "#ffffff"))
    painter = _Painter(image, scale)
    for layer in drawing.layers:
        painter.dx, painter.dy = layer.offset  # a layer moved (the legend under the map): its items as they are
        for item in layer.items:
            painter.item(item)
    return image


def to_png(drawing: Drawing, scale: float) -> bytes:
    """A Drawing in; PNG bytes out (no timestamp, no text chunks)."""
    return encode_png(to_image(drawing, scale))


def encode_png(image) -> bytes:
    """A Pillow RGB image in (let go of: the caller keeps no reference); PNG bytes out (no
    timestamp, no metadata), the same bytes each time.

    libvips writes them (pyvips), not Pillow: Pillow's PNG writer tries five filters on every
    row of an RGB image and keeps the best, which is most of a large map's PNG time (three_seals,
    40 million pixels: 0.92 s of 1.29 s), while the map's flat colours need no filter. libvips's,
    unfiltered at zlib level 6, writes the same pixels in 0.16 s, 8 % larger; at ZLIB_LEVEL 4
    in 0.58 of that time, 18 % larger again (docs/performance.md, "Pictures"). Past
    FAST_WRITER_LIMIT pixels Pillow writes them."""
    if image.width * image.height > FAST_WRITER_LIMIT:
        import io

        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=6)
        return out.getvalue()
    import pyvips

    size, data = image.size, _packed(image)
    del image
    # One worker: the PNG is one stream, written by one thread anyway, and every worker libvips
    # starts reserves address space of its own (a build under a 500 MB limit ran out of it).
    pyvips.concurrency_set(1)
    _share_malloc_arenas()
    picture = pyvips.Image.new_from_memory(data, size[0], size[1], 3, "uchar")
    del data
    png = bytes(picture.pngsave_buffer(compression=ZLIB_LEVEL, filter="none", keep="none"))
    del picture  # and with it its view of the packed pixels, which the next picture packs over
    # libvips always writes a pHYs chunk (a resolution; 0 here): the picture has no print size,
    # so it is left out, as Pillow left it out. It follows the signature and IHDR (8 + 25 bytes).
    at = 8 + 25
    length = int.from_bytes(png[at : at + 4], "big")
    if png[at + 4 : at + 8] == b"pHYs":
        png = png[:at] + png[at + 12 + length :]
    return png


def _share_malloc_arenas() -> None:
    """Under an address-space limit (RLIMIT_AS), the process's threads share two malloc arenas.

    glibc gives each new thread an arena that reserves 64 MB of address space: libvips's worker
    threads took three (190 MB), and with Typst's after them a build of a fuzzed quest broke the
    500 MB limit the hostile tests set (tests/test_bench_smoke.py). Without a limit nothing is
    changed; where there is no glibc (no mallopt) neither."""
    if not _memory_limited():
        return
    import ctypes

    try:
        ctypes.CDLL(None).mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):
        pass


# Rows packed at a time (_packed): a piece small enough to come from memory just freed each time
# (0.3 MB at the widest picture's 5,800 pixels), copied on from the processor's cache.
PACK_ROWS = 16


class _PackedPixels:
    """Memory to pack a picture's pixels into for libvips, of which a page is taken from the system
    only when a picture first writes it (an anonymous map). A build keeps one from picture to
    picture (reusing_picture_memory), room for the largest picture libvips writes (150 MB of
    address space): taken afresh for each picture, its pages faulted in zeroed every time (50 of
    the 180 ms of burning_well's 47 million pixels)."""

    def __init__(self, size: int = FAST_WRITER_LIMIT * 3) -> None:
        import mmap

        if hasattr(mmap, "MAP_PRIVATE"):  # private: a shared map's pages fault in a third slower
            self.memory = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE)
        else:  # Windows
            self.memory = mmap.mmap(-1, size)

    def take(self, size: int) -> memoryview:
        """Room for `size` bytes, at most as many as it holds."""
        return memoryview(self.memory)[:size]

    def close(self) -> None:
        try:
            self.memory.close()
        except BufferError:  # a picture still holds a view of it: it goes when that does
            pass


class _Build(threading.local):
    """What the build drawing in this thread keeps (reusing_picture_memory): per thread, so that
    two builds in one process never pack into the same memory."""

    packed: _PackedPixels | None = None


_build = _Build()


def _packed(image) -> memoryview:
    """An RGB image's pixels as `image.tobytes()` has them, packed PACK_ROWS at a time into the
    memory a build keeps for them, or into memory of their own outside a build.

    `tobytes` packs 64 kB at a time and joins the pieces: the picture's bytes held twice over
    (360 MB at three_seals' 40 million pixels, with the picture) and twice the time. Pillow's
    raw encoder, which tobytes drives, here writes each piece where it belongs."""
    from PIL import Image

    size = image.width * image.height * len(image.mode)
    kept = _build.packed
    memory = kept if kept is not None and size <= len(kept.memory) else _PackedPixels(size)
    out = memory.take(size)
    encoder = Image._getencoder(image.mode, "raw", image.mode)
    try:
        encoder.setimage(image.im, (0, 0, *image.size))
        at, done, row = 0, 0, image.width * len(image.mode)
        while not done:
            _written, done, piece = encoder.encode(row * PACK_ROWS)
            out[at : at + len(piece)] = piece
            at += len(piece)
    finally:
        encoder.cleanup()
    return out


@contextmanager
def reusing_picture_memory() -> Iterator[None]:
    """Within: the memory of a picture let go is kept for the next, and so is the memory its pixels
    are packed into for libvips (_PackedPixels); leaving gives both back.

    A build draws a picture per quest, each of tens of megabytes: taken fresh from the system
    every time, each page faults in zeroed first (burning_well, 47 million pixels: making the
    blank picture 65 -> 6 ms, packing it 70 -> 18 ms). The picture's own memory, Pillow's blocks
    of 16 MB, is kept by glibc's heap (_keeping_large_allocations); where there is no glibc, by
    Pillow's block cache, which reallocates a block kept for a picture of another width (the
    shipped quests' pictures faulted 81,000 pages in with it, 52,000 with the heap). Under an
    address-space limit (RLIMIT_AS) nothing is kept: it would count against the limit."""
    from PIL import Image

    if _build.packed is not None or _memory_limited():  # within a build already, or nothing to keep
        yield
        return
    core = Image.core
    before = core.get_blocks_max()
    heap = _keeping_large_allocations()
    if not heap:
        core.set_blocks_max(max(before, -(-FAST_WRITER_LIMIT * 4 // core.get_block_size()) + 1))
    _build.packed = kept = _PackedPixels()
    try:
        yield
    finally:
        _build.packed = None
        kept.close()
        core.set_blocks_max(before)
        if heap:
            _let_go_of_large_allocations()


def _memory_limited() -> bool:
    """True under an address-space limit (RLIMIT_AS), where memory kept counts against it."""
    try:
        import resource
    except ImportError:  # not a Unix
        return False
    return resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY


# glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3


def _libc():
    import ctypes

    try:
        libc = ctypes.CDLL(None)
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


def _keeping_large_allocations() -> bool:
    """Within a build, allocations up to 32 MB come from glibc's heap and stay there for the next
    picture (a picture's blocks are 16 MB). Left to itself glibc maps them afresh, unmaps them when
    freed and trims the heap's top past twice that, so each picture's pages faulted in zeroed
    again. True when it did so."""
    libc = _libc()
    if libc is None:
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, 32 << 20) and libc.mallopt(_M_TRIM_THRESHOLD, 1 << 30))


def _let_go_of_large_allocations() -> None:
    """The heap given back (malloc_trim), and glibc's thresholds as its own would have grown to
    after freeing a large allocation (mapped past 32 MB, the heap trimmed past 64 MB)."""
    libc = _libc()
    if libc is None:
        return
    libc.mallopt(_M_MMAP_THRESHOLD, 32 << 20)
    libc.mallopt(_M_TRIM_THRESHOLD, 64 << 20)
    libc.malloc_trim(0)
