"""The map's symbols as display-list items: each function takes where (points) and how big, and
returns the items that draw it. The map (questc.draw.map) and the legend (questc.draw.legend)
call the same functions, so a legend shows the very marks the map does.

Colours, words and patterns come from templates/sheet/legend.yaml (Palette).
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from questc.draw.items import Box, Ellipse, Item, Line, Paint, Point, Polygon, Rect, Text
from questc.draw.metrics import baseline_for_middle

if TYPE_CHECKING:
    from questc.catalog.model import ObstacleKind
    from questc.model.quest import Marker

MIN_TEXT = 6.0  # points: no text on a printed map is smaller
# legend.yaml's data as read: a mapping whose values are what the file holds (a writer restyles it).
Style = dict[str, Any]


@cache
def legend_yaml() -> Style:
    from questc.paths import style_file

    return style_file("legend.yaml")


def _hex(value: object, fallback: str = "#888888") -> str:
    """A colour from legend.yaml (or a colour name a writer chose for stairs) in; "#rrggbb" out."""
    return _hex_of(str(value), fallback)


@lru_cache(maxsize=1024)  # a map asks for its few colours thousands of times
def _hex_of(value: str, fallback: str) -> str:
    from PIL import ImageColor

    try:
        r, g, b = ImageColor.getrgb(value)[:3]
    except (ValueError, AttributeError):
        r, g, b = ImageColor.getrgb(fallback)[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


def lighter(colour: str, amount: float) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{int(c + (255 - c) * amount):02x}" for c in (r, g, b))


class Palette:
    """legend.yaml's colours, words and obstacle styles, looked up."""

    def __init__(self, style: Style | None = None) -> None:
        self.style = style if style is not None else legend_yaml()
        self.colours = self.style["colours"]
        self.words = self.style["words"]

    def c(self, key: str) -> str:
        return _hex(self.colours.get(key, "#888888"))

    def word(self, key: str, **fields: object) -> str:
        return str(self.words.get(key, key)).format(**fields)

    def obstacle(self, kind: ObstacleKind) -> Style:
        style = dict(self.style.get("default_obstacle", {}))
        style.setdefault("label", kind.name.replace("_", " ").capitalize())
        style.update(self.style.get("obstacles", {}).get(kind.name, {}))
        symbol = getattr(kind, "symbol", None)  # a content pack's own symbol for its kind
        if isinstance(symbol, dict):
            style.update({k: v for k, v in symbol.items() if k in ("fill", "ink", "pattern", "label", "letter")})
        return style

    def rune(self, rune: str | None) -> str:
        return _hex(self.colours.get("runes", {}).get(rune, self.colours.get("other_rune", "#7f8c8d")))

    def rune_text(self, rune: str | None) -> str:
        return _hex(self.colours.get("rune_text", {}).get(rune, "#ffffff"))

    def stairs(self, colour: str) -> str:
        return _hex(colour, self.colours.get("stairs_default", "#7f8c8d"))


def symbol_text(cx: float, cy: float, text: str, size: float, fill: str, weight: str = "bold") -> list[Item]:
    """A letter inside a symbol, centred; left out when the symbol is too small to print it readably
    (the symbol's colour and the legend still tell it apart)."""
    if size < MIN_TEXT or not text:
        return []
    return [Text(cx, baseline_for_middle(cy, size), text, size, fill, weight)]


# ---- floor and obstacles --------------------------------------------------------------


def obstacle_cell(p: Palette, x: float, y: float, s: float, kind: ObstacleKind) -> list[Item]:
    style = p.obstacle(kind)
    pattern = style.get("pattern", "solid")
    return [
        Rect(
            x,
            y,
            s,
            s,
            Paint(
                fill=_hex(style.get("fill")),
                pattern=None if pattern == "solid" else pattern,
                ink=_hex(style.get("ink")),
                tile=s,
            ),
        )
    ]


def arrow(cx: float, cy: float, s: float, facing: str, fill: str) -> list[Item]:
    """An arrow pointing the way a facing trap acts (north is up)."""
    vx, vy = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}[facing]
    px, py = -vy, vx
    tip = (cx + vx * s * 0.34, cy + vy * s * 0.34)
    tail = (cx - vx * s * 0.2, cy - vy * s * 0.2)
    base = (cx + vx * s * 0.08, cy + vy * s * 0.08)
    return [
        Line((tail, base), Paint(stroke=fill, width=s * 0.07)),
        Polygon(
            (
                tip,
                (base[0] + px * s * 0.16, base[1] + py * s * 0.16),
                (base[0] - px * s * 0.16, base[1] - py * s * 0.16),
            ),
            Paint(fill=fill),
        ),
    ]


# ---- doors and stairs -------------------------------------------------------------------


def door(p: Palette, a: Point, b: Point, s: float, rune: str | None) -> tuple[list[Item], Box]:
    """A door on the stretch of edge from point a to point b: a plank (or rune-coloured) slab.
    Returns (items, the slab's box)."""
    horizontal = abs(a[1] - b[1]) < 1e-6
    t = s * 0.28
    inset = s * 0.1
    if horizontal:
        x0, x1 = min(a[0], b[0]) + inset, max(a[0], b[0]) - inset
        box = (x0, a[1] - t / 2, x1, a[1] + t / 2)
    else:
        y0, y1 = min(a[1], b[1]) + inset, max(a[1], b[1]) - inset
        box = (a[0] - t / 2, y0, a[0] + t / 2, y1)
    bx0, by0, bx1, by1 = box
    if rune:
        fill, ink = p.rune(rune), p.c("wall")
    else:
        fill, ink = p.c("door"), p.c("door_ink")
    items: list[Item] = [Rect(bx0, by0, bx1 - bx0, by1 - by0, Paint(fill=fill, stroke=ink, width=s * 0.03))]
    if rune:
        # a second, inner frame: rune doors read as doors even in grey print
        i = s * 0.05
        items.append(Rect(bx0 + i, by0 + i, bx1 - bx0 - 2 * i, by1 - by0 - 2 * i, Paint(stroke=ink, width=s * 0.015)))
    else:
        for k in range(1, 4):  # planks across the slab
            if horizontal:
                x = bx0 + (bx1 - bx0) * k / 4
                items.append(Line(((x, by0), (x, by1)), Paint(stroke=ink, width=s * 0.012)))
            else:
                y = by0 + (by1 - by0) * k / 4
                items.append(Line(((bx0, y), (bx1, y)), Paint(stroke=ink, width=s * 0.012)))
    return items, box


def stairs(p: Palette, x: float, y: float, s: float, colour_name: str) -> list[Item]:
    colour = p.stairs(colour_name)
    ink = p.c("wall")
    m = s * 0.1
    items: list[Item] = [
        Rect(x + m, y + m, s - 2 * m, s - 2 * m, Paint(fill=lighter(colour, 0.55), stroke=colour, width=s * 0.05))
    ]
    for k in range(5):  # steps narrowing upwards: a staircase seen from above
        yy = y + m + (s - 2 * m) * (k + 0.5) / 5
        half = (s - 2 * m) * (0.2 + 0.28 * k / 4)
        items.append(Line(((x + s / 2 - half, yy), (x + s / 2 + half, yy)), Paint(stroke=ink, width=s * 0.03)))
    return items


def edge_mark(p: Palette, a: Point, b: Point, s: float, outward: str, kind: str = "exit") -> list[Item]:
    """The way off the map along a stretch of edge (from point a to point b) of an entrance or exit's
    edge space (`kind`): a bar over the wall in its colour, an arrow pointing out of the map."""
    colour = p.c(kind)
    t = s * 0.14
    (x0, y0), (x1, y1) = a, b
    if abs(y0 - y1) < 1e-6:
        bar = Rect(min(x0, x1) + s * 0.08, y0 - t / 2, abs(x1 - x0) - s * 0.16, t, Paint(fill=colour))
    else:
        bar = Rect(x0 - t / 2, min(y0, y1) + s * 0.08, t, abs(y1 - y0) - s * 0.16, Paint(fill=colour))
    vx, vy = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}[outward]
    cx, cy = (x0 + x1) / 2 - vx * s * 0.3, (y0 + y1) / 2 - vy * s * 0.3
    return [bar] + arrow(cx, cy, s * 0.8, outward, colour)


# ---- markers ------------------------------------------------------------------------------


def glyph(p: Palette, cx: float, cy: float, r: float, active: bool) -> list[Item]:
    fill = p.c("glyph_active" if active else "glyph_inactive")
    ink = p.c("glyph_active_ink" if active else "glyph_inactive_ink")
    items: list[Item] = [
        Ellipse(cx, cy, r, r, Paint(fill=fill, stroke=ink, width=r * 0.12)),
        Ellipse(cx, cy, r * 0.68, r * 0.68, Paint(stroke=ink, width=r * 0.06)),
    ]
    if active:  # an eight-pointed star: the lit glyph
        points = []
        for k in range(16):
            radius = r * (0.6 if k % 2 == 0 else 0.24)
            angle = math.pi * k / 8 - math.pi / 2
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        items.append(Polygon(tuple(points), Paint(fill="#ffffff", stroke=ink, width=r * 0.04)))
    else:
        stroke = Paint(stroke=ink, width=r * 0.1)
        items += [
            Line(((cx - r * 0.35, cy - r * 0.35), (cx + r * 0.35, cy + r * 0.35)), stroke),
            Line(((cx - r * 0.35, cy + r * 0.35), (cx + r * 0.35, cy - r * 0.35)), stroke),
        ]
    return items


def chest(p: Palette, cx: float, cy: float, r: float, variant: str | None) -> list[Item]:
    style = p.style.get("chests", {}).get(variant, {"fill": "#999999", "letter": "?"})
    fill, ink = _hex(style.get("fill")), p.c("wall")
    w, h = r * 1.7, r * 1.25
    body = (cx - w / 2, cy - h / 2 + h * 0.28, cx + w / 2, cy + h / 2)
    lid = (cx - w / 2, cy - h / 2, cx + w / 2, cy - h / 2 + h * 0.36)
    items: list[Item] = [
        Rect(
            lid[0],
            lid[1],
            lid[2] - lid[0],
            lid[3] - lid[1],
            Paint(fill=lighter(fill, 0.25), stroke=ink, width=r * 0.08),
            radius=r * 0.2,
        ),
        Rect(body[0], body[1], body[2] - body[0], body[3] - body[1], Paint(fill=fill, stroke=ink, width=r * 0.08)),
        Rect(cx - r * 0.12, body[1] - r * 0.1, r * 0.24, r * 0.32, Paint(fill=ink)),
    ]
    return items + symbol_text(cx, (body[1] + body[3]) / 2 + r * 0.08, str(style.get("letter", "")), r * 0.55, ink)


def treasure(p: Palette, cx: float, cy: float, r: float, variant: str | None) -> list[Item]:
    style = p.style.get("treasures", {}).get(
        variant, p.style.get("default_treasure", {"fill": "#999999", "letter": "?"})
    )
    fill, ink = _hex(style.get("fill")), p.c("wall")
    items: list[Item] = [  # a flask: round body, short neck
        Rect(
            cx - r * 0.22, cy - r * 0.95, r * 0.44, r * 0.6, Paint(fill=lighter(fill, 0.4), stroke=ink, width=r * 0.07)
        ),
        Ellipse(cx, cy + r * 0.2, r * 0.8, r * 0.75, Paint(fill=fill, stroke=ink, width=r * 0.08)),
    ]
    return items + symbol_text(cx, cy + r * 0.2, str(style.get("letter", "")), r * 0.75, "#ffffff")


def relic(p: Palette, cx: float, cy: float, r: float) -> list[Item]:
    fill, ink = p.c("relic"), p.c("wall")
    return [
        Polygon(
            ((cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)),
            Paint(fill=fill, stroke=ink, width=r * 0.08),
        ),
        Polygon(
            ((cx, cy - r * 0.5), (cx + r * 0.4, cy), (cx, cy + r * 0.5), (cx - r * 0.4, cy)),
            Paint(fill=lighter(fill, 0.5)),
        ),
    ]


def runekey(p: Palette, cx: float, cy: float, r: float, colour: str | None) -> list[Item]:
    fill, ink = p.rune(colour), p.c("wall")
    w = r * 0.08
    items: list[Item] = [  # bow (ring) at the left, shaft to the right, two teeth down
        Ellipse(cx - r * 0.55, cy, r * 0.45, r * 0.45, Paint(fill=fill, stroke=ink, width=w)),
        Ellipse(cx - r * 0.55, cy, r * 0.17, r * 0.17, Paint(fill="#ffffff", stroke=ink, width=w / 2)),
        Rect(cx - r * 0.12, cy - r * 0.13, r * 1.12, r * 0.26, Paint(fill=fill, stroke=ink, width=w)),
    ]
    for tx in (0.55, 0.85):
        items.append(Rect(cx + r * (tx - 0.1), cy + r * 0.1, r * 0.16, r * 0.4, Paint(fill=fill, stroke=ink, width=w)))
    return items


def encounter(p: Palette, cx: float, cy: float, r: float, mark: str = "!") -> list[Item]:
    """The encounter hexagon; `mark` is printed inside ("!", or a key number)."""
    fill, ink = p.c("encounter"), p.c("encounter_ink")
    points = tuple((cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6))
    return [Polygon(points, Paint(fill=fill, stroke=ink, width=r * 0.08))] + symbol_text(
        cx, cy, mark, max(r * 1.1, MIN_TEXT) if mark != "!" else r * 1.1, "#ffffff"
    )


def search(p: Palette, cx: float, cy: float, r: float) -> list[Item]:
    """A second edition search token: a green disc with a question mark."""
    return [Ellipse(cx, cy, r, r, Paint(fill=p.c("search"), stroke=p.c("search_ink"), width=r * 0.1))] + symbol_text(
        cx, cy, "?", r * 1.2, "#ffffff"
    )


def objective(p: Palette, cx: float, cy: float, r: float, colour: str | None) -> list[Item]:
    """A second edition objective token: a target in the colour of the back shown."""
    styles = p.style.get("objectives", {})
    style = styles.get(colour or "plain", styles.get("plain", {"fill": "#e9e2cf", "ink": "#5b4a2a"}))
    fill, ink = _hex(style.get("fill")), _hex(style.get("ink"))
    return [
        Ellipse(cx, cy, r, r, Paint(fill=fill, stroke=ink, width=r * 0.12)),
        Ellipse(cx, cy, r * 0.6, r * 0.6, Paint(stroke=ink, width=r * 0.1)),
        Ellipse(cx, cy, r * 0.22, r * 0.22, Paint(fill=ink)),
    ]


def villager(p: Palette, cx: float, cy: float, r: float) -> list[Item]:
    """A villager token: a person (head and shoulders) on a pale disc."""
    ink = p.c("villager_ink")
    return [
        Ellipse(cx, cy, r, r, Paint(fill=p.c("villager"), stroke=ink, width=r * 0.1)),
        Ellipse(cx, cy - r * 0.3, r * 0.26, r * 0.26, Paint(fill=ink)),
        Polygon(
            (
                (cx - r * 0.5, cy + r * 0.62),
                (cx - r * 0.38, cy + r * 0.08),
                (cx + r * 0.38, cy + r * 0.08),
                (cx + r * 0.5, cy + r * 0.62),
            ),
            Paint(fill=ink),
        ),
    ]


def lieutenant(p: Palette, cx: float, cy: float, r: float) -> list[Item]:
    """A lieutenant's token: a shield with a gold rim (its name is a label beside it)."""
    fill, ring = p.c("lieutenant"), p.c("lieutenant_ring")
    shield = (
        (cx - r * 0.85, cy - r * 0.85),
        (cx + r * 0.85, cy - r * 0.85),
        (cx + r * 0.85, cy + r * 0.1),
        (cx, cy + r),
        (cx - r * 0.85, cy + r * 0.1),
    )
    return [Polygon(shield, Paint(fill=fill, stroke=ring, width=r * 0.16))] + symbol_text(
        cx, cy - r * 0.1, "L", r * 1.0, ring
    )


def unknown_marker(p: Palette, cx: float, cy: float, r: float) -> list[Item]:
    """A marker kind this map does not know: a plain token, never nothing."""
    return [Ellipse(cx, cy, r, r, Paint(fill="#c8c8c8", stroke=p.c("wall"), width=r * 0.08))]


def marker(p: Palette, m: Marker, cx: float, cy: float, r: float) -> list[Item]:
    if m.kind == "glyph":
        return glyph(p, cx, cy, r, m.active)
    if m.kind == "chest":
        return chest(p, cx, cy, r, m.variant)
    if m.kind == "treasure":
        return treasure(p, cx, cy, r, m.variant)
    if m.kind == "relic":
        return relic(p, cx, cy, r)
    if m.kind == "runekey":
        return runekey(p, cx, cy, r, m.variant)
    if m.kind == "encounter":
        return encounter(p, cx, cy, r)
    if m.kind == "search":
        return search(p, cx, cy, r)
    if m.kind == "objective":
        return objective(p, cx, cy, r, m.variant)
    if m.kind == "villager":
        return villager(p, cx, cy, r)
    if m.kind == "lieutenant":
        return lieutenant(p, cx, cy, r)
    return unknown_marker(p, cx, cy, r)


# ---- figures, badges, compass -------------------------------------------------------------


def figure_colours(p: Palette, rank: str) -> tuple[str, str, str]:
    """(fill, ring, text) of a figure of this rank."""
    if rank == "named":
        return p.c("figure_named"), p.c("figure_named_ring"), p.c("figure_named_text")
    if rank == "master":
        return p.c("figure_master"), p.c("figure_master_ink"), p.c("figure_master_text")
    return p.c("figure_normal"), p.c("figure_normal_ink"), p.c("figure_normal_text")


def figure_shape(
    x: float, y: float, s: float, footprint: tuple[int, int] = (1, 1)
) -> tuple[float, float, float, float]:
    """The token's box over its footprint (inset from the cells' edges, so it never reaches a wall)."""
    w, h = footprint
    inset = s * 0.09
    return (x + inset, y + inset, x + w * s - inset, y + h * s - inset)


def figure(p: Palette, x: float, y: float, s: float, rank: str, footprint: tuple[int, int] = (1, 1)) -> list[Item]:
    """A figure over its footprint: a disc (one cell) or a rounded slab (large); its words are labels."""
    fill, ink, _text = figure_colours(p, rank)
    x0, y0, x1, y1 = figure_shape(x, y, s, footprint)
    paint = Paint(fill=fill, stroke=ink, width=s * (0.07 if rank == "named" else 0.035))
    if tuple(footprint) == (1, 1):
        return [Ellipse((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2, paint)]
    return [Rect(x0, y0, x1 - x0, y1 - y0, paint, radius=s * 0.35)]


def conditional_ring(p: Palette, shape: Box, s: float, footprint: tuple[int, int] = (1, 1)) -> list[Item]:
    """The dashed ring round a figure's token that is set up only for some player counts (when the
    count's badge does not fit on it: the sheet's area list gives the count)."""
    x0, y0, x1, y1 = shape
    grow = s * 0.05
    paint = Paint(stroke=p.c("text"), width=max(0.35, s * 0.03), dash=(s * 0.07, s * 0.05))
    if tuple(footprint) == (1, 1):
        return [Ellipse((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 + grow, (y1 - y0) / 2 + grow, paint)]
    return [Rect(x0 - grow, y0 - grow, x1 - x0 + 2 * grow, y1 - y0 + 2 * grow, paint, radius=s * 0.38)]


def area_badge(
    p: Palette, cx: float, cy: float, r: float, area_id: str, size: float, width: float | None = None
) -> list[Item]:
    """An area's name on a white disc of radius r (or, `width` wider than the disc, a pill that wide)."""
    ink = p.c("area_border")
    paint = Paint(fill="#ffffff", stroke=ink, width=r * 0.14)
    shape = (
        Ellipse(cx, cy, r, r, paint)
        if width is None or width <= 2 * r + 0.01
        else Rect(cx - width / 2, cy - r, width, 2 * r, paint, radius=r)
    )
    return [shape, Text(cx, baseline_for_middle(cy, size), area_id, size, ink, "bold")]


def players_badge(p: Palette, cx: float, cy: float, text: str, size: float) -> tuple[list[Item], Box]:
    """The player-count badge of a figure kept only for some player counts: the count on a white pill.
    Returns (items, box)."""
    from questc.draw.metrics import text_width

    w = text_width(text, size) + size * 0.6
    h = size * 1.15
    box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    ink = p.c("figure_normal_ink")
    return [
        Rect(box[0], box[1], w, h, Paint(fill="#ffffff", stroke=ink, width=max(0.3, size * 0.06)), radius=h / 2),
        Text(cx, baseline_for_middle(cy, size), text, size, p.c("text")),
    ], box


def key_badge(p: Palette, cx: float, cy: float, number: str, size: float) -> tuple[list[Item], Box]:
    """A numbered key (its words are in the legend's key): the number on a dark disc. (items, box)."""
    from questc.draw.metrics import text_width

    r = max(text_width(number, size, "bold") * 0.62 + size * 0.2, size * 0.62)
    ink = p.c("text")
    return [
        Ellipse(cx, cy, r, r, Paint(fill=ink, stroke="#ffffff", width=max(0.3, size * 0.08))),
        Text(cx, baseline_for_middle(cy, size), number, size, "#ffffff", "bold"),
    ], (cx - r, cy - r, cx + r, cy + r)


def compass(p: Palette, cx: float, cy: float, r: float) -> list[Item]:
    ink = p.c("compass")
    items: list[Item] = [Ellipse(cx, cy, r * 0.62, r * 0.62, Paint(stroke=ink, width=r * 0.04))]
    for k, (vx, vy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):  # the north point dark
        px, py = -vy, vx
        tip = (cx + vx * r * 0.62, cy + vy * r * 0.62)
        side = (cx + px * r * 0.14, cy + py * r * 0.14)
        other = (cx - px * r * 0.14, cy - py * r * 0.14)
        items.append(
            Polygon((tip, side, (cx, cy), other), Paint(fill=ink if k == 0 else "#ffffff", stroke=ink, width=r * 0.02))
        )
    size = max(MIN_TEXT, r * 0.32)
    items.append(Text(cx, baseline_for_middle(cy - r * 0.82, size), p.word("north"), size, ink, "bold"))
    return items


def metrics_cap_half() -> float:
    """Half a capital's height per point of size: from a line's middle to its baseline."""
    from questc.draw.metrics import CAP

    return CAP / 2
