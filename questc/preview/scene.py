"""A checked quest in; what the preview page shows of it out, as plain JSON-ready data.

The scene is everything the page needs but sight: the map picture (the printed
sheet's drawing, questc.preview.drawing), the floor cells in board order (a cell's
index is its place in `Board.cells`; sight and reach travel as sets of indexes), what
stands on each cell, the areas, the doors, the reveal waves with the cells the heroes
can reach at each, and the diagnostics with the cells each one is about.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import TYPE_CHECKING

from questc.api import Diagnostic, Span

if TYPE_CHECKING:
    from questc.api import CellContents, CompiledQuest, Figure, Marker, QuestModel
    from questc.preview.drawing import MapPicture

Cell = tuple[int, int]


def bitset(indexes, size: int) -> str:
    """Cell indexes in; a base64 bitset (bit i of byte i // 8, least significant first) out."""
    raw = bytearray((size + 7) // 8)
    for i in indexes:
        raw[i >> 3] |= 1 << (i & 7)
    return base64.b64encode(bytes(raw)).decode("ascii")


SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def diagnostic_data(d: Diagnostic, source_lines: list[str], quest_path: str) -> dict:
    """One diagnostic as the page lists it: code, severity, message, help, place, its documentation's
    address, the source lines its span covers (whole), and a key that names it across edits."""
    from questc.api import diagnostic_page

    span = d.span
    excerpt: list[str] = []
    if span.file == quest_path and 1 <= span.line <= len(source_lines):
        last = min(max(span.end_line, span.line), len(source_lines), span.line + 11)
        excerpt = source_lines[span.line - 1 : last]
    line_text = excerpt[0] if excerpt else None
    words = (
        line_text[span.column - 1 : span.end_column - 1] if line_text is not None and span.end_line == span.line else ""
    )
    return {
        "code": d.code,
        "severity": d.severity.value,
        "message": d.message,
        "help": d.help,
        "label": d.label,
        "file": span.file,
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "source": line_text,
        "excerpt": excerpt,
        "page": diagnostic_page(d.code),
        "key": f"{d.code}|{d.message}|{words}",
        "cells": [],
        "anchor": None,
        "pin": None,
    }


def sorted_diagnostics(entries: list[dict]) -> list[dict]:
    """Errors first, then warnings, then infos; in source order within each."""
    return sorted(entries, key=lambda e: (SEVERITY_ORDER.get(e["severity"], 3), e["line"], e["column"], e["code"]))


def source_lines(source: str) -> list[str]:
    """The source's lines as questc counts them (by `\\n`: spans count so)."""
    return [line.removesuffix("\r") for line in source.split("\n")]


def _placing_effects(model) -> list:
    """Every `place` and `spawn` effect of the quest: in triggers, rules of each round and encounters
    (effects are written in those blocks only)."""
    from questc.api import nodes as n

    syntax = getattr(model, "syntax", None)
    if syntax is None:
        return []
    blocks = [item for item in syntax.items if isinstance(item, (n.Trigger, n.Encounter))]
    blocks += [
        s for item in syntax.items if isinstance(item, n.Area) for s in item.statements if isinstance(s, n.Encounter)
    ]
    return [e for block in blocks for e in block.effects if isinstance(e, (n.PlaceEffect, n.SpawnEffect))]


def _effect_cells(model, effect) -> set[Cell]:
    """Where a `place` or `spawn` effect puts its figures or tokens: the pieces and the area it names,
    and its points (counted from a piece's corner when written `PIECE:X,Y`)."""
    cells: set[Cell] = set()
    for name in getattr(effect, "on", ()):
        piece = model.pieces.get(name.value)
        if piece is not None:
            cells |= set(piece.shape.cells)
    area = getattr(effect, "area", None)
    if area is not None and area.value in model.areas:
        cells |= set(model.areas[area.value].cells)
    for point in effect.at:
        origin = (0, 0)
        if point.piece is not None:
            piece = model.pieces.get(point.piece.value)
            if piece is None:
                continue
            origin = piece.at
        cells.add((origin[0] + point.x, origin[1] + point.y))
    return cells


class _Places:
    """Where each thing the quest places was written, and the floor cells it covers.

    Used to pin a diagnostic on the map: the innermost placed thing whose source holds
    the diagnostic's span, else the things written on its line, else the area block
    around it.
    """

    def __init__(self, model, quest_board, path: str):
        self.entries: list[tuple[Span, frozenset[Cell], bool]] = []  # span, cells, is an area block
        self.pieces: list[tuple[Span, frozenset[Cell]]] = []

        def add(span, cells, block=False):
            if span is not None and span.file == path:
                self.entries.append((span, frozenset(cells), block))

        for piece in model.pieces.values():
            if piece is not None:
                add(piece.node.span, piece.shape.cells)
                if piece.node.span.file == path:
                    self.pieces.append((piece.node.span, frozenset(piece.shape.cells)))
        for door_id, door in model.doors.items():
            add(door.node.span, quest_board.door_cells.get(door_id, ()))
        for stairs in model.stairs:
            add(stairs.node.span, stairs.ends)
        for marker in model.markers:
            add(marker.span, [marker.at])
        for figure in model.figures:
            add(figure.span, figure.cells)
        for obstacle in model.obstacles:
            add(obstacle.span, obstacle.cells)
        for encounter in model.encounters.values():
            add(encounter.node.span, [encounter.at])
        for group in model.groups.values():  # second edition: where the overlord places them
            add(group.span, group.cells)
        for token in model.tokens:
            add(token.span, token.cells)
        for effect in _placing_effects(model):  # reinforcements, tokens and spawns placed during play
            add(effect.span, _effect_cells(model, effect))
        for area in model.areas.values():
            add(area.node.span, area.cells, block=True)

    def cells_of(self, span: Span) -> frozenset[Cell]:
        def contains(outer: Span, inner: Span) -> bool:
            return outer.start <= inner.start and inner.end <= max(outer.end, outer.start + 1)

        inside = [(e.end - e.start, cells) for e, cells, block in self.entries if not block and contains(e, span)]
        if inside:
            smallest = min(size for size, _ in inside)
            return frozenset().union(*(cells for size, cells in inside if size == smallest))
        same_line = [
            cells
            for e, cells, block in self.entries
            if not block and e.line <= span.end_line and span.line <= e.end_line
        ]
        if same_line:
            return frozenset().union(*same_line)
        blocks = [(e.end - e.start, cells) for e, cells, block in self.entries if block and contains(e, span)]
        if blocks:
            return min(blocks, key=lambda b: b[0])[1]
        return frozenset()

    def source_of(self, cell: Cell) -> Span | None:
        """The statement that placed what stands on `cell`: a figure, marker, obstacle, door or
        stairs (the shortest such statement), else its piece, else its area block."""
        piece_spans = {span for span, _ in self.pieces}
        things = [
            (e.end - e.start, e)
            for e, cells, block in self.entries
            if not block and e not in piece_spans and cell in cells
        ]
        if things:
            return min(things, key=lambda t: t[0])[1]
        pieces = [span for span, cells in self.pieces if cell in cells]
        if pieces:
            return pieces[0]
        blocks = [(e.end - e.start, e) for e, cells, block in self.entries if block and cell in cells]
        return min(blocks, key=lambda b: b[0])[1] if blocks else None


def anchor_of(cells: list[Cell]) -> Cell:
    """The cell of a group nearest its centre: where a pin stands (ties: first in reading order)."""
    cx = sum(x for x, _ in cells) / len(cells)
    cy = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, c[1], c[0]))


def pin_diagnostics(
    entries: list[dict],
    diagnostics: list[Diagnostic],
    model,
    quest_board,
    index: dict[Cell, int],
    path: str,
    bounds: tuple[int, int, int, int] | None = None,
) -> None:
    """Fill each diagnostic entry's `cells` (indexes), `anchor` (the floor cell its pin stands on)
    and `pin` (where the pin is drawn: the anchor, or for a thing off the map, the nearest square of
    the map's edge, with `off_map` the cell it was written at)."""
    places = _Places(model, quest_board, path)
    for entry, d in zip(entries, diagnostics):
        cells: frozenset[Cell] = frozenset()
        for span in (d.span, *(label.span for label in d.labels)):
            if span.file == path:
                cells = places.cells_of(span)
                if cells:
                    break
        on_floor = sorted((c for c in cells if c in index), key=lambda c: (c[1], c[0]))
        if on_floor:
            entry["cells"] = [index[c] for c in on_floor]
            anchor = anchor_of(on_floor)
            entry["anchor"] = index[anchor]
            entry["pin"] = list(anchor)
        elif cells and bounds is not None:  # off the map: pinned at its edge, pointing out
            off = anchor_of(sorted(cells, key=lambda c: (c[1], c[0])))
            x0, y0, x1, y1 = bounds
            entry["pin"] = [min(max(off[0], x0), x1), min(max(off[1], y0), y1)]
            entry["off_map"] = list(off)


def cell_words(here: CellContents, model: QuestModel) -> list[str]:
    """What stands on a cell (CompiledQuest.contents_of), in the page's words: figures, markers,
    obstacles, stairs, then the doors beside it."""
    words = [_figure_words(f, model) for f in here.figures]
    words += [_marker_words(m) for m in here.markers]
    for obstacle in here.obstacles:
        text = obstacle.kind.name.replace("_", " ") + (" (trap)" if obstacle.kind.trap else "")
        words.append(text + (f", facing {obstacle.facing}" if obstacle.facing else ""))
    for stairs in here.stairs:
        other = stairs.ends[1] if stairs.ends[0] == here.cell else stairs.ends[0]
        words.append(f"{stairs.colour} stairs to {other[0]},{other[1]}")
    for door, _side in sorted(here.doors, key=lambda pair: pair[0].id):
        words.append(f"beside the {door.rune + ' rune ' if door.rune else ''}door `{door.id}`")
    words += [f"may hold {g.words}" for g in here.groups]
    words += [
        f"may hold {t.name if t.id else 'a ' + t.kind + ' token'}" + (" (at random)" if t.placement == "among" else "")
        for t in here.tokens
    ]
    return words


def _figure_words(figure: Figure, model: QuestModel) -> str:
    if figure.rank == "named" and figure.named is not None:
        named = model.named.get(figure.named)
        name = named.display if named is not None else figure.named
        text = f"{name} (named {figure.type.name.replace('_', ' ')})"
    else:
        text = f"{figure.type.name.replace('_', ' ')}" + (" (master)" if figure.rank == "master" else "")
    if figure.players:
        low, high = figure.players
        text += f", with {low} players" if low == high else f", with {low} to {high} players"
    if figure.facing:
        text += f", facing {figure.facing}"
    return text


def _marker_words(marker: Marker) -> str:
    if marker.kind == "glyph":
        return "glyph (active)" if marker.active else "glyph (inactive)"
    if marker.kind == "encounter":
        return f"encounter `{marker.encounter}`"
    if marker.variant:
        return f"{marker.kind} {marker.variant.replace('_', ' ')}"
    return marker.kind


def scene_data(quest: CompiledQuest, diagnostics: Sequence[Diagnostic], picture: MapPicture) -> dict:
    """A compiled quest, the diagnostics it was checked with and its MapPicture in; the scene out."""
    model = quest.model
    qb = quest.quest_board
    board = quest.board
    analysis = quest.analysis
    cells = list(board.cells)
    index = {c: i for i, c in enumerate(cells)}
    area_ids = list(model.areas)
    area_index = {a: i for i, a in enumerate(area_ids)}
    piece_ids = list(model.pieces)
    piece_index = {p: i for i, p in enumerate(piece_ids)}
    cell_rows = []
    for cell in cells:
        here = quest.contents_of(cell)
        piece = board.piece_of(cell)
        cell_rows.append(
            [
                cell[0],
                cell[1],
                area_index[here.area.id] if here.area is not None else -1,
                piece_index.get(piece, -1) if piece is not None else -1,
                cell_words(here, model),
            ]
        )

    areas = []
    for area_id in area_ids:
        area = model.areas[area_id]
        areas.append(
            {
                "id": area_id,
                "name": area.name,
                "start": area.start,
                "wave": analysis.reveal_wave.get(area_id),
                "from": list(analysis.visible_from.get(area_id, [])),
                "cells": len([c for c in area.cells if c in index]),
            }
        )
    doors = []
    for door_id, edges in sorted(qb.door_edges.items()):
        door = model.doors.get(door_id)
        doors.append(
            {
                "id": door_id,
                "rune": door.rune if door else None,
                "edges": [list(e) for e in edges],
                "cells": [index[c] for c in qb.door_cells.get(door_id, ()) if c in index],
            }
        )
    reached = list(analysis.reached_by_wave)
    offset = max(0, len(reached) - len(analysis.waves))  # no wave 0 when the quest has no start area
    waves = []
    for number, wave_areas in enumerate(analysis.waves):
        cells_reached = reached[number + offset] if number + offset < len(reached) else frozenset()
        waves.append(
            {
                "wave": number,
                "areas": list(wave_areas),
                "reached": bitset((index[c] for c in cells_reached if c in index), len(cells)),
                "reached_count": sum(1 for c in cells_reached if c in index),
            }
        )

    lines = source_lines(quest.source)
    entries = [diagnostic_data(d, lines, quest.path) for d in diagnostics]
    layout = picture.layout
    origin = layout.get("origin", (0, 0))
    bounds = (
        origin[0],
        origin[1],
        origin[0] + max(1, layout.get("columns", 1)) - 1,
        origin[1] + max(1, layout.get("rows", 1)) - 1,
    )
    pin_diagnostics(entries, list(diagnostics), model, qb, index, quest.path, bounds)
    waves_of = {area_id: analysis.reveal_wave.get(area_id) for area_id in area_ids}
    legend = [
        {
            "label": entry["label"],
            "svg": entry["svg"],
            "wave": _legend_wave(entry.get("what"), model, board, qb.door_cells, waves_of),
        }
        for entry in picture.legend
    ]
    return {
        "title": model.title,
        "edition": model.edition.name,
        "reveal": model.reveal,
        "map": {"svg": picture.svg, "layout": picture.layout},
        "legend": legend,
        "cells": cell_rows,
        "areas": areas,
        "pieces": piece_ids,
        "piece_origins": [_origin(model.pieces.get(p)) for p in piece_ids],
        "doors": doors,
        "waves": waves,
        "never_revealed": [a for a, w in analysis.reveal_wave.items() if w is None],
        "diagnostics": sorted_diagnostics(entries),
    }


_ALWAYS = -1  # a legend entry about no thing in particular (floor, wall, a plain door): shown from the start


def _legend_wave(what, model, board, door_cells, waves_of: dict) -> int | None:
    """The first reveal wave at which the heroes see what a legend entry explains (_ALWAYS for the
    map's furniture; None: never, or not known, so the heroes' legend leaves it out until the end)."""
    if not what:
        return _ALWAYS
    kind, rest = what[0], what[1:]
    detail = rest[0] if rest else None
    cells: set = set()
    if kind in ("floor", "wall", "area_border", "leader", "arrow", "players"):
        return _ALWAYS
    if kind == "door":
        doors = [d for d in board.doors.values() if d.rune == detail]
        if detail is None:
            return _ALWAYS
        for door in doors:
            cells |= set(door_cells.get(door.id, ()))
    elif kind == "figure":
        cells = {c for f in model.figures if f.rank == detail for c in f.cells}
    elif kind in (
        "glyph",
        "chest",
        "treasure",
        "relic",
        "runekey",
        "encounter",
        "search",
        "objective",
        "villager",
        "lieutenant",
    ):
        marker_kind = kind
        cells = {
            m.at
            for m in model.markers
            if m.kind == marker_kind
            and (
                kind in ("relic", "encounter", "search", "villager", "lieutenant")
                or (m.active == detail if kind == "glyph" else m.variant == detail)
            )
        }
    elif kind == "stairs":
        cells = {end for st in board.stairs if st.colour == detail for end in st.ends}
    elif kind == "obstacle":
        cells = {c for o in model.obstacles if o.kind is detail or o.kind == detail for c in o.cells}
    elif kind == "area":
        return waves_of.get(detail)
    elif kind == "code":
        return None  # a monster's code: shown with the whole map only (codes name monster types)
    else:
        return None  # numbered keys and anything new: only once everything is revealed
    found = [wave for wave in (waves_of.get(model.area_of(c)) for c in cells) if wave is not None]
    return min(found) if found else None


def _origin(piece) -> list[int]:
    """A placed piece's corner, from which `PIECE:X,Y` counts (a piece not placed: the map's)."""
    return list(piece.at) if piece is not None else [0, 0]
