"""A Drawing in; SVG bytes out: vector shapes, real text in the bundled font, the same bytes for the
same drawing (numbers rounded to 0.01, elements in display-list order, no ids from memory).

Groups keep their role as a class and their data attributes (data-cell="x,y", data-area,
data-door, ...), so a page showing the SVG can find cells, areas and doors in it.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from questc.draw.items import Drawing, Ellipse, Group, Item, Line, Paint, Polygon, Rect, Text
from questc.draw.patterns import pattern

FONT_FAMILY = "DejaVu Sans"


def _n(value: float) -> str:
    """A number as SVG writes it: two decimals at most, no trailing zeros, no '-0'."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class _Writer:
    def __init__(self, drawing: Drawing) -> None:
        self.drawing = drawing
        self.patterns: dict[tuple[str, str, float, float, float], str] = {}  # a pattern's key -> its <pattern> id
        self.body: list[str] = []

    def paint(self, paint: Paint, closed: bool = True) -> str:
        out = []
        if closed:
            out.append(f'fill="{paint.fill}"' if paint.fill else 'fill="none"')
        else:
            out.append('fill="none"')
        if paint.stroke and paint.width > 0:
            out.append(f'stroke="{paint.stroke}" stroke-width="{_n(paint.width)}"')
            if paint.dash:
                out.append(f'stroke-dasharray="{_n(paint.dash[0])} {_n(paint.dash[1])}"')
        return " ".join(out)

    def pattern_id(self, name: str, ink: str, tile: float, x: float, y: float) -> str:
        key = (name, ink, round(tile, 2), round(x % tile, 2) if tile else 0, round(y % tile, 2) if tile else 0)
        found = self.patterns.get(key)
        if found is None:
            found = self.patterns[key] = f"p{len(self.patterns) + 1}"
        return found

    def pattern_def(self, key: tuple[str, str, float, float, float], pid: str) -> str:
        name, ink, tile, ox, oy = key
        inner = []
        for item in pattern(name):
            inner.append(self.item(_scaled(item, tile, ink)))
        return (
            f'<pattern id="{pid}" patternUnits="userSpaceOnUse" x="{_n(ox)}" y="{_n(oy)}" '
            f'width="{_n(tile)}" height="{_n(tile)}">{"".join(inner)}</pattern>'
        )

    def item(self, item: Item) -> str:
        if isinstance(item, Group):
            attrs = "".join(f" data-{k}={quoteattr(v)}" for k, v in item.attrs)
            inner = "".join(self.item(i) for i in item.items)
            return f'<g class="{item.role}"{attrs}>{inner}</g>'
        if isinstance(item, Rect):
            corner = f' rx="{_n(item.radius)}"' if item.radius else ""
            base = (
                f'<rect x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.w)}" height="{_n(item.h)}"{corner} '
                f"{self.paint(item.paint)}/>"
            )
            if item.paint.pattern:
                pid = self.pattern_id(
                    item.paint.pattern, item.paint.ink or "#000000", item.paint.tile or item.w, item.x, item.y
                )
                base += (
                    f'<rect x="{_n(item.x)}" y="{_n(item.y)}" width="{_n(item.w)}" height="{_n(item.h)}" '
                    f'fill="url(#{pid})"/>'
                )
            return base
        if isinstance(item, Ellipse):
            if abs(item.rx - item.ry) < 1e-9:
                return f'<circle cx="{_n(item.cx)}" cy="{_n(item.cy)}" r="{_n(item.rx)}" {self.paint(item.paint)}/>'
            return (
                f'<ellipse cx="{_n(item.cx)}" cy="{_n(item.cy)}" rx="{_n(item.rx)}" ry="{_n(item.ry)}" '
                f"{self.paint(item.paint)}/>"
            )
        if isinstance(item, Polygon):
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in item.points)
            return f'<polygon points="{points}" {self.paint(item.paint)}/>'
        if isinstance(item, Line):
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in item.points)
            cap = ' stroke-linecap="square"' if item.square else ""
            return f'<polyline points="{points}" {self.paint(item.paint, closed=False)}{cap}/>'
        if isinstance(item, Text):
            weight = ' font-weight="bold"' if item.weight == "bold" else ""
            style = ' font-style="oblique"' if item.weight == "italic" else ""
            rotate = f' transform="rotate({-item.rotate} {_n(item.x)} {_n(item.y)})"' if item.rotate else ""
            return (
                f'<text x="{_n(item.x)}" y="{_n(item.y)}" font-size="{_n(item.size)}"{weight}{style} '
                f'text-anchor="{item.anchor}" fill="{item.fill}"{rotate}>{escape(item.text)}</text>'
            )
        raise TypeError(f"not a drawing item: {type(item).__name__}")


def _scaled(item: Item, tile: float, ink: str) -> Item:
    """A pattern item on the unit tile in; the same item `tile` points across, in `ink` out."""
    from dataclasses import replace

    def paint(p: Paint) -> Paint:
        return replace(
            p,
            fill=ink if p.fill == "ink" else p.fill,
            stroke=ink if p.stroke == "ink" else p.stroke,
            width=p.width * tile,
        )

    if isinstance(item, Line):
        return Line(tuple((x * tile, y * tile) for x, y in item.points), paint(item.paint), item.square)
    if isinstance(item, Polygon):
        return Polygon(tuple((x * tile, y * tile) for x, y in item.points), paint(item.paint))
    if isinstance(item, Ellipse):
        return Ellipse(item.cx * tile, item.cy * tile, item.rx * tile, item.ry * tile, paint(item.paint))
    raise TypeError(type(item).__name__)


def to_svg(drawing: Drawing, *, standalone: bool = True) -> bytes:
    """A Drawing in; an SVG document out (UTF-8), `drawing.width` x `drawing.height` points."""
    writer = _Writer(drawing)
    body = []
    if drawing.background:
        body.append(
            f'<rect class="background" x="0" y="0" width="{_n(drawing.width)}" '
            f'height="{_n(drawing.height)}" fill="{drawing.background}"/>'
        )
    for layer in drawing.layers:
        inner = "".join(writer.item(item) for item in layer.items)
        if inner:
            move = f' transform="translate({_n(layer.offset[0])} {_n(layer.offset[1])})"' if any(layer.offset) else ""
            body.append(f'<g class="layer" data-layer="{layer.name}"{move}>{inner}</g>')
    defs = "".join(writer.pattern_def(key, pid) for key, pid in writer.patterns.items())
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(drawing.width)}pt" '
        f'height="{_n(drawing.height)}pt" viewBox="0 0 {_n(drawing.width)} {_n(drawing.height)}" '
        f'font-family="{FONT_FAMILY}" role="img">'
    )
    meta = ""
    if drawing.title:
        meta += f"<title>{escape(drawing.title)}</title>"
    if drawing.description:
        meta += f"<desc>{escape(drawing.description)}</desc>"
    out = (
        ('<?xml version="1.0" encoding="UTF-8"?>\n' if standalone else "")
        + head
        + meta
        + (f"<defs>{defs}</defs>" if defs else "")
        + "\n".join(body)
        + "</svg>\n"
    )
    return out.encode("utf-8")
