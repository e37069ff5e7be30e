"""Hover: what the cursor is on, explained in Markdown.

A cell point: what stands on that cell (area, piece, obstacles, figures, markers,
the doors on its sides). A catalog name: the entry (a piece type drawn with its
openings, a monster's footprint and figures). A quest identifier: its definition.
A diagnostic code in a suppression comment: its explanation. Anywhere a diagnostic
is reported: its code's summary.
"""

from __future__ import annotations

import re

from questc.api import nodes as n
from questc.api import plural
from questc.server.document import QuestDocument
from questc.server.index import AREA, DOOR, ENCOUNTER, NAMED, PIECE, STAIRS, contains
from questc.server.text import comment_start

_CODE = re.compile(r"Q[0-9]{3}")


def hover_markdown(document: QuestDocument, line: int, column: int) -> str | None:
    """The hover text at a 1-based (line, column), or None when there is nothing to say."""
    index = document.index()
    parts: list[str] = []
    code = _code_in_comment(document, line, column)
    if code is not None:
        parts.append(code)
    occurrence = index.occurrence_at(line, column)
    catalog_name = index.catalog_name_at(line, column)
    cell = index.cell_at(line, column)
    if occurrence is not None and (cell is None or occurrence.span.start >= cell.span.start):
        parts.append(_identifier(document, occurrence))
    elif catalog_name is not None:
        text = _catalog_entry(document, catalog_name)
        if text:
            parts.append(text)
    elif cell is not None:
        parts.append(_cell(document, cell))
    else:
        word = _keyword_at(document, line, column)
        if word is not None:
            parts.append(word)
    parts += _diagnostics_here(document, line, column)
    parts = [p for p in parts if p]
    return "\n\n---\n\n".join(parts) if parts else None


# ---- keywords and header fields ---------------------------------------------------------


def _keyword_at(document: QuestDocument, line: int, column: int) -> str | None:
    """A keyword of the language under the cursor (outside comments and strings): its forms and section."""
    from questc.server.document import edition_of as _edition
    from questc.server.keywords import KEYWORDS, hover_text

    text = document.lines().quest_line(line)
    at = column - 1
    if not 0 <= at <= len(text):
        return None
    comment = comment_start(text)
    if comment is not None and at >= comment:
        return None
    if text[:at].count('"') % 2 == 1:
        return None
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    end = at
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    entry = KEYWORDS.get(text[start:end])
    return hover_text(entry, _edition(document)) if entry is not None else None


# ---- diagnostic codes -----------------------------------------------------------------


def code_page(code: str) -> str | None:
    from questc.api import descriptor

    entry = descriptor(code)
    if entry is None:
        return None
    return f"**{entry.code} {entry.name}** ({entry.severity.value})\n\n{entry.summary}\n\n{entry.explanation.strip()}"


def _code_in_comment(document: QuestDocument, line: int, column: int) -> str | None:
    """A code written in a comment under the cursor (`# questc: ignore[Q305]`): its page."""
    text = document.lines().quest_line(line)
    hash_at = comment_start(text)
    if hash_at is None or column - 1 < hash_at:
        return None
    for match in _CODE.finditer(text, hash_at):
        if match.start() <= column - 1 <= match.end():
            return code_page(match.group())
    return None


def _diagnostics_here(document: QuestDocument, line: int, column: int) -> list[str]:
    checked = document.checked
    if checked is None or checked.text is not document.text:
        return []
    from questc.api import descriptor

    out = []
    for d in checked.result.diagnostics:
        if contains(d.span, line, column):
            entry = descriptor(d.code)
            if entry is not None:
                out.append(f"**{d.code} {entry.name}**: {entry.summary} (`questc explain {d.code}` for the whole page)")
    return list(dict.fromkeys(out))


# ---- the quest's own identifiers -------------------------------------------------------


def _source_line(document: QuestDocument, node) -> str:
    """The first line of a statement as written, for a definition's hover."""
    span = node.span
    text = document.lines().quest_line(span.line)
    return text.strip()


def _identifier(document: QuestDocument, occurrence) -> str:
    index = document.index()
    definitions = index.definitions(occurrence.kind, occurrence.name)
    if not definitions:
        return f"{occurrence.kind} `{occurrence.name}`: **not defined** in this quest"
    node = definitions[0].node
    head = f"{occurrence.kind} **{occurrence.name}**"
    lines = [head, "", "```quest", _source_line(document, node), "```"]
    model = _model(document)
    uses = len(index.references(occurrence.kind, occurrence.name, include_definition=False))
    if occurrence.kind == AREA and isinstance(node, n.Area):
        lines.append(f"{'start area; ' if node.start else ''}{_area_summary(document, node.id.value)}")
    elif occurrence.kind == PIECE and model is not None:
        piece = model.pieces.get(occurrence.name)
        if piece is not None:
            lines.append(
                f"{piece.type.name} ({piece.type.kind.replace('_', ' ')}), top-left {piece.at[0]},"
                f"{piece.at[1]}, {plural(len(piece.shape.cells), 'cell')}; area "
                f"{_join(model.area_of(c) for c in sorted(piece.shape.cells))}"
            )
    elif occurrence.kind == NAMED and isinstance(node, n.NamedMonster):
        lines.append(f'"{node.display.value}", a named {node.type.value}')
    elif occurrence.kind == ENCOUNTER and isinstance(node, n.Encounter):
        lines.append(plural(len(node.effects), "effect"))
    elif occurrence.kind == DOOR and isinstance(node, n.Door) and node.rune is not None:
        lines.append(f"a {node.rune.value} rune door")
    elif occurrence.kind == STAIRS and isinstance(node, n.Stairs):
        lines.append("a pair of stairs: " + " and ".join(f"{p.x},{p.y}" for p in node.ends))
    if len(definitions) > 1:
        lines.append(f"defined {len(definitions)} times")
    lines.append(f"defined on line {definitions[0].span.line}; {plural(uses, 'reference')}")
    return "\n".join(lines)


def _join(values) -> str:
    kept = [v for v in dict.fromkeys(values) if v]
    return ", ".join(kept) if kept else "none"


def _area_summary(document: QuestDocument, area_id: str) -> str:
    model = _model(document)
    if model is None or area_id not in model.areas:
        return ""
    area = model.areas[area_id]
    figures = [f for f in model.figures if f.area == area_id]
    text = f'"{area.name}": {plural(len(area.cells), "cell")}, {plural(len(figures), "figure")}'
    checked = document.resolved
    quest = checked.result.compiled if checked is not None else None
    analysis = quest.known_analysis if quest is not None else None  # only if the checks worked it out
    if analysis is not None:
        wave = analysis.reveal_wave.get(area_id)
        text += "; never revealed" if wave is None else f"; revealed in wave {wave}"
    return text


# ---- catalog names -------------------------------------------------------------------


def catalog_of(document: QuestDocument):
    """The catalog the quest was checked against (content packs included), else the built-in one."""
    model = _model(document)
    if model is not None:
        return model.catalog
    from questc.api import builtin_catalog

    return builtin_catalog()


def _catalog_entry(document: QuestDocument, ref) -> str | None:
    from questc.api import draw_piece

    catalog = catalog_of(document)
    kind, name = ref.kind, ref.name
    if kind in ("piece", "monster", "obstacle", "trap", "treasure", "colour", "card", "set", "dark_glyph"):
        entry = catalog.lookup(kind, name)
    else:
        entry = None
    if entry is None:
        if kind == "ability":
            times = sum(1 for c in document.index().catalog_names if c.kind == "ability" and c.name == name)
            return (
                f"ability **{name}** of a named monster ({plural(times, 'time')} in this quest); the "
                "sheet prints it as written, with its rank"
            )
        if kind == "relic":
            return f"relic **{name}**: a relic token the heroes can pick up (one per relic)"
        if kind == "lieutenant":
            return (
                f"lieutenant **{name}**: the lieutenant's token on the map; `killed {name}` names it in a "
                "victory condition"
            )
        if kind in ("chest", "treasure card", "chest content"):
            return None
        suggestion = (
            catalog.suggest(kind, name)
            if kind in ("piece", "monster", "obstacle", "trap", "treasure", "card", "set", "dark_glyph")
            else None
        )
        return f"unknown {kind.replace('_', ' ')} `{name}`" + (f": did you mean `{suggestion}`?" if suggestion else "")
    if kind == "piece":
        turn = ref.node.turn if isinstance(ref.node, n.Piece) else 0
        return (
            f"```text\n{draw_piece(entry, turn)}\n```\nlegend: o floor, . no cell, ^ > v < opening, "
            f"⇑ ⇒ ⇓ ⇐ corridor end" + (f"\n\n{entry.note}" if entry.note else "")
        )
    if kind == "monster":
        w, h = entry.footprint
        lines = [
            f"monster **{name}** ({entry.set})",
            "",
            f"footprint {w}x{h}" + (" (a large figure)" if entry.large else ""),
            f"figures in {entry.set}: normal {entry.normal}, master {entry.master}",
        ]
        if entry.traits:
            lines.append("traits: " + ", ".join(entry.traits))
        if entry.group:
            lines.append(
                "group by heroes: "
                + ", ".join(
                    f"{heroes} heroes {minions} + {plural(masters, 'master')}"
                    for heroes, (minions, masters) in enumerate(entry.group, 2)
                )
                + (" (an estimate)" if entry.group_source == "estimate" else "")
            )
        if entry.stats:
            for rank, stats in sorted(entry.stats.items()):
                if isinstance(stats, dict) or hasattr(stats, "items"):
                    lines.append(f"{rank}: " + ", ".join(f"{k} {v}" for k, v in stats.items()))
        if entry.note:
            lines.append(entry.note)
        return "\n\n".join(lines[:2]) + "\n" + "\n\n".join(lines[2:])
    if kind in ("obstacle", "trap"):
        blocks = [w for w, b in (("movement", entry.blocks_movement), ("sight", entry.blocks_sight)) if b]
        text = f"{kind} **{name}** ({entry.set}): blocks {' and '.join(blocks) if blocks else 'nothing'}"
        if entry.sight_rule:
            text += f", {entry.sight_rule} sight rule"
        if entry.wall_like:
            text += ", stands like a wall"
        text += f"; {entry.count} in {entry.set}"
        return text + (f"\n\n{entry.note}" if entry.note else "")
    if kind == "treasure":
        counts = ", ".join(f"{s} {c}" for s, c in sorted(entry.counts.items())) or "count unknown"
        return f"treasure **{name}** ({entry.title or name}, {entry.set}): {counts}" + (
            f"\n\n{entry.note}" if entry.note else ""
        )
    if kind == "card":
        cost = "" if entry.base_deck else f", treachery {entry.treachery_cost} {entry.treachery_kind}"
        return (
            f"overlord card **{name}** ({entry.set}, {entry.type or 'type unknown'}{cost}); "
            f"copies {entry.copies}" + (f"\n\n{entry.note}" if entry.note else "")
        )
    if kind == "set":
        return f"set **{name}**: {entry.title or name}" + (f"\n\n{entry.note}" if entry.note else "")
    if kind == "dark_glyph":
        return f"dark glyph **{name}** ({entry.set}): {entry.cost} {entry.treachery_kind} treachery"
    if kind == "colour":
        return f"rune colour **{name}**"
    return None


# ---- cells ---------------------------------------------------------------------------


def _model(document: QuestDocument):
    checked = document.resolved
    return checked.result.model if checked is not None else None


def absolute_cells(document: QuestDocument, ref) -> list[tuple[int, int]] | None:
    """The cells a point or rectangle stands for (a piece point made absolute), or None if unknown."""
    node = ref.node
    if node.piece is not None:
        origin = _piece_origin(document, node.piece.value)
        if origin is None:
            return None
        return [(origin[0] + node.x, origin[1] + node.y)]
    if isinstance(node, n.CellSet):
        x1, x2 = sorted((node.x1, node.x2))
        y1, y2 = sorted((node.y1, node.y2))
        return [(x, y) for y in range(y1, y2 + 1) for x in range(x1, x2 + 1)]
    return [(node.x, node.y)]


def _piece_origin(document: QuestDocument, name: str):
    model = _model(document)
    if model is not None and model.pieces.get(name) is not None:
        return model.pieces[name].at
    for occurrence in document.index().definitions(PIECE, name):
        piece = occurrence.node
        if isinstance(piece, n.Piece) and piece.at.piece is None:
            return (piece.at.x, piece.at.y)
    return None


def _cell(document: QuestDocument, ref) -> str:
    cells = absolute_cells(document, ref)
    written = document.lines().text[slice(*document.lines().span_offsets(ref.span))]
    if cells is None:
        return f"`{written}`: the piece it is counted from is not placed"
    model = _model(document)
    if model is None:
        return f"cell {_cells_text(cells)}: the quest has not compiled yet, nothing known about it"
    resolved = document.resolved
    stale = resolved is None or resolved is not document.checked or resolved.text is not document.text
    if len(cells) > 1:
        areas = _join(model.area_of(c) for c in cells)
        return f"cells {_cells_text(cells)}: {len(cells)} cells, area {areas}"
    cell = cells[0]
    lines = [f"**cell {cell[0]},{cell[1]}**" + (f" (`{written}`)" if ref.node.piece is not None else "")]
    lines += describe_cell(document, cell)
    if stale:
        lines.append("_as of the last version that compiled_")
    return "\n\n".join(lines)


def _cells_text(cells) -> str:
    if len(cells) == 1:
        return f"{cells[0][0]},{cells[0][1]}"
    return f"{cells[0][0]},{cells[0][1]}..{cells[-1][0]},{cells[-1][1]}"


def describe_cell(document: QuestDocument, cell) -> list[str]:
    """What stands on one absolute cell, one line per kind of thing."""
    from questc.api import cell_contents

    model = _model(document)
    quest = document.resolved.result.compiled if document.resolved is not None else None
    here = quest.contents_of(cell) if quest is not None else cell_contents(model).get(cell) or _nothing(cell)
    lines = []
    piece, area = here.piece, here.area
    if piece is None:
        lines.append("not on any map piece (no floor here)")
    else:
        lines.append(
            f"piece **{piece.id}** ({piece.type.name}), cell {cell[0] - piece.at[0]},{cell[1] - piece.at[1]} of it"
        )
    if area is not None:
        lines.append(f'area **{area.id}** "{area.name}"')
    elif piece is not None:
        lines.append("in no area")
    if here.groups:
        lines.append("the overlord may place here: " + ", ".join(g.words for g in here.groups))
    if here.tokens:
        lines.append("tokens may go here: " + ", ".join(t.name for t in here.tokens))
    if here.obstacles:
        lines.append(
            "obstacles: "
            + ", ".join(
                f"{'trap' if o.kind.trap else 'obstacle'} {o.kind.name}" + (f" facing {o.facing}" if o.facing else "")
                for o in here.obstacles
            )
        )
    if here.figures:
        lines.append("figures: " + ", ".join(_figure(f, cell) for f in here.figures))
    if here.markers:
        lines.append("markers: " + ", ".join(_marker(m) for m in here.markers))
    if here.stairs:
        lines.append("stairs: " + ", ".join(f"{s.colour} (other end {_other(s.ends, cell)})" for s in here.stairs))
    if here.doors:
        lines.append(
            "doors: "
            + ", ".join(
                f"{door.id}{f' ({door.rune} rune)' if door.rune else ''} on the {side} side"
                for door, side in here.doors
            )
        )
    return lines


def _nothing(cell):
    from questc.api import CellContents

    return CellContents(cell)


def _other(ends, cell) -> str:
    other = ends[1] if ends[0] == cell else ends[0]
    return f"{other[0]},{other[1]}"


def _figure(figure, cell) -> str:
    if figure.rank == "named":
        text = f"{figure.named} (named {figure.type.name})"
    else:
        text = f"{figure.type.name}" + (" master" if figure.rank == "master" else "")
    if figure.at != cell:
        text += f" (standing from {figure.at[0]},{figure.at[1]})"
    if figure.players:
        text += f" for {figure.players[0]}..{figure.players[1]} players"
    return text


def _marker(marker) -> str:
    if marker.kind == "glyph":
        return "glyph" + (" (active)" if marker.active else "")
    if marker.kind == "encounter":
        return f"encounter {marker.encounter}"
    return f"{marker.kind} {marker.variant}" if marker.variant else marker.kind
