"""A quest's tokens and markers at game size, each as a Drawing to cut out: the print-and-play sheet.

    from questc.draw.tokens import quest_tokens
    for kind in quest_tokens(quest, square=72.0):   # 72 points a square: one inch
        kind.words, kind.count, kind.drawing            # "Skeleton", 3, the token drawn once

Each kind of token the quest puts on the table (a monster of a rank and size, a named monster, a
marker of a kind and variant, a door) is drawn once, as the map draws it (questc.draw.symbols),
at the size it has on the table: a one-square figure or marker is a disc 0.9 square across, a
large figure a rounded slab over its footprint, a door a slab two squares long. The disc's edge
(or the slab's) is where to cut: a dark ring round a white ground. The sheet prints each kind
`count` times, with its words beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from questc.draw import symbols as sym
from questc.draw.items import Drawing, Ellipse, Layer, Paint, Rect, Text
from questc.draw.metrics import baseline_for_middle, text_width
from questc.draw.symbols import MIN_TEXT, Palette
from questc.model.quest import readable

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest

TOKEN = 0.9  # a one-square token's diameter, in squares


@dataclass(frozen=True)
class TokenKind:
    """One kind of token: its group (monsters, markers, doors), its words, how many the quest
    uses, and the token drawn once at game size (points)."""

    group: str
    words: str
    count: int
    drawing: Drawing


def quest_tokens(quest: CompiledQuest, square: float = 72.0, palette: Palette | None = None) -> list[TokenKind]:
    """A compiled quest and a square's size (points) in; its kinds of token out, in a fixed order:
    the monsters (normal, master, named; in order of appearance), the markers and tokens, the doors."""
    p = palette or Palette()
    model = quest.model
    out: list[TokenKind] = []
    counted: dict[tuple, list] = {}

    def add(key: tuple, make) -> None:
        entry = counted.get(key)
        if entry is None:
            counted[key] = [make, 1]
        else:
            entry[1] += 1

    for figure in model.figures:
        footprint = figure.type.size(figure.facing)
        footprint = (min(footprint), max(footprint))  # drawn upright; turned on the table
        if figure.rank == "named" and figure.named is not None:
            named = model.named.get(figure.named)
            name = named.display if named is not None else readable(figure.named)
            add(
                ("monsters", "named", figure.named),
                lambda f=footprint, n=name, t=figure.type.name: (
                    f"{n} (named {readable(t)})",
                    _figure(p, square, "named", n, f),
                ),
            )
        else:
            monster = readable(figure.type.name)
            words = f"{'master ' if figure.rank == 'master' else ''}{monster}"
            add(
                ("monsters", figure.rank, figure.type.name),
                lambda f=footprint, r=figure.rank, m=monster, w=words: (w, _figure(p, square, r, m, f)),
            )
    # The groups the overlord places (second edition): as many figures as the group has with the
    # most heroes (reinforcements come "up to the group limit"), beside those placed at points.
    low, high = model.heroes()
    for group in model.groups.values():
        if group.kind == "monster" and group.type is not None:
            footprint = group.type.size("north")
            footprint = (min(footprint), max(footprint))
            monster = readable(group.type.name)
            sizes = [group.size(heroes) for heroes in range(low, high + 1)]
            for rank, most in (("normal", max(m for m, _ in sizes)), ("master", max(m for _, m in sizes))):
                key = ("monsters", rank, group.type.name)
                if most <= (counted[key][1] if key in counted else 0):
                    continue
                words = f"{'master ' if rank == 'master' else ''}{monster}"
                add(key, lambda f=footprint, r=rank, m=monster, w=words: (w, _figure(p, square, r, m, f)))
                counted[key][1] = most
        elif group.kind == "lieutenant":
            name = readable(group.id).title()
            add(
                ("markers", "lieutenant", group.id, None, name),
                lambda n=name: (f"lieutenant: {n}", _marker(p, square, ("lieutenant",), n)),
            )
    for marker in model.markers:
        words, what, caption = _marker_words(model, marker)
        add(
            ("markers", marker.kind, marker.variant, marker.active if marker.kind == "glyph" else None, caption),
            lambda w=words, x=what, c=caption: (w, _marker(p, square, x, c)),
        )
    for door in model.doors.values():
        words = f"{door.display} ({door.rune + ' rune ' if door.rune else ''}door)"
        add(("doors", door.id), lambda w=words, r=door.rune, d=door.display: (w, _door(p, square, r, d)))
    for key, (make, count) in counted.items():
        words, drawing = make()
        out.append(TokenKind(key[0], words, count, drawing))
    order = {"monsters": 0, "markers": 1, "doors": 2}
    return sorted(out, key=lambda kind: order[kind.group])


def _marker_words(model, marker) -> tuple[str, tuple, str | None]:
    """A marker in; its words on the sheet, its symbol (questc.draw.legend's `what`), and the words
    printed on the token itself (a relic's, an encounter's, a lieutenant's name) out."""
    kind, variant = marker.kind, marker.variant
    if kind == "glyph":
        return (f"{'active' if marker.active else 'inactive'} glyph", ("glyph", marker.active), None)
    if kind == "chest":
        return (f"{variant} chest", ("chest", variant), None)
    if kind == "treasure":
        entry = model.catalog.treasures.get(variant) if variant else None
        title = entry.title if entry is not None and entry.title else readable(variant or "treasure")
        return (f"{title} marker", ("treasure", variant), None)
    if kind == "relic":
        name = marker.display or readable(variant or "relic")
        return (f"relic: {name}", ("relic",), name)
    if kind == "runekey":
        return (f"{variant} runekey", ("runekey", variant), None)
    if kind == "encounter":
        found = model.encounters.get(marker.encounter) if marker.encounter else None
        name = found.display if found is not None else readable(marker.encounter or "encounter")
        return (f"encounter: {name}", ("encounter",), name)
    if kind == "objective":
        return (f"{variant + ' ' if variant else ''}objective token", ("objective", variant), None)
    if kind == "lieutenant":
        name = readable(variant or "lieutenant").title()
        return (f"lieutenant: {name}", ("lieutenant",), name)
    return (f"{readable(kind)} token", (kind,), None)


def _caption(p: Palette, text: str, cx: float, y: float, width: float, size: float) -> list:
    """Words along the foot of a token, shortened to its width."""
    from questc.draw.metrics import shortened

    return [Text(cx, y, shortened(text, width, size, "bold"), size, p.c("text"), "bold")]


def _figure(p: Palette, s: float, rank: str, name: str, footprint: tuple[int, int]) -> Drawing:
    """A monster's token: the map's figure over its footprint, its name across it."""
    # the map's figure over its footprint, moved so its token's box starts at (0, 0)
    inset = sym.figure_shape(0, 0, s)[0]
    items = list(sym.figure(p, -inset, -inset, s, rank, footprint))
    x0, y0, x1, y1 = sym.figure_shape(-inset, -inset, s, footprint)
    _fill, _ring, ink = sym.figure_colours(p, rank)
    room = (x1 - x0) * 0.84
    size = max(MIN_TEXT, min(s * 0.16, 12.0))
    while True:
        lines, line = [], ""
        for word in name.split():  # as many lines as the token's width needs
            trial = f"{line} {word}".strip()
            if line and text_width(trial, size, "bold") > room:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
        if size <= MIN_TEXT or max(text_width(text, size, "bold") for text in lines) <= room:
            break
        size = max(MIN_TEXT, round(size - 0.25, 2))  # a long word: smaller words, down to the smallest
    from questc.draw.metrics import shortened

    lines = [shortened(text, room, size, "bold") for text in lines]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    top = cy - len(lines) * size * 0.6
    for k, text in enumerate(lines):
        items.append(Text(cx, baseline_for_middle(top + (k + 0.5) * size * 1.2, size), text, size, ink, "bold"))
    return Drawing(x1 - x0, y1 - y0, [Layer("token", items)], background=None)


def _marker(p: Palette, s: float, what: tuple, caption: str | None) -> Drawing:
    """A marker's token: a white disc with a dark edge (the cut), the map's symbol on it, its name
    (when it has one) along its foot."""
    from questc.draw.legend import symbol_items

    d = s * TOKEN
    r = d / 2
    items: list = [Ellipse(r, r, r, r, Paint(fill="#ffffff", stroke=p.c("wall"), width=max(0.5, s * 0.012)))]
    inner = d * (0.58 if caption else 0.7)
    items += symbol_items(p, what, r - inner / 2, r - inner / 2 - (d * 0.08 if caption else 0), inner, "#ffffff")
    if caption:
        size = max(MIN_TEXT, s * 0.11)
        items += _caption(p, caption, r, d * 0.84, d * 0.7, size)
    return Drawing(d, d, [Layer("token", items)], background=None)


def _door(p: Palette, s: float, rune: str | None, name: str) -> Drawing:
    """A door's token: the map's door slab two squares long, its name on a strip below it."""
    items, box = sym.door(p, (0.0, s * 0.2), (2 * s, s * 0.2), s, rune)
    x0, y0, x1, y1 = box
    size = max(MIN_TEXT, s * 0.11)
    height = y1 + size * 1.6
    items = (
        [Rect(x0, y0, x1 - x0, height - y0, Paint(fill="#ffffff", stroke=p.c("wall"), width=max(0.5, s * 0.012)))]
        + items
        + _caption(p, name, (x0 + x1) / 2, y1 + size * 1.15, x1 - x0, size)
    )
    return Drawing(x1 - x0, height - y0, [Layer("token", items, (-x0, -y0))], background=None)
