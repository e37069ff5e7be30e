"""The display list: what a drawing is made of, independent of any canvas.

A Drawing is a list of layers, each a list of items in painting order. Coordinates
are in points (1/72 inch) at the printed scale, y down, as in SVG. Every item is a
frozen dataclass; the SVG writer (questc.draw.svg) and the Pillow painter
(questc.draw.raster) read the same list, so the two outputs look alike.

Colours are "#rrggbb" strings (or None: no fill / no stroke).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from questc.records import record

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Attrs = tuple[tuple[str, str], ...]  # data attributes, in order: (("cell", "3,4"), ...)


@record
class Paint:
    """How a shape is filled and stroked. `pattern`: a pattern name (questc.draw.patterns) drawn in
    `ink` over the fill, aligned to `tile` points; `dash`: (on, off) lengths of a dashed stroke."""

    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, float] | None = None
    pattern: str | None = None
    ink: str | None = None
    tile: float = 0.0


@record
class Rect:
    """A rectangle, its corners rounded by `radius`."""

    x: float
    y: float
    w: float
    h: float
    paint: Paint
    radius: float = 0.0


@record
class Ellipse:
    """An ellipse by its centre and radii."""

    cx: float
    cy: float
    rx: float
    ry: float
    paint: Paint


@record
class Polygon:
    """A closed polygon, filled and outlined by its paint."""

    points: tuple[Point, ...]
    paint: Paint


@record
class Line:
    """An open polyline: stroke only (`paint.stroke`, `paint.width`, `paint.dash`); square caps
    when `square`, so wall corners close."""

    points: tuple[Point, ...]
    paint: Paint
    square: bool = False


@record
class Text:
    """One line of text. (x, y) is the baseline point at `anchor` (start, middle, end); `size` in points;
    `weight`: regular, bold or italic. `rotate`: degrees counter-clockwise about (x, y) (90: read
    bottom to top). `box` is the text's ink box, measured with the bundled font (labels.text_box)."""

    x: float
    y: float
    text: str
    size: float
    fill: str
    weight: str = "regular"
    anchor: str = "middle"
    rotate: int = 0


@record
class Group:
    """Items with a role: `role` names what they draw (cell, door, figure, label, ...), `attrs` become
    the SVG group's data attributes (data-cell, data-area, data-door, ...)."""

    role: str
    items: tuple  # of Items (the display list's readers are untyped yet)
    attrs: Attrs = ()


# What a layer or a group holds.
Item = Rect | Ellipse | Polygon | Line | Text | Group


@dataclass
class Layer:
    """A named list of items; `offset` (dx, dy) moves the whole layer (a legend set under a map)."""

    name: str
    items: list = field(default_factory=list)  # of Items
    offset: tuple[float, float] = (0.0, 0.0)

    def add(self, *items: Item) -> None:
        self.items.extend(items)


@dataclass
class Drawing:
    """A finished picture: `width` x `height` points, its layers bottom to top, a background colour,
    a title for the SVG <title> and a description (alt text) for its <desc>."""

    width: float
    height: float
    layers: list[Layer]
    background: str | None = "#ffffff"
    title: str = ""
    description: str = ""

    def layer(self, name: str) -> Layer:
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise KeyError(name)


def walk(items: Iterable[Item]) -> Iterator[Rect | Ellipse | Polygon | Line | Text]:
    """Items (groups opened) in; every drawable item out, in painting order."""
    for item in items:
        if isinstance(item, Group):
            yield from walk(item.items)
        else:
            yield item


def shifted(item: Item, dx: float, dy: float) -> Item:
    """An item in; the same item moved by (dx, dy) out."""
    from dataclasses import replace

    if isinstance(item, Group):
        return replace(item, items=tuple(shifted(i, dx, dy) for i in item.items))
    if isinstance(item, Rect):
        return replace(item, x=item.x + dx, y=item.y + dy)
    if isinstance(item, Ellipse):
        return replace(item, cx=item.cx + dx, cy=item.cy + dy)
    if isinstance(item, (Polygon, Line)):
        return replace(item, points=tuple((x + dx, y + dy) for x, y in item.points))
    if isinstance(item, Text):
        return replace(item, x=item.x + dx, y=item.y + dy)
    raise TypeError(type(item).__name__)
