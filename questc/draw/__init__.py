"""The quest map, drawn once as a display list and rendered as SVG (vector) or PNG (Pillow).

    from questc.draw import draw_map, map_svg
    md = draw_map(quest, cell=20)        # a CompiledQuest's map, 20 points per map square
    svg = map_svg(quest, cell=20)        # bytes: the same map as an SVG document
    png = map_png(quest, cell=20, px_per_cell=160)

Modules: items (the display-list records: Rect, Ellipse, Polygon, Line, Text, Group, Layer,
Drawing), symbols (each mark of the map as items), patterns (obstacle fills), labels (where
words go: beside their thing, clear of walls, doors and symbols), map (the map from a compiled
quest), legend (the legend's entries and symbols), svg and raster (the two renderers),
metrics (text widths in the bundled font).

Geometry a caller can rely on (MapDrawing): `cell` points per square; `origin`, the board's
top-left cell; `left`, `top`, where that cell's top-left corner is in the drawing;
`columns`, `rows`; `cell_rect((x, y))` -> (x, y, width, height) of a cell's square;
`point(x, y)` -> a board lattice point's position; `cell_at(px, py)` -> the cell under a
point. The SVG uses points as its user units (viewBox 0 0 width height), so these numbers
are SVG coordinates too.

In the SVG, groups carry the map's meaning as data attributes:
  <g class="layer" data-layer="floor|obstacles|grid|outlines|stairs|borders|walls|doors|
     markers|figures|labels|frame">  each layer, bottom to top;
  <g class="cell" data-cell="x,y" data-area="A">  one per floor cell (its square);
  <g class="door" data-door="id">  a door's slab;
  <g class="area" data-area="A">  an area's letter badge;
  <g class="figure" data-cell="x,y" data-figure="kobold" data-rank="normal|master|named"
     [data-named="id"]>, <g class="marker" data-cell="x,y" data-marker="chest" ...>,
  <g class="obstacle" data-cell="x,y" data-obstacle="lava">, <g class="stairs" data-cell data-stairs>,
  <g class="label" data-for="door:id|marker:N|stairs:colour|obstacle:kind" [data-key="N"]>.
The <svg> has a <title> (the quest) and a <desc> naming the map's areas.

Sizes are points at the printed scale: choose `cell` as the map will print (the PDF sheet
does, from the page), and every word on it is at least symbols.MIN_TEXT (6 pt).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc.draw.map import LegendEntry, MapDrawing, PlacedLabel, draw_map, readable

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest

__all__ = ["draw_map", "map_svg", "map_png", "MapDrawing", "LegendEntry", "PlacedLabel", "readable"]


def map_svg(quest: CompiledQuest, cell: float = 20.0, title: bool = False) -> bytes:
    """A compiled quest in; its map (no legend) as SVG bytes out."""
    from questc.draw.svg import to_svg

    return to_svg(draw_map(quest, cell, title).drawing)


def map_png(quest: CompiledQuest, cell: float = 20.0, px_per_cell: int = 160, title: bool = False) -> bytes:
    """A compiled quest in; its map (no legend) as PNG bytes out, `px_per_cell` pixels a square."""
    from questc.draw.raster import to_png

    return to_png(draw_map(quest, cell, title).drawing, px_per_cell / cell)
