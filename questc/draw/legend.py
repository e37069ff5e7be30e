"""The legend: each entry's symbol (the map's own mark, drawn small) and, for the PNG, the whole
legend laid out under the map (compass rose, heading, entries in columns). The PDF sets the
legend's words itself, as tagged text, beside symbol_drawing()'s SVG.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from questc.draw import symbols as sym
from questc.draw.items import Drawing, Item, Layer, Line, Paint, Rect, Text
from questc.draw.metrics import baseline_for_middle, shortened, text_width
from questc.draw.symbols import Palette

if TYPE_CHECKING:
    from collections.abc import Sequence

    from questc.draw.map import LegendEntry

PAD = 0.12  # a door and a figure jut out of their square by up to a tenth of it


def symbol_items(p: Palette, what: tuple[Any, ...], x: float, y: float, s: float, tint: str) -> list[Item]:
    """A legend entry's `what` in; the items drawing its symbol in the square (x, y, s) out."""
    kind = what[0]
    cx, cy = x + s / 2, y + s / 2
    floor = Rect(x, y, s, s, Paint(fill=tint))
    if kind == "floor":
        return [Rect(x, y, s, s, Paint(fill=tint, stroke=p.c("grid"), width=s * 0.04))]
    if kind == "wall":
        w = s * 0.18
        return [floor, Rect(x, cy - w / 2, s, w, Paint(fill=p.c("wall")))]
    if kind == "door":
        items, _box = sym.door(p, (x - s * 0.2, cy), (x + s * 1.2, cy), s * 0.9, what[1])
        return [floor] + items
    if kind == "area_border":
        return [
            floor,
            Line(((x, cy), (x + s, cy)), Paint(stroke=p.c("area_border"), width=s * 0.1, dash=(s * 0.3, s * 0.15))),
        ]
    if kind == "figure":
        return sym.figure(p, x - s * 0.05, y - s * 0.05, s * 1.1, what[1])
    if kind == "ring":
        shape = sym.figure_shape(x - s * 0.05, y - s * 0.05, s * 1.1)
        return sym.figure(p, x - s * 0.05, y - s * 0.05, s * 1.1, "normal") + sym.conditional_ring(p, shape, s)
    if kind == "players":
        items, _box = sym.players_badge(p, cx, cy, what[1], max(sym.MIN_TEXT, s * 0.45))
        return items
    if kind == "glyph":
        return sym.glyph(p, cx, cy, s * 0.45, what[1])
    if kind == "chest":
        return sym.chest(p, cx, cy, s * 0.45, what[1])
    if kind == "treasure":
        return sym.treasure(p, cx, cy, s * 0.45, what[1])
    if kind == "relic":
        return sym.relic(p, cx, cy, s * 0.45)
    if kind == "runekey":
        return sym.runekey(p, cx, cy, s * 0.45, what[1])
    if kind == "encounter":
        return sym.encounter(p, cx, cy, s * 0.45)
    if kind == "search":
        return sym.search(p, cx, cy, s * 0.45)
    if kind == "objective":
        return sym.objective(p, cx, cy, s * 0.45, what[1])
    if kind == "villager":
        return sym.villager(p, cx, cy, s * 0.45)
    if kind == "lieutenant":
        return sym.lieutenant(p, cx, cy, s * 0.45)
    if kind == "edge":
        return [floor] + sym.edge_mark(p, (x, y + s), (x + s, y + s), s, "south", what[1])
    if kind == "stairs":
        return sym.stairs(p, x, y, s, what[1])
    if kind == "obstacle":
        obstacle = what[1]
        colour = p.c("trap_border") if obstacle.trap else sym._hex(p.obstacle(obstacle).get("ink"))
        return sym.obstacle_cell(p, x, y, s, obstacle) + [
            Rect(x, y, s, s, Paint(stroke=colour, width=s * 0.06, dash=(s * 0.2, s * 0.1) if obstacle.trap else None))
        ]
    if kind == "arrow":
        return [floor] + sym.arrow(cx, cy, s, "east", p.c("trap_border"))
    if kind == "leader":
        return [
            Line(((x, y + s * 0.8), (x + s * 0.55, y + s * 0.35)), Paint(stroke=p.c("text"), width=s * 0.05)),
            Rect(
                x + s * 0.45,
                y + s * 0.15,
                s * 0.55,
                s * 0.35,
                Paint(fill="#ffffff", stroke=p.c("grid"), width=s * 0.04),
                radius=s * 0.17,
            ),
        ]
    if kind == "area":
        size = max(sym.MIN_TEXT, s * 0.5)
        return sym.area_badge(
            p, cx, cy, max(s * 0.42, text_width(what[1], size, "bold") * 0.62 + size * 0.15), what[1], size
        )
    if kind == "key":
        items, _box = sym.key_badge(p, cx, cy, what[1], max(sym.MIN_TEXT, s * 0.5))
        return items
    if kind == "code":
        fill, ink, text = sym.figure_colours(p, "normal")
        size = max(sym.MIN_TEXT, s * 0.4)
        return sym.figure(p, x - s * 0.05, y - s * 0.05, s * 1.1, "normal") + [
            Text(cx, baseline_for_middle(cy, size), what[1], size, text, "bold")
        ]
    return []


def symbol_drawing(p: Palette, what: tuple[Any, ...], size: float, tint: str) -> Drawing:
    """One legend symbol alone, `size` points square plus PAD of that on each side, on a clear ground."""
    pad = size * PAD
    layer = Layer("symbol", symbol_items(p, what, pad, pad, size, tint))
    return Drawing(size + 2 * pad, size + 2 * pad, [layer], background=None)


def legend_drawing(
    p: Palette, entries: Sequence[LegendEntry], width: float, tint: str, *, heading: str | None = None
) -> Drawing:
    """The legend laid out `width` points wide (questc.draw.page.plan_legend's columns, styles.yaml's
    sizes): the compass rose at the left, the heading, the entries down columns."""
    from questc.draw.page import legend_spec, plan_legend

    spec = legend_spec()
    heading = heading if heading is not None else p.word("legend")
    size, icon = float(spec["size"]), float(spec["icon"])
    compass = float(spec.get("compass", 34))
    left = compass + float(spec.get("compass_gap", 12))
    plan = plan_legend(entries, width - left, spec)
    head = float(spec["heading_size"]) * 1.8
    row = float(spec["row"])
    layer = Layer("legend")
    layer.add(*sym.compass(p, compass / 2, compass / 2 + size * 0.4, compass / 2))
    layer.add(
        Text(
            left, float(spec["heading_size"]), heading, float(spec["heading_size"]), p.c("text"), "bold", anchor="start"
        )
    )
    x = left
    for col, column_width in enumerate(plan.widths):
        for r in range(plan.rows):
            index = col * plan.rows + r
            if index >= len(entries):
                break
            entry = entries[index]
            y = head + r * row + (row - icon) / 2
            layer.add(*symbol_items(p, entry.what, x, y, icon, tint))
            # Words never run past the picture's edge (the legend stands in the picture's margin,
            # which a long last column may use).
            room = width - x - float(spec["label_gap"])
            layer.add(
                Text(
                    x + icon + float(spec["label_gap"]),
                    baseline_for_middle(y + icon / 2, size),
                    shortened(entry.label, room, size),
                    size,
                    p.c("text"),
                    anchor="start",
                )
            )
        x += column_width + plan.gap
    height = max(compass + size, head + plan.rows * row) + 4
    return Drawing(width, height, [layer], background=None)
