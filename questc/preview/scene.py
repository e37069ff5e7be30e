"""A checked quest in; what the preview page shows of it out, as plain JSON-ready data.

The scene is everything the page needs but sight: the map picture (the printed
sheet's drawing, questc.preview.drawing), the floor cells in board order (a cell's
index is its place in `Board.cells`; sight and reach travel as sets of indexes), what
stands on each cell, the areas, the doors, the reveal waves with the cells the heroes
can reach at each, and the diagnostics with the cells each one is about.
"""
from __future__ import annotations

import base64
from typing import TYPE_CHECKING
from collections.abc import Sequence

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


def diagnostic_data(d: Diagnostic, source_lines: list[str], quest_path: str) -> dict:
    """One diagnostic as the page lists it: code, severity, message, help, place and source line."""
    span = d.span
    line_text = None
    if span.file == quest_path and 1 <= span.line <= len(source_lines):
        line_text = source_lines[span.line - 1]
    return {
        "code": d.code, "severity": d.severity.value, "message": d.message, "help": d.help,
        "label": d.label, "file": span.file, "line": span.line, "column": span.column,
        "end_line": span.end_line, "end_column": span.end_column, "source": line_text,
        "cells": [], "anchor": None,
    }


def source_lines(source: str) -> list[str]:
    return source.splitlines()


class _Places:
    """Where each thing the quest places was written, and the floor cells it covers.

    Used to pin a diagnostic on the map: the innermost placed thing whose source holds
    the diagnostic's span, else the things written on its line, else the area block
    around it.
    """

    def __init__(self, model, quest_board, path: str):
        self.entries: list[tuple[Span, frozenset[Cell], bool]] = []   # span, cells, is an area block

        def add(span, cells, block=False):
            if span is not None and span.file == path:
                self.entries.append((span, frozenset(cells), block))

        for piece in model.pieces.values():
            if piece is not None:
                add(piece.node.span, piece.shape.cells)
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
        for group in model.groups.values():   # second edition: where the overlord places them
            add(group.span, group.cells)
        for token in model.tokens:
            add(token.span, token.cells)
        for area in model.areas.values():
            add(area.node.span, area.cells, block=True)

    def cells_of(self, span: Span) -> frozenset[Cell]:
        def contains(outer: Span, inner: Span) -> bool:
            return outer.start <= inner.start and inner.end <= max(outer.end, outer.start + 1)

        inside = [(e.end - e.start, cells) for e, cells, block in self.entries if not block and contains(e, span)]
        if inside:
            smallest = min(size for size, _ in inside)
            return frozenset().union(*(cells for size, cells in inside if size == smallest))
        same_line = [cells for e, cells, block in self.entries
                     if not block and e.line <= span.end_line and span.line <= e.end_line]
        if same_line:
            return frozenset().union(*same_line)
        blocks = [(e.end - e.start, cells) for e, cells, block in self.entries if block and contains(e, span)]
        if blocks:
            return min(blocks, key=lambda b: b[0])[1]
        return frozenset()


def anchor_of(cells: list[Cell]) -> Cell:
    """The cell of a group nearest its centre: where a pin stands (ties: first in reading order)."""
    cx = sum(x for x, _ in cells) / len(cells)
    cy = sum(y for _, y in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, c[1], c[0]))


def pin_diagnostics(entries: list[dict], diagnostics: list[Diagnostic], model, quest_board,
                    index: dict[Cell, int], path: str) -> None:
    """Fill each diagnostic entry's `cells` (indexes) and `anchor` from where it points in the source."""
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
            entry["anchor"] = index[anchor_of(on_floor)]


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
    words += [f"may hold {t.name if t.id else 'a ' + t.kind + ' token'}"
              + (" (at random)" if t.placement == "among" else "") for t in here.tokens]
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
        cell_rows.append([cell[0], cell[1], area_index[here.area.id] if here.area is not None else -1,
                          piece_index.get(piece, -1) if piece is not None else -1, cell_words(here, model)])

    areas = []
    for area_id in area_ids:
        area = model.areas[area_id]
        areas.append({"id": area_id, "name": area.name, "start": area.start,
                      "wave": analysis.reveal_wave.get(area_id),
                      "from": list(analysis.visible_from.get(area_id, [])),
                      "cells": len([c for c in area.cells if c in index])})
    doors = []
    for door_id, edges in sorted(qb.door_edges.items()):
        door = model.doors.get(door_id)
        doors.append({"id": door_id, "rune": door.rune if door else None,
                      "edges": [list(e) for e in edges],
                      "cells": [index[c] for c in qb.door_cells.get(door_id, ()) if c in index]})
    reached = list(analysis.reached_by_wave)
    offset = max(0, len(reached) - len(analysis.waves))   # no wave 0 when the quest has no start area
    waves = []
    for number, wave_areas in enumerate(analysis.waves):
        cells_reached = reached[number + offset] if number + offset < len(reached) else frozenset()
        waves.append({"wave": number, "areas": list(wave_areas),
                      "reached": bitset((index[c] for c in cells_reached if c in index), len(cells)),
                      "reached_count": sum(1 for c in cells_reached if c in index)})

    lines = source_lines(quest.source)
    entries = [diagnostic_data(d, lines, quest.path) for d in diagnostics]
    pin_diagnostics(entries, list(diagnostics), model, qb, index, quest.path)
    return {
        "title": model.title, "edition": model.edition.name, "reveal": model.reveal,
        "map": {"svg": picture.svg, "layout": picture.layout}, "legend": list(picture.legend),
        "cells": cell_rows, "areas": areas, "pieces": piece_ids, "doors": doors,
        "waves": waves, "never_revealed": [a for a, w in analysis.reveal_wave.items() if w is None],
        "diagnostics": entries,
    }
