"""Text views of the catalog: a piece type in, its drawing out; a catalog and a section in, the `questc catalog` listing out."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from questc.catalog.model import Catalog, Count, Opening, PieceType
from questc.words import plural

# A row of `questc catalog --json`: its values are anything json.dumps writes.
Row = dict[str, Any]

# Arrows point out of the piece across an opening; a corridor end gets a double mark
# so ends (which warn when left unjoined) stand out from a room's plain openings.
_ARROWS = {"north": "^", "east": ">", "south": "v", "west": "<"}
_END_ARROWS = {"north": "⇑", "east": "⇒", "south": "⇓", "west": "⇐"}

SECTIONS = ("pieces", "monsters", "props", "cards")


def draw_shape(
    cells: Iterable[tuple[int, int]],
    openings: Iterable[Opening],
    width: int,
    height: int,
    marks: Mapping[tuple[int, int], str] | None = None,
) -> str:
    """Cells, openings, the bounding box and any terrain marks (cell -> letter) in, a drawing out.

    Floor is `o` (or its terrain's letter), no cell `.`, cells one column apart so the
    drawing is roughly square; each opening is marked by arrows just outside the outline.
    """
    cells = set(cells)
    marks = marks or {}
    # Grid of (2*width+3) x (height+2) characters: a margin of one cell all round.
    grid = [[" "] * (2 * (width + 2) - 1) for _ in range(height + 2)]
    for y in range(height):
        for x in range(width):
            grid[y + 1][2 * (x + 1)] = marks.get((x, y), "o") if (x, y) in cells else "."
    for opening in openings:
        mark = (_END_ARROWS if opening.end else _ARROWS)[opening.side]
        dx, dy = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}[opening.side]
        for x, y in opening.cells:
            grid[y + 1 + dy][2 * (x + 1 + dx)] = mark
    lines = ["".join(row).rstrip() for row in grid]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    return "\n".join(line[indent:] for line in lines)


def _opening_text(opening: Opening) -> str:
    (ax, ay), (bx, by) = opening.cells
    return f"{opening.side} {ax},{ay}-{bx},{by}" + (" (end)" if opening.end else "")


def draw_piece(piece: PieceType, turn: int = 0) -> str:
    """A piece type (and a turn) in, a titled drawing with its openings listed out."""
    shape = piece.placed((0, 0), turn)
    kind = piece.kind.replace("_", " ")
    if piece.tile:
        kind += f" {piece.tile}"
    title = f"{piece.name}: {kind}, {piece.set}, {shape.width}x{shape.height}"
    if turn:
        title += f", turn {turn}"
    if piece.source == "estimate":
        title += " (layout an estimate)"
    marks = {cell: piece.marks.get(kind_name, "o") for kind_name, cells in shape.terrain.items() for cell in cells}
    openings = "; ".join(_opening_text(o) for o in shape.openings) or "none"
    lines = [title, draw_shape(shape.cells, shape.openings, shape.width, shape.height, marks), f"openings: {openings}"]
    if shape.edge:
        lines.append("edge spaces: " + " ".join(f"{x},{y}" for x, y in sorted(shape.edge, key=lambda c: (c[1], c[0]))))
    return "\n".join(lines)


def _count_json(count: Count) -> Row:
    return {"count": count.count, "source": count.source}


def _pieces(catalog: Catalog) -> tuple[list[Row], list[str]]:
    rows: list[dict[str, object]] = []
    text: list[str] = []
    for name in sorted(catalog.pieces):
        piece = catalog.pieces[name]
        row = {
            "name": name,
            "kind": piece.kind,
            "set": piece.set,
            "width": piece.width,
            "height": piece.height,
            "shape": list(piece.shape),
            "openings": [{"side": o.side, "cells": [list(c) for c in o.cells], "end": o.end} for o in piece.openings],
        }
        if piece.tile or piece.terrain or piece.edge or piece.source:
            # Second edition tiles: their code, printed terrain and edge spaces.
            row.update(
                {
                    "tile": piece.tile,
                    "source": piece.source,
                    "terrain": {k: [list(c) for c in sorted(v)] for k, v in sorted(piece.terrain.items())},
                    "edge": [list(c) for c in sorted(piece.edge)],
                }
            )
        rows.append(row)
        text += [draw_piece(piece), ""]
    if text:
        legend = "legend: o floor, . no cell, ^ > v < opening, ⇑ ⇒ ⇓ ⇐ corridor end"
        terrain = ", ".join(f"{t.mark} {name}" for name, t in sorted(catalog.terrain.items()) if t.mark)
        text.append(legend + (f"; terrain: {terrain}" if terrain else ""))
    return rows, text


def _monsters(catalog: Catalog) -> tuple[list[Row], list[str]]:
    rows: list[dict[str, object]] = []
    text: list[str] = []
    for name in sorted(catalog.monsters):
        m = catalog.monsters[name]
        rows.append(
            {
                "name": name,
                "set": m.set,
                "footprint": list(m.footprint),
                "normal": _count_json(m.normal),
                "master": _count_json(m.master),
            }
        )
        text.append(f"{name:<16} {m.set:<18} {m.footprint[0]}x{m.footprint[1]}  normal {m.normal}, master {m.master}")
    return rows, text


def _props(catalog: Catalog) -> tuple[list[Row], list[str]]:
    rows: list[dict[str, object]] = []
    text: list[str] = []
    for name in sorted(catalog.markers):
        m = catalog.markers[name]
        counts = {s: _count_json(c) for s, c in sorted(m.counts.items())}
        rows.append(
            {
                "name": name,
                "what": "marker",
                "set": m.set,
                "counts": counts,
                "variants": list(m.variants),
                "note": m.note,
            }
        )
        per_set = ", ".join(f"{s} {c}" for s, c in sorted(m.counts.items())) or "count unknown"
        variants = f" [{', '.join(m.variants)}]" if m.variants else ""
        text.append(f"marker     {name:<16} {m.set:<18} {per_set}{variants}")
    for name in sorted(catalog.treasures):
        t = catalog.treasures[name]
        counts = {s: _count_json(c) for s, c in sorted(t.counts.items())}
        rows.append(
            {"name": name, "what": "treasure", "set": t.set, "counts": counts, "title": t.title, "note": t.note}
        )
        per_set = ", ".join(f"{s} {c}" for s, c in sorted(t.counts.items())) or "count unknown"
        text.append(f"treasure   {name:<16} {t.set:<18} {per_set}")
    for name in sorted(catalog.obstacles):
        o = catalog.obstacles[name]
        what = "trap" if o.trap else "obstacle"
        rows.append(
            {
                "name": name,
                "what": what,
                "set": o.set,
                "blocks_movement": o.blocks_movement,
                "blocks_sight": o.blocks_sight,
                "sight_rule": o.sight_rule,
                "wall_like": o.wall_like,
                "facing": o.facing,
                "note": o.note,
            }
        )
        blocks = [w for w, b in (("movement", o.blocks_movement), ("sight", o.blocks_sight)) if b]
        flags = ("blocks " + " and ".join(blocks)) if blocks else "blocks nothing"
        if o.sight_rule:
            flags += f", {o.sight_rule} sight rule"
        if o.facing:
            flags += ", facing"
        text.append(f"{what:<10} {name:<16} {o.set:<18} {flags}")
    for name in sorted(catalog.dark_glyphs):
        g = catalog.dark_glyphs[name]
        rows.append(
            {
                "name": name,
                "what": "dark_glyph",
                "set": g.set,
                "colour": g.colour,
                "treachery": g.treachery_kind,
                "cost": g.cost,
                "note": g.note,
            }
        )
        text.append(f"{'dark glyph':<10} {name:<16} {g.set:<18} {g.cost} {g.treachery_kind} ({g.colour}) treachery")
    for name in sorted(catalog.chest_cards):
        c = catalog.chest_cards[name]
        rows.append({"name": name, "what": "chest_card", "set": c.set, "title": c.title, "note": c.note})
        text.append(f"{'chest card':<10} {name:<16} {c.set:<18} in a chest chart: `{name} [N]`")
    return rows, text


def _cards(catalog: Catalog) -> tuple[list[Row], list[str]]:
    rows: list[dict[str, object]] = []
    text: list[str] = []
    for name in sorted(catalog.cards, key=str.casefold):
        c = catalog.cards[name]
        rows.append(
            {
                "name": name,
                "set": c.set,
                "type": c.type,
                "threat_cost": c.threat_cost,
                "discard_value": c.discard_value,
                "treachery_colour": c.treachery_colour,
                "treachery_cost": c.treachery_cost,
                "copies": _count_json(c.copies),
                "note": c.note,
            }
        )
        if c.base_deck:
            deck = "base deck"
        else:
            cost = "?" if c.treachery_cost is None else c.treachery_cost
            deck = f"treachery {cost} {c.treachery_kind} ({c.treachery_colour})"
        copies = ""
        if c.copies.known and c.copies.count is not None:
            copies = f", {plural(c.copies.count, 'copy')} ({c.copies.source})"
        text.append(f"{name:<26} {c.set:<18} {c.type or 'type unknown':<13} {deck}{copies}")
    return rows, text


_BUILDERS = {"pieces": _pieces, "monsters": _monsters, "props": _props, "cards": _cards}


def catalog_listing(catalog: Catalog, what: str | None = None, as_json: bool = False) -> str:
    """A catalog, a section (pieces, monsters, props, cards; None for all) and a format in, the listing out.

    Text lists each entry with its set (pieces drawn); JSON is one object keyed by
    section, sorted, so the same catalog gives the same bytes.
    """
    sections = SECTIONS if what is None else (what,)
    for section in sections:
        if section not in _BUILDERS:
            raise ValueError(f"unknown catalog section {section!r}; one of {', '.join(SECTIONS)}")
    built = {section: _BUILDERS[section](catalog) for section in sections}
    if as_json:
        return json.dumps({section: rows for section, (rows, _) in built.items()}, indent=2, ensure_ascii=False) + "\n"
    out: list[str] = []
    for section, (_, text) in built.items():
        if len(sections) > 1:
            out += [f"== {section} ==", ""]
        out += text
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
