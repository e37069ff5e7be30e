"""A compiled QuestResult in; the printable map out: a PNG (or a Pillow image) drawn to scale.

Every cell is `cell` pixels square (160 by default, so a print at 150 dpi or more
keeps a cell near the size of a real map square; a map too wide for PIXEL_BUDGET is
drawn with smaller cells). Drawn, bottom to top: floor tinted
by area, obstacles and traps (fill, pattern, outline, facing arrow), grid lines,
stairs, area borders, walls, doors (rune doors in their colour), markers, figures
(normal tan, master red, named crimson with a gold ring and the monster's name;
large figures over their whole footprint), area letters, labels; then the grid
reference, a compass rose and a legend of what this map holds.

The PDF sheet prints the map without that legend (render_map_parts): it sets the
legend's words itself, as text, beside each symbol drawn here as a small picture.

Words, colours and patterns come from templates/sheet/legend.yaml. The bundled font
and a fixed drawing order make the pixels the same on every machine; the PNG is
written without timestamps or other metadata.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from questc.catalog.model import ObstacleKind

DEFAULT_CELL = 160
MIN_CELL = 16
# No picture is larger than this many pixels (width x height; 3 bytes each while it is
# drawn, so 150 MB): a map too wide for it is drawn with smaller cells, down to MIN_CELL,
# which fits the largest map questc checks (400 x 400 cells). The largest shipped quest
# is 27 million pixels at the default 160, so real quests keep their full size.
PIXEL_BUDGET = 50_000_000

Cell = tuple[int, int]


# ---- layout -----------------------------------------------------------------------


@dataclass(frozen=True)
class MapLayout:
    """Where the map stands in the picture.

    cell: pixels per cell; origin: the board's top-left cell; columns, rows: the
    board's size in cells; left, top: the pixel of the origin cell's top-left corner;
    width, height: the picture's size; legend_top: where the legend starts.
    """

    cell: int
    origin: Cell
    columns: int
    rows: int
    left: int
    top: int
    width: int
    height: int
    legend_top: int

    def point(self, x: float, y: float) -> tuple[float, float]:
        """A lattice point of the board (x, y) in; its pixel out."""
        return (self.left + (x - self.origin[0]) * self.cell, self.top + (y - self.origin[1]) * self.cell)

    def cell_box(self, cell: Cell) -> tuple[float, float, float, float]:
        """A cell in; its pixel box (x0, y0, x1, y1) out."""
        x0, y0 = self.point(*cell)
        return (x0, y0, x0 + self.cell, y0 + self.cell)

    def centre(self, cell: Cell) -> tuple[float, float]:
        x0, y0 = self.point(*cell)
        return (x0 + self.cell / 2, y0 + self.cell / 2)


@lru_cache(maxsize=None)
def _style() -> dict:
    from questc.emit.sheet import load_yaml

    return load_yaml("legend.yaml")


def _rgb(value, fallback="#888888") -> tuple[int, int, int]:
    """A colour from legend.yaml (or a stairs colour name a writer chose) in; RGB out."""
    from PIL import ImageColor

    try:
        return ImageColor.getrgb(str(value))[:3]
    except (ValueError, AttributeError):
        return ImageColor.getrgb(fallback)[:3]


def _lighter(rgb, amount: float) -> tuple[int, int, int]:
    r, g, b = (int(c + (255 - c) * amount) for c in rgb)
    return r, g, b


def _font(size: float, style: str = "regular"):
    from questc.emit.fonts import pillow_font

    return pillow_font(max(6, int(round(size))), style)


# ---- the painter -------------------------------------------------------------------


class _Painter:
    """Draws one quest's map onto a Pillow image; each `draw_*` takes a box and a size, so the
    legend reuses the very shapes the map shows."""

    def __init__(self, result, cell: int, title: bool, legend: bool = True, budget: int = PIXEL_BUDGET):
        from PIL import Image, ImageDraw

        self.result = result
        self.model = result.model
        self.qb = result.context.board
        self.board = self.qb.board
        self.style = _style()
        self.colours = self.style["colours"]
        self.words = self.style["words"]
        self.s = cell
        self.show_title = title
        self.show_legend = legend
        self._collect()
        self.layout = self._layout()
        budget = min(budget, PIXEL_BUDGET)
        while self.layout.width * self.layout.height > budget and self.s > MIN_CELL:
            shrink = math.sqrt(budget / (self.layout.width * self.layout.height))
            self.s = max(MIN_CELL, min(self.s - 1, int(self.s * shrink)))
            self.layout = self._layout()
        if self.layout.width * self.layout.height > PIXEL_BUDGET:
            raise ValueError(f"the map is too large to draw: {self.layout.width:,} x {self.layout.height:,} "
                             f"pixels at {self.s} per cell, over the budget of {PIXEL_BUDGET:,}")
        self.image = Image.new("RGB", (self.layout.width, self.layout.height), self.c("background"))
        self.draw = ImageDraw.Draw(self.image)

    # colours and words --------------------------------------------------------------
    def c(self, key: str):
        return _rgb(self.colours.get(key, "#888888"))

    def word(self, key: str, **fields) -> str:
        return str(self.words.get(key, key)).format(**fields)

    def obstacle_style(self, kind) -> dict:
        style = dict(self.style.get("default_obstacle", {}))
        style.setdefault("label", kind.name.replace("_", " ").capitalize())
        style.update(self.style.get("obstacles", {}).get(kind.name, {}))
        return style

    def rune_colour(self, rune: str | None):
        return _rgb(self.colours.get("runes", {}).get(rune, self.colours.get("other_rune", "#7f8c8d")))

    def rune_text(self, rune: str | None):
        return _rgb(self.colours.get("rune_text", {}).get(rune, "#ffffff"))

    # what the map holds ----------------------------------------------------------------
    def _collect(self) -> None:
        model = self.model
        self.area_ids = list(model.areas)
        self.area_of: dict[Cell, str] = {}
        for area in model.areas.values():
            for cell in sorted(area.cells):
                self.area_of.setdefault(cell, area.id)
        self.tint = self._tints()
        self.obstacle_groups = _obstacle_groups(model.obstacles)
        self.border_edges = self._border_edges()
        # Cells a figure covers: markers there are drawn small in a corner so both show.
        self.figure_cells = {c for f in model.figures for c in f.cells}
        self.busy = set(self.figure_cells) | {m.at for m in model.markers} | \
            {c for o in model.obstacles for c in o.cells} | {e for s in self.board.stairs for e in s.ends}

    def _tints(self) -> dict[str, tuple[int, int, int]]:
        """Area id -> floor tint: greedy colouring in source order, so two areas that touch
        (side by side or through a door) never share a tint while the palette allows it."""
        palette = [_rgb(c) for c in self.colours["floor"]]
        touching: dict[str, set] = {a: set() for a in self.area_ids}
        for (x, y), area in self.area_of.items():
            for other in ((x + 1, y), (x, y + 1)):
                neighbour = self.area_of.get(other)
                if neighbour is not None and neighbour != area:
                    touching[area].add(neighbour)
                    touching[neighbour].add(area)
        for stairs in self.board.stairs:   # stairs join their areas too
            a, b = (self.area_of.get(end) for end in stairs.ends)
            if a and b and a != b:
                touching[a].add(b)
                touching[b].add(a)
        chosen: dict[str, int] = {}
        for index, area in enumerate(self.area_ids):
            taken = {chosen[n] for n in touching[area] if n in chosen}
            free = [k for k in range(len(palette)) if k not in taken]
            # among the free tints, the least used so far: areas far apart still vary
            counts = {k: list(chosen.values()).count(k) for k in free}
            chosen[area] = min(free, key=lambda k: (counts[k], k)) if free else index % len(palette)
        return {area: palette[k] for area, k in chosen.items()}

    def _border_edges(self) -> list:
        """Edges between floor cells of two areas where no wall or door stands: the area borders."""
        board = self.board
        floor = set(board.cells)
        doors = {e for edges in self.qb.door_edges.values() for e in edges}
        out = []
        for (x, y) in board.cells:
            for other, edge in (((x + 1, y), (x + 1, y, x + 1, y + 1)), ((x, y + 1), (x, y + 1, x + 1, y + 1))):
                if other in floor and self.area_of.get((x, y)) != self.area_of.get(other) \
                        and edge not in board.walls and edge not in doors:
                    out.append(edge)
        return out

    # layout ----------------------------------------------------------------------------
    def _layout(self) -> MapLayout:
        s = self.s
        margin = int(s * 0.42)            # room for the grid reference numbers
        title_h = int(s * 0.62) if self.show_title else 0
        left = margin + int(s * 0.12)
        top = title_h + margin
        map_w, map_h = self.board.width * s, self.board.height * s
        width = left + map_w + margin + int(s * 0.12)
        self.legend_entries = self._legend_entries()
        if self.show_legend:
            legend_top = top + map_h + margin + int(s * 0.2)
            self.legend_plan = self._plan_legend(width)
            height = legend_top + self.legend_plan["height"] + int(s * 0.3)
        else:   # the map and its grid reference only: the PDF sets the legend itself
            legend_top = height = top + map_h + margin + int(s * 0.12)
        return MapLayout(s, self.board.origin, self.board.width, self.board.height,
                         left, top, width, height, legend_top)

    # small drawing helpers ---------------------------------------------------------
    def text(self, xy, string, size, fill, anchor="mm", style="regular"):
        self.draw.text(xy, string, font=_font(size, style), fill=fill, anchor=anchor)

    def fit_size(self, string: str, width: float, size: float, style="regular", minimum=None) -> float:
        """The largest font size up to `size` at which `string` fits in `width` pixels."""
        minimum = minimum if minimum is not None else size * 0.45
        while size > minimum and _font(size, style).getlength(string) > width:
            size *= 0.92
        return max(size, minimum)

    def wrap(self, string: str, width: float, size: float, style="regular", lines=2):
        """Words in; (lines, font size) out: at most `lines` lines, shrunk until each fits `width`."""
        words = string.split()
        best = None
        for count in range(1, min(lines, len(words)) + 1):
            # split into `count` lines of near-equal length
            per = math.ceil(len(words) / count)
            chunks = [" ".join(words[i:i + per]) for i in range(0, len(words), per)]
            longest = max(chunks, key=lambda t: _font(size, style).getlength(t))
            fitted = self.fit_size(longest, width, size / (1 + 0.18 * (len(chunks) - 1)), style, minimum=size * 0.3)
            if best is None or fitted > best[1] * 1.05:
                best = (chunks, fitted)
        return best if best else ([string], size)

    def pill_label(self, xy, string, size, fill, background, ink=None, anchor="mm"):
        """Text on a small white rounded plate, so a label stays legible over patterns."""
        font = _font(size)
        x0, y0, x1, y1 = self.draw.textbbox(xy, string, font=font, anchor=anchor)
        pad = max(2, size * 0.25)
        self.draw.rounded_rectangle((x0 - pad, y0 - pad * 0.7, x1 + pad, y1 + pad * 0.7), radius=pad,
                                    fill=background, outline=ink, width=max(1, int(size * 0.08)))
        self.draw.text(xy, string, font=font, fill=fill, anchor=anchor)

    def rotated_text(self, centre, string, size, fill, style="regular"):
        """Text turned 90 degrees (read bottom to top), for labels on vertical doors."""
        from PIL import Image, ImageDraw

        font = _font(size, style)
        x0, y0, x1, y1 = font.getbbox(string)
        tile = Image.new("L", (int(x1 - x0) + 4, int(y1 - y0) + 4), 0)
        ImageDraw.Draw(tile).text((2 - x0, 2 - y0), string, font=font, fill=255)
        tile = tile.rotate(90, expand=True)
        px, py = int(centre[0] - tile.width / 2), int(centre[1] - tile.height / 2)
        self.image.paste(fill, (px, py, px + tile.width, py + tile.height), tile)

    def dashed(self, a, b, width, fill, dash, gap):
        (x0, y0), (x1, y1) = a, b
        length = math.hypot(x1 - x0, y1 - y0)
        if length == 0:
            return
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        pos = 0.0
        while pos < length:
            end = min(pos + dash, length)
            self.draw.line((x0 + ux * pos, y0 + uy * pos, x0 + ux * end, y0 + uy * end), fill=fill, width=width)
            pos = end + gap

    def thick_edge(self, a, b, width, fill):
        """A wall-like stroke from lattice pixel a to b with square ends (corners then close neatly)."""
        (x0, y0), (x1, y1) = a, b
        h = width / 2
        self.draw.rectangle((min(x0, x1) - h, min(y0, y1) - h, max(x0, x1) + h, max(y0, y1) + h), fill=fill)

    # patterns ------------------------------------------------------------------------
    def fill_cell(self, box, fill, pattern, ink):
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        self.draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill)
        if pattern and pattern != "solid":
            size = x1 - x0
            self.image.paste(ink, (x0, y0, x0 + size, y0 + size), _pattern_tile(pattern, size))

    def outline_cells(self, cells, s, point, width, fill, dashed=False):
        """The outer boundary of a group of cells (edges with a neighbour outside the group)."""
        cells = set(cells)
        for (x, y) in sorted(cells):
            for (nx, ny), edge in (((x, y - 1), ((x, y), (x + 1, y))), ((x, y + 1), ((x, y + 1), (x + 1, y + 1))),
                                   ((x - 1, y), ((x, y), (x, y + 1))), ((x + 1, y), ((x + 1, y), (x + 1, y + 1)))):
                if (nx, ny) in cells:
                    continue
                a, b = point(*edge[0]), point(*edge[1])
                # pull the stroke inside the group so it never hides a wall
                inset = width / 2 + 1
                dx = 0 if nx == x else (inset if nx < x else -inset)
                dy = 0 if ny == y else (inset if ny < y else -inset)
                a, b = (a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy)
                if dashed:
                    self.dashed(a, b, max(1, int(width)), fill, s * 0.16, s * 0.08)
                else:
                    self.draw.line((a, b), fill=fill, width=max(1, int(width)))

    # shapes (each takes a cell box: x0, y0 and the cell size s) -----------------------
    def draw_floor(self, box, s, tint):
        x0, y0 = box
        self.draw.rectangle((x0, y0, x0 + s - 1, y0 + s - 1), fill=tint)

    def draw_obstacle_cell(self, box, s, kind):
        style = self.obstacle_style(kind)
        x0, y0 = box
        self.fill_cell((x0, y0, x0 + s, y0 + s), _rgb(style.get("fill")), style.get("pattern", "solid"),
                       _rgb(style.get("ink")))

    def draw_arrow(self, centre, s, facing, fill):
        """An arrow pointing the way a facing trap acts (north is up)."""
        cx, cy = centre
        vx, vy = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}[facing]
        px, py = -vy, vx
        tip = (cx + vx * s * 0.34, cy + vy * s * 0.34)
        tail = (cx - vx * s * 0.2, cy - vy * s * 0.2)
        base = (cx + vx * s * 0.08, cy + vy * s * 0.08)
        self.draw.line((tail, base), fill=fill, width=max(2, int(s * 0.07)))
        self.draw.polygon([tip, (base[0] + px * s * 0.16, base[1] + py * s * 0.16),
                           (base[0] - px * s * 0.16, base[1] - py * s * 0.16)], fill=fill)

    def draw_door(self, a, b, s, rune, label=None):
        """A door on the stretch of edge from pixel a to pixel b: a plank (or rune-coloured) slab."""
        horizontal = abs(a[1] - b[1]) < 1e-6
        t = s * 0.28
        inset = s * 0.1
        if horizontal:
            x0, x1 = min(a[0], b[0]) + inset, max(a[0], b[0]) - inset
            box = (x0, a[1] - t / 2, x1, a[1] + t / 2)
        else:
            y0, y1 = min(a[1], b[1]) + inset, max(a[1], b[1]) - inset
            box = (a[0] - t / 2, y0, a[0] + t / 2, y1)
        if rune:
            fill, ink, text_colour = self.rune_colour(rune), self.c("wall"), self.rune_text(rune)
        else:
            fill, ink, text_colour = self.c("door"), self.c("door_ink"), self.c("door_text")
        self.draw.rectangle(box, fill=fill, outline=ink, width=max(2, int(s * 0.03)))
        if rune:
            # a second, inner frame: rune doors read as doors even in grey print
            i = s * 0.05
            self.draw.rectangle((box[0] + i, box[1] + i, box[2] - i, box[3] - i), outline=ink,
                                width=max(1, int(s * 0.015)))
        else:
            # planks across the slab
            steps = 4
            for k in range(1, steps):
                if horizontal:
                    x = box[0] + (box[2] - box[0]) * k / steps
                    self.draw.line((x, box[1], x, box[3]), fill=ink, width=max(1, int(s * 0.012)))
                else:
                    y = box[1] + (box[3] - box[1]) * k / steps
                    self.draw.line((box[0], y, box[2], y), fill=ink, width=max(1, int(s * 0.012)))
        if label:
            length = (box[2] - box[0]) if horizontal else (box[3] - box[1])
            size = self.fit_size(label, length * 0.8, s * 0.17, "bold", minimum=s * 0.08)
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            if horizontal:
                if not rune:
                    # planks under the words would blur them
                    w = _font(size, "bold").getlength(label) + s * 0.08
                    self.draw.rectangle((centre[0] - w / 2, box[1] + 2, centre[0] + w / 2, box[3] - 2), fill=fill)
                self.text(centre, label, size, text_colour, style="bold")
            else:
                if not rune:
                    w = _font(size, "bold").getlength(label) + s * 0.08
                    self.draw.rectangle((box[0] + 2, centre[1] - w / 2, box[2] - 2, centre[1] + w / 2), fill=fill)
                self.rotated_text(centre, label, size, text_colour, style="bold")

    def draw_stairs(self, box, s, colour_name, label=True):
        x0, y0 = box
        colour = _rgb(colour_name, self.colours.get("stairs_default", "#7f8c8d"))
        ink = self.c("wall")
        m = s * 0.1
        self.draw.rectangle((x0 + m, y0 + m, x0 + s - m, y0 + s - m), fill=_lighter(colour, 0.55), outline=colour,
                            width=max(2, int(s * 0.05)))
        # steps narrowing upwards: a staircase seen from above
        steps = 5
        for k in range(steps):
            yy = y0 + m + (s - 2 * m) * (k + 0.5) / steps
            half = (s - 2 * m) * (0.2 + 0.28 * k / (steps - 1))
            self.draw.line((x0 + s / 2 - half, yy, x0 + s / 2 + half, yy), fill=ink, width=max(1, int(s * 0.03)))
        if label:
            self.pill_label((x0 + s / 2, y0 + s - m - s * 0.02), colour_name, s * 0.14, self.c("text"),
                            self.c("label_background"), anchor="mb")

    def draw_glyph(self, centre, r, active):
        cx, cy = centre
        fill = self.c("glyph_active" if active else "glyph_inactive")
        ink = self.c("glyph_active_ink" if active else "glyph_inactive_ink")
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=ink, width=max(2, int(r * 0.12)))
        self.draw.ellipse((cx - r * 0.68, cy - r * 0.68, cx + r * 0.68, cy + r * 0.68), outline=ink,
                          width=max(1, int(r * 0.06)))
        if active:
            # an eight-pointed star: the lit glyph
            points = []
            for k in range(16):
                radius = r * (0.6 if k % 2 == 0 else 0.24)
                angle = math.pi * k / 8 - math.pi / 2
                points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
            self.draw.polygon(points, fill=(255, 255, 255), outline=ink)
        else:
            self.draw.line((cx - r * 0.35, cy - r * 0.35, cx + r * 0.35, cy + r * 0.35), fill=ink,
                           width=max(1, int(r * 0.1)))
            self.draw.line((cx - r * 0.35, cy + r * 0.35, cx + r * 0.35, cy - r * 0.35), fill=ink,
                           width=max(1, int(r * 0.1)))

    def draw_chest(self, centre, r, variant):
        cx, cy = centre
        style = self.style.get("chests", {}).get(variant, {"fill": "#999999", "letter": "?"})
        fill, ink = _rgb(style.get("fill")), self.c("wall")
        w, h = r * 1.7, r * 1.25
        body = (cx - w / 2, cy - h / 2 + h * 0.28, cx + w / 2, cy + h / 2)
        lid = (cx - w / 2, cy - h / 2, cx + w / 2, cy - h / 2 + h * 0.36)
        self.draw.rounded_rectangle(lid, radius=r * 0.2, fill=_lighter(fill, 0.25), outline=ink,
                                    width=max(2, int(r * 0.08)))
        self.draw.rectangle(body, fill=fill, outline=ink, width=max(2, int(r * 0.08)))
        self.draw.rectangle((cx - r * 0.12, body[1] - r * 0.1, cx + r * 0.12, body[1] + r * 0.22), fill=ink)
        self.text((cx, (body[1] + body[3]) / 2 + r * 0.08), str(style.get("letter", "")), r * 0.55, ink,
                  style="bold")

    def draw_treasure(self, centre, r, variant):
        cx, cy = centre
        styles = self.style.get("treasures", {})
        style = styles.get(variant, self.style.get("default_treasure", {"fill": "#999999", "letter": "?"}))
        fill, ink = _rgb(style.get("fill")), self.c("wall")
        # a flask: round body, short neck
        self.draw.rectangle((cx - r * 0.22, cy - r * 0.95, cx + r * 0.22, cy - r * 0.35), fill=_lighter(fill, 0.4),
                            outline=ink, width=max(2, int(r * 0.07)))
        self.draw.ellipse((cx - r * 0.8, cy - r * 0.55, cx + r * 0.8, cy + r * 0.95), fill=fill, outline=ink,
                          width=max(2, int(r * 0.08)))
        self.text((cx, cy + r * 0.2), str(style.get("letter", "")), r * 0.75, (255, 255, 255), style="bold")

    def draw_relic(self, centre, r):
        cx, cy = centre
        fill, ink = self.c("relic"), self.c("wall")
        self.draw.polygon([(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)], fill=fill,
                          outline=ink, width=max(2, int(r * 0.08)))
        self.draw.polygon([(cx, cy - r * 0.5), (cx + r * 0.4, cy), (cx, cy + r * 0.5), (cx - r * 0.4, cy)],
                          fill=_lighter(fill, 0.5))

    def draw_runekey(self, centre, r, colour):
        cx, cy = centre
        fill, ink = self.rune_colour(colour), self.c("wall")
        w = max(2, int(r * 0.08))
        # bow (ring) at the left, shaft to the right, two teeth down
        self.draw.ellipse((cx - r, cy - r * 0.45, cx - r * 0.1, cy + r * 0.45), fill=fill, outline=ink, width=w)
        self.draw.ellipse((cx - r * 0.72, cy - r * 0.17, cx - r * 0.38, cy + r * 0.17), fill=(255, 255, 255),
                          outline=ink, width=max(1, w // 2))
        self.draw.rectangle((cx - r * 0.12, cy - r * 0.13, cx + r, cy + r * 0.13), fill=fill, outline=ink, width=w)
        for tx in (0.55, 0.85):
            self.draw.rectangle((cx + r * (tx - 0.1), cy + r * 0.1, cx + r * (tx + 0.06), cy + r * 0.5), fill=fill,
                                outline=ink, width=w)

    def draw_encounter(self, centre, r):
        cx, cy = centre
        fill, ink = self.c("encounter"), self.c("encounter_ink")
        points = [(cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)]
        self.draw.polygon(points, fill=fill, outline=ink, width=max(2, int(r * 0.08)))
        self.text((cx, cy), "!", r * 1.1, (255, 255, 255), style="bold")

    def draw_figure(self, box, rank, label_lines=(), players=None, s=None, footprint=(1, 1)):
        """A figure over its footprint: a disc (one cell) or a rounded slab (large), with its label."""
        s = s or self.s
        x0, y0 = box
        w, h = footprint
        if rank == "named":
            fill, ink, text = self.c("figure_named"), self.c("figure_named_ring"), self.c("figure_named_text")
        elif rank == "master":
            fill, ink, text = self.c("figure_master"), self.c("figure_master_ink"), self.c("figure_master_text")
        else:
            fill, ink, text = self.c("figure_normal"), self.c("figure_normal_ink"), self.c("figure_normal_text")
        ring = max(2, int(s * (0.07 if rank == "named" else 0.035)))
        inset = s * 0.09
        shape = (x0 + inset, y0 + inset, x0 + w * s - inset, y0 + h * s - inset)
        if (w, h) == (1, 1):
            self.draw.ellipse(shape, fill=fill, outline=ink, width=ring)
        else:
            self.draw.rounded_rectangle(shape, radius=s * 0.35, fill=fill, outline=ink, width=ring)
        lines = [l for l in label_lines if l]
        if not lines:
            return
        cx, cy = (shape[0] + shape[2]) / 2, (shape[1] + shape[3]) / 2
        inner = (shape[2] - shape[0]) * (0.86 if (w, h) == (1, 1) else 0.88)
        # first line (the name) bold and larger; the rest smaller
        main, size = self.wrap(lines[0], inner, s * (0.2 if (w, h) == (1, 1) else 0.3), "bold")
        rest = lines[1:]
        rest_size = min(size * 0.8, s * 0.15)
        rest = [(t, self.fit_size(t, inner, rest_size, minimum=s * 0.07)) for t in rest]
        if players:
            rest.append((players, self.fit_size(players, inner, rest_size, minimum=s * 0.07)))
        heights = [size * 1.12] * len(main) + [sz * 1.15 for _t, sz in rest]
        y = cy - sum(heights) / 2
        for t in main:
            self.text((cx, y + size * 0.56), t, size, text, style="bold")
            y += size * 1.12
        for t, sz in rest:
            self.text((cx, y + sz * 0.575), t, sz, text)
            y += sz * 1.15

    def draw_area_badge(self, centre, r, area_id):
        cx, cy = centre
        ink = self.c("area_border")
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=ink,
                          width=max(2, int(r * 0.14)))
        size = self.fit_size(area_id, r * 1.45, r * 1.15, "bold", minimum=r * 0.4)
        self.text((cx, cy), area_id, size, ink, style="bold")

    def draw_marker(self, marker, centre, r):
        if marker.kind == "glyph":
            self.draw_glyph(centre, r, marker.active)
        elif marker.kind == "chest":
            self.draw_chest(centre, r, marker.variant)
        elif marker.kind == "treasure":
            self.draw_treasure(centre, r, marker.variant)
        elif marker.kind == "relic":
            self.draw_relic(centre, r)
        elif marker.kind == "runekey":
            self.draw_runekey(centre, r, marker.variant)
        elif marker.kind == "encounter":
            self.draw_encounter(centre, r)
        else:  # a marker kind this map does not know: a plain token, never nothing
            cx, cy = centre
            self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(200, 200, 200), outline=self.c("wall"), width=2)

    # the map ----------------------------------------------------------------------------
    def paint(self):
        L, s, d = self.layout, self.s, self.draw
        board, model = self.board, self.model
        point = L.point
        if self.show_title:
            self.text((L.left, int(s * 0.36)), self.word("title", title=model.title), s * 0.36, self.c("text"),
                      anchor="lm", style="bold")

        # floor, tinted by area
        for cell in board.cells:
            self.draw_floor(point(*cell), s, self.tint.get(self.area_of.get(cell), self.c("background")))

        # obstacles and traps: fill and pattern first, then each group's outline
        for obstacle in model.obstacles:
            for cell in obstacle.cells:
                self.draw_obstacle_cell(point(*cell), s, obstacle.kind)

        # grid lines between floor cells (drawn over the fills so patterns stay gridded)
        grid = self.c("grid")
        floor = set(board.cells)
        for (x, y) in board.cells:
            if (x + 1, y) in floor:
                d.line((point(x + 1, y), point(x + 1, y + 1)), fill=grid, width=max(1, s // 80))
            if (x, y + 1) in floor:
                d.line((point(x, y + 1), point(x + 1, y + 1)), fill=grid, width=max(1, s // 80))

        for kind, cells in self.obstacle_groups:
            style = self.obstacle_style(kind)
            if kind.trap:
                self.outline_cells(cells, s, point, s * 0.05, self.c("trap_border"), dashed=True)
            else:
                self.outline_cells(cells, s, point, s * (0.06 if kind.wall_like else 0.03), _rgb(style.get("ink")))

        # stairs
        for stairs in board.stairs:
            for end in stairs.ends:
                self.draw_stairs(point(*end), s, stairs.colour)

        # area borders: edges between floor cells of two areas, where no wall stands
        border = self.c("area_border")
        for edge in self.border_edges:
            self.dashed(point(edge[0], edge[1]), point(edge[2], edge[3]), max(2, int(s * 0.05)), border,
                        s * 0.18, s * 0.1)

        # walls: thick, square-ended, so corners close
        wall = self.c("wall")
        width = max(3, int(s * 0.09))
        for edge in sorted(board.walls):
            self.thick_edge(point(edge[0], edge[1]), point(edge[2], edge[3]), width, wall)

        # doors on their edges
        for door_id, edges in sorted(self.qb.door_edges.items()):
            door = board.doors.get(door_id)
            xs = [v for e in edges for v in (e[0], e[2])]
            ys = [v for e in edges for v in (e[1], e[3])]
            a, b = point(min(xs), min(ys)), point(max(xs), max(ys))
            self.draw_door(a, b, s, door.rune if door else None, label=door_id)

        # markers: centred, or small in a corner when a figure stands on them
        for marker in model.markers:
            if marker.at not in self.figure_cells:
                self.draw_marker(marker, L.centre(marker.at), s * 0.3)

        # figures
        for figure in model.figures:
            xs = [c[0] for c in figure.cells]
            ys = [c[1] for c in figure.cells]
            top_left = (min(xs), min(ys))
            footprint = (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
            monster = figure.type.name.replace("_", " ")
            if figure.rank == "named":
                named = model.named.get(figure.named)
                lines = [named.display if named else figure.named, monster]
            else:
                lines = [monster]
            players = None
            if figure.players:
                from questc.emit.sheet import _count_range
                players = self.word("players", players=_count_range(figure.players))
            self.draw_figure(point(*top_left), figure.rank, lines, players, s, footprint)

        for marker in model.markers:
            if marker.at in self.figure_cells:
                x0, y0 = point(*marker.at)
                self.draw_marker(marker, (x0 + s * 0.8, y0 + s * 0.8), s * 0.15)

        # labels over everything on the floor: obstacle names, encounter ids, relic names
        for kind, cells in self.obstacle_groups:
            style = self.obstacle_style(kind)
            first = min(cells, key=lambda c: (c[1], c[0]))
            x0, y0 = point(*first)
            name = str(style.get("label", kind.name))
            size = self.fit_size(name, s * 0.84, s * 0.15, minimum=s * 0.08)
            self.pill_label((x0 + s / 2, y0 + s * 0.05), name, size, self.c("text"), self.c("label_background"),
                            anchor="mt")
        for obstacle in model.obstacles:
            if obstacle.facing:
                cells = obstacle.cells
                cx = sum(c[0] for c in cells) / len(cells) + 0.5
                cy = sum(c[1] for c in cells) / len(cells) + 0.5
                self.draw_arrow(point(cx, cy), s, obstacle.facing, self.c("trap_border"))
        for marker in model.markers:
            tag = marker.encounter if marker.kind == "encounter" else (marker.variant if marker.kind == "relic"
                                                                       else None)
            if tag and marker.at not in self.figure_cells:
                x0, y0 = point(*marker.at)
                size = self.fit_size(tag, s * 0.9, s * 0.14, minimum=s * 0.07)
                self.pill_label((x0 + s / 2, y0 + s * 0.97), tag, size, self.c("text"), self.c("label_background"),
                                anchor="mb")

        self.paint_area_letters()
        self.paint_grid_reference()
        if self.show_legend:
            self.paint_legend()
        return self.image

    def paint_area_letters(self):
        """Each area's id on a badge: on its free cell nearest the area's middle, or small in a corner."""
        L, s = self.layout, self.s
        for area in self.model.areas.values():
            cells = sorted(c for c in area.cells if self.board.is_floor(c))
            if not cells:
                continue
            mx = sum(c[0] for c in cells) / len(cells)
            my = sum(c[1] for c in cells) / len(cells)
            free = [c for c in cells if c not in self.busy]
            if free:
                best = min(free, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0]))
                self.draw_area_badge(L.centre(best), s * 0.3, area.id)
            else:
                best = min(cells, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c[1], c[0]))
                x0, y0 = L.point(*best)
                self.draw_area_badge((x0 + s * 0.2, y0 + s * 0.2), s * 0.16, area.id)

    def paint_grid_reference(self):
        """Column numbers above and below the map, row numbers left and right: the quest's own x,y."""
        L, s = self.layout, self.s
        size = s * 0.2
        ink = self.c("faint_text")
        gap = s * 0.22
        ox, oy = L.origin
        for i in range(L.columns):
            x = L.left + (i + 0.5) * s
            self.text((x, L.top - gap), str(ox + i), size, ink)
            self.text((x, L.top + L.rows * s + gap), str(ox + i), size, ink)
        for j in range(L.rows):
            y = L.top + (j + 0.5) * s
            self.text((L.left - gap - s * 0.06, y), str(oy + j), size, ink)
            self.text((L.left + L.columns * s + gap + s * 0.06, y), str(oy + j), size, ink)

    # legend ---------------------------------------------------------------------------
    def _legend_entries(self) -> list[tuple[str, tuple]]:
        """What the legend shows, in a fixed order: only the kinds this map holds (plus floor and wall)."""
        model, board = self.model, self.board
        entries: list[tuple[str, tuple]] = [(self.word("floor"), ("floor",)), (self.word("wall"), ("wall",))]
        runes = sorted({d.rune for d in board.doors.values() if d.rune})
        if any(d.rune is None for d in board.doors.values()):
            entries.append((self.word("door"), ("door", None)))
        for rune in runes:
            entries.append((self.word("rune_door", colour=rune.capitalize()), ("door", rune)))
        if self.border_edges:
            entries.append((self.word("area_border"), ("area_border",)))
        ranks = {f.rank for f in model.figures}
        for rank, key in (("normal", "monster"), ("master", "master"), ("named", "named")):
            if rank in ranks:
                entries.append((self.word(key), ("figure", rank)))
        markers = model.markers
        for active in (True, False):
            if any(m.kind == "glyph" and m.active == active for m in markers):
                entries.append((self.word("glyph_active" if active else "glyph_inactive"), ("glyph", active)))
        for variant in self.style.get("chests", {}):
            if any(m.kind == "chest" and m.variant == variant for m in markers):
                entries.append((self.word("chest", variant=variant.capitalize()), ("chest", variant)))
        for variant in sorted({m.variant for m in markers if m.kind == "treasure"}):
            entry = model.catalog.treasures.get(variant)
            title = (entry.title if entry and entry.title else variant).capitalize()
            entries.append((self.word("treasure", title=title), ("treasure", variant)))
        if any(m.kind == "relic" for m in markers):
            entries.append((self.word("relic"), ("relic",)))
        for colour in sorted({m.variant for m in markers if m.kind == "runekey"}):
            entries.append((self.word("runekey", variant=colour.capitalize()), ("runekey", colour)))
        if any(m.kind == "encounter" for m in markers):
            entries.append((self.word("encounter"), ("encounter",)))
        for colour in sorted({st.colour for st in board.stairs}):
            entries.append((self.word("stairs", colour=colour.capitalize()), ("stairs", colour)))
        kinds: dict[str, ObstacleKind] = {}
        for obstacle in model.obstacles:
            kinds.setdefault(obstacle.kind.name, obstacle.kind)
        for name in sorted(kinds, key=lambda k: (kinds[k].trap, k)):
            kind = kinds[name]
            label = self.obstacle_style(kind).get("label", name)
            entries.append((self.word("trap" if kind.trap else "obstacle", label=label), ("obstacle", kind)))
        for area in model.areas.values():
            entries.append((self.word("start_area" if area.start else "area", id=area.id, name=area.name),
                            ("area", area.id)))
        return entries

    def _plan_legend(self, width: int) -> dict:
        s = self.s
        icon = int(s * 0.5)
        size = s * 0.19
        font = _font(size)
        compass = int(s * 1.3)
        text_w = max((font.getlength(label) for label, _ in self.legend_entries), default=0)
        column = icon + s * 0.15 + text_w + s * 0.35
        left = int(s * 0.54) + compass + int(s * 0.4)
        available = max(column, width - left - s * 0.3)
        columns = max(1, int(available // column))
        rows = math.ceil(len(self.legend_entries) / columns)
        row_h = icon + s * 0.14
        height = max(compass, int(s * 0.4 + rows * row_h))
        return {"icon": icon, "size": size, "column": column, "columns": columns, "rows": rows, "row_h": row_h,
                "left": left, "compass": compass, "height": height}

    def paint_legend(self):
        L, s, plan = self.layout, self.s, self.legend_plan
        top = L.legend_top
        # compass rose, north up
        self.paint_compass((int(s * 0.54) + plan["compass"] / 2, top + plan["compass"] / 2), plan["compass"] / 2)
        self.text((plan["left"], top), self.word("legend"), plan["size"] * 1.1, self.c("text"), anchor="lt",
                  style="bold")
        icon = plan["icon"]
        for index, (label, what) in enumerate(self.legend_entries):
            col, row = divmod(index, plan["rows"])
            x = plan["left"] + col * plan["column"]
            y = top + s * 0.4 + row * plan["row_h"]
            self.paint_legend_icon((x, y), icon, what)
            self.text((x + icon + s * 0.15, y + icon / 2), label, plan["size"], self.c("text"), anchor="lm")

    def paint_legend_icon(self, box, s, what):
        x0, y0 = box
        kind = what[0]
        tint = self.tint.get(self.area_ids[0]) if self.area_ids else self.c("background")
        centre = (x0 + s / 2, y0 + s / 2)
        if kind == "floor":
            self.draw_floor(box, s, tint)
            self.draw.rectangle((x0, y0, x0 + s, y0 + s), outline=self.c("grid"), width=1)
        elif kind == "wall":
            self.draw_floor(box, s, tint)
            self.thick_edge((x0, y0 + s / 2), (x0 + s, y0 + s / 2), max(3, int(self.s * 0.09)), self.c("wall"))
        elif kind == "door":
            self.draw_floor(box, s, tint)
            self.draw_door((x0 - s * 0.2, y0 + s / 2), (x0 + s * 1.2, y0 + s / 2), s * 0.9, what[1])
        elif kind == "area_border":
            self.draw_floor(box, s, tint)
            self.dashed((x0, y0 + s / 2), (x0 + s, y0 + s / 2), max(2, int(self.s * 0.05)), self.c("area_border"),
                        s * 0.3, s * 0.15)
        elif kind == "figure":
            self.draw_figure((x0 - s * 0.05, y0 - s * 0.05), what[1], (), None, s * 1.1)
        elif kind == "glyph":
            self.draw_glyph(centre, s * 0.45, what[1])
        elif kind == "chest":
            self.draw_chest(centre, s * 0.45, what[1])
        elif kind == "treasure":
            self.draw_treasure(centre, s * 0.45, what[1])
        elif kind == "relic":
            self.draw_relic(centre, s * 0.45)
        elif kind == "runekey":
            self.draw_runekey(centre, s * 0.45, what[1])
        elif kind == "encounter":
            self.draw_encounter(centre, s * 0.45)
        elif kind == "stairs":
            self.draw_stairs(box, s, what[1], label=False)
        elif kind == "obstacle":
            obstacle = what[1]
            self.draw_obstacle_cell(box, s, obstacle)
            colour = self.c("trap_border") if obstacle.trap else _rgb(self.obstacle_style(obstacle).get("ink"))
            self.draw.rectangle((x0, y0, x0 + s, y0 + s), outline=colour, width=max(2, int(s * 0.05)))
        elif kind == "area":
            self.draw_area_badge(centre, s * 0.42, what[1])

    def symbol(self, what, px: int, pad: float):
        """A legend entry's `what` in; its symbol alone out, as a picture `px` pixels square plus
        `pad` of that blank on each side (a door juts out of its square, as in the PNG's legend).

        Drawn by paint_legend_icon with the proportions of this map's own legend (there a symbol
        is half a cell), so the PDF's legend shows the very same symbols."""
        return self._aside(px, pad, lambda at: self.paint_legend_icon(at, px, what))

    def compass(self, px: int):
        """The compass rose of the legend, north up, alone on a picture `px` pixels square."""
        return self._aside(px, 0.0, lambda at: self.paint_compass((at[0] + px / 2, at[1] + px / 2), px / 2))

    def _aside(self, px: int, pad: float, paint):
        """Paint onto a fresh picture (px plus the padding, square) instead of the map; that picture out."""
        from PIL import Image, ImageDraw

        margin = round(px * pad)
        saved = self.image, self.draw, self.s
        self.image = Image.new("RGB", (px + 2 * margin, px + 2 * margin), self.c("background"))
        self.draw = ImageDraw.Draw(self.image)
        self.s = px * 2      # a legend symbol is half a cell: line widths as in the legend
        try:
            paint((margin, margin))
            return self.image
        finally:
            self.image, self.draw, self.s = saved

    def paint_compass(self, centre, r):
        cx, cy = centre
        ink = self.c("compass")
        self.draw.ellipse((cx - r * 0.62, cy - r * 0.62, cx + r * 0.62, cy + r * 0.62), outline=ink,
                          width=max(2, int(r * 0.04)))
        # four points; the north one dark, the others light
        for k, (vx, vy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            px, py = -vy, vx
            tip = (cx + vx * r * 0.62, cy + vy * r * 0.62)
            side = (cx + px * r * 0.14, cy + py * r * 0.14)
            other = (cx - px * r * 0.14, cy - py * r * 0.14)
            fill = ink if k == 0 else (255, 255, 255)
            self.draw.polygon([tip, side, (cx, cy), other], fill=fill, outline=ink)
        self.text((cx, cy - r * 0.82), self.word("north"), r * 0.32, ink, style="bold")


def _obstacle_groups(obstacles) -> list[tuple[ObstacleKind, list[Cell]]]:
    """Obstacles in; (kind, cells) for each 4-connected group of cells of one kind out, in a fixed order.

    Two `rubble at 2,3 2,4` cells make one rubble patch on the map: one outline, one label.
    """
    by_kind: dict[str, tuple[ObstacleKind, set]] = {}
    for obstacle in obstacles:
        kind, cells = by_kind.setdefault(obstacle.kind.name, (obstacle.kind, set()))
        cells.update(obstacle.cells)
    groups = []
    for name in sorted(by_kind):
        kind, cells = by_kind[name]
        left = set(cells)
        while left:
            start = min(left, key=lambda c: (c[1], c[0]))
            group, todo = {start}, [start]
            left.discard(start)
            while todo:
                x, y = todo.pop()
                for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if nxt in left:
                        left.discard(nxt)
                        group.add(nxt)
                        todo.append(nxt)
            groups.append((kind, sorted(group)))
    groups.sort(key=lambda g: (min(g[1], key=lambda c: (c[1], c[0]))[::-1], g[0].name))
    return groups


@lru_cache(maxsize=256)
def _pattern_tile(pattern: str, size: int):
    """A pattern name and a cell size in; an 'L' mask of the pattern's ink out (cached: cells repeat)."""
    from PIL import Image, ImageDraw

    tile = Image.new("L", (size, size), 0)
    d = ImageDraw.Draw(tile)
    w = max(1, size // 40)
    step = max(4, size // 7)
    if pattern in ("hatch", "crosshatch"):
        for k in range(-size, size * 2, step):
            d.line((k, 0, k + size, size), fill=255, width=w)
            if pattern == "crosshatch":
                d.line((k, size, k + size, 0), fill=255, width=w)
    elif pattern == "dots":
        r = max(1, size // 28)
        for j, y in enumerate(range(step // 2, size, step)):
            for x in range(step // 2 + (step // 2 if j % 2 else 0), size, step):
                d.ellipse((x - r, y - r, x + r, y + r), fill=255)
    elif pattern == "stones":
        # irregular-looking pebbles from a fixed list (deterministic)
        for fx, fy, fr in ((0.2, 0.25, 0.11), (0.55, 0.18, 0.09), (0.8, 0.35, 0.1), (0.35, 0.55, 0.13),
                           (0.7, 0.7, 0.12), (0.18, 0.8, 0.09), (0.5, 0.88, 0.07), (0.88, 0.9, 0.06)):
            radius = fr * size
            d.ellipse((fx * size - radius, fy * size - radius * 0.8, fx * size + radius, fy * size + radius * 0.8),
                      outline=255,
                      width=max(1, size // 50))
    elif pattern == "waves":
        for y0 in range(step // 2, size, step):
            points = [(x, y0 + math.sin(x / size * 4 * math.pi) * step * 0.22) for x in range(0, size + 1, 2)]
            d.line(points, fill=255, width=w)
    elif pattern == "rings":
        for k in range(1, 5):
            m = size * k * 0.1
            d.rectangle((m, m, size - m, size - m), outline=255, width=w)
    elif pattern == "bricks":
        for j, y in enumerate(range(0, size, step)):
            d.line((0, y, size, y), fill=255, width=w)
            offset = step if j % 2 else 0
            for x in range(offset, size, step * 2):
                d.line((x, y, x, y + step), fill=255, width=w)
    elif pattern == "stripes":
        for y in range(step // 2, size, step):
            d.line((size * 0.1, y, size * 0.9, y), fill=255, width=w)
    elif pattern == "slashes":
        for k in range(3):
            middle = size * (0.2 + 0.3 * k)
            d.line((middle - size * 0.12, size * 0.85, middle + size * 0.12, size * 0.15), fill=255,
                   width=max(2, size // 20))
    elif pattern == "darts":
        for j, y in enumerate(range(step // 2, size, step)):
            for x in range(step // 2 + (step // 2 if j % 2 else 0), size, step):
                d.polygon([(x, y - step * 0.3), (x + step * 0.15, y + step * 0.2), (x - step * 0.15, y + step * 0.2)],
                          fill=255)
    elif pattern == "chevrons":
        for y in range(step // 2, size, step):
            d.line([(size * 0.15, y + step * 0.3), (size * 0.5, y - step * 0.1), (size * 0.85, y + step * 0.3)],
                   fill=255, width=w * 2)
    elif pattern == "cross":
        d.line((size * 0.5, size * 0.18, size * 0.5, size * 0.82), fill=255, width=max(2, size // 14))
        d.line((size * 0.3, size * 0.38, size * 0.7, size * 0.38), fill=255, width=max(2, size // 14))
    return tile


@dataclass(frozen=True)
class LegendSymbol:
    """One legend entry: its words (legend.yaml's) and its symbol, a square Pillow picture with
    `MapParts.pad` of the symbol's size left blank on each side."""

    label: str
    image: object


@dataclass(frozen=True)
class MapParts:
    """The map without its legend, and the legend in pieces for a page to set: its heading, its
    entries in the PNG legend's order (the same set: only what this map holds, plus floor and
    wall) and the compass rose."""

    image: object
    heading: str
    symbols: tuple[LegendSymbol, ...]
    compass: object
    pad: float


SYMBOL_PAD = 0.12    # a door and a figure jut out of their square by up to a tenth of it


def render_map_parts(result, cell: int = DEFAULT_CELL, symbol_px: int = 72, compass_px: int = 160,
                     title: bool = False, budget: int = PIXEL_BUDGET) -> MapParts:
    """A compiled QuestResult in; the map without a legend and the legend's pieces out (the PDF's map page).

    Each symbol is drawn `symbol_px` pixels square, the compass `compass_px`; the same
    pixels every time, like the map. A map over `budget` pixels (a page needs far fewer
    than a PNG) is drawn with smaller cells, and shrunk by a whole factor if even cells of
    MIN_CELL are too many.
    """
    painter = _painter(result, cell, title, legend=False, budget=budget)
    image = painter.paint()
    symbols = tuple(LegendSymbol(label, painter.symbol(what, int(symbol_px), SYMBOL_PAD))
                    for label, what in painter.legend_entries)
    heading, compass = painter.word("legend"), painter.compass(int(compass_px))
    del painter   # it holds the full-size picture too: let it go before the shrunk one is made
    pixels = image.width * image.height
    if pixels > budget:
        image = image.reduce(math.ceil(math.sqrt(pixels / budget)))
    return MapParts(image, heading, symbols, compass, SYMBOL_PAD)


def map_layout(result, cell: int = DEFAULT_CELL, title: bool = True) -> MapLayout:
    """A compiled QuestResult and a cell size in; where render_png puts the map out (tests and the PDF use it)."""
    return _painter(result, cell, title).layout


def _painter(result, cell: int, title: bool, legend: bool = True, budget: int = PIXEL_BUDGET) -> _Painter:
    if not getattr(result, "compiled", False):
        raise ValueError(f"{result.path}: the quest has errors; no map is drawn for it")
    if cell < MIN_CELL:
        raise ValueError(f"a cell must be at least {MIN_CELL} pixels, not {cell}")
    return _Painter(result, int(cell), title, legend, budget)


def render_image(result, cell: int = DEFAULT_CELL, title: bool = True):
    """A compiled QuestResult in; the map as a Pillow RGB image out (`title`: print the quest's title above it)."""
    return _painter(result, cell, title).paint()


def render_png(result, cell: int = DEFAULT_CELL, title: bool = True) -> bytes:
    """A compiled QuestResult in; the map as PNG bytes out, `cell` pixels per cell (at least 150 by default).

    The file carries no timestamp or text chunk; the pixels are the same on every
    machine (bundled font, fixed order), the compressed bytes the same for one zlib.
    """
    image = render_image(result, cell, title)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()
