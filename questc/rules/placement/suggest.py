"""Where a misplaced figure could go: the nearest cells that fit, for the placement rules' help and fixes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from questc.diagnostics.core import Edit, Fix, Span
from questc.diagnostics.edits import SourceText, fix, insert_after, replace
from questc.rules.placement.facts import FACINGS, Cell, Facts, Spawn, distance, fmt
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from collections.abc import Iterable

    from questc.model.quest import Figure
    from questc.rules.placement.facts import Move


def spawn_spot(facts: Facts, spawn: Spawn) -> Cell | None:
    """The nearest top-left floor cell where the spawned figure fits: its footprint on
    floor no overlap contests, no wall inside, no blocking obstacle."""
    floor = [c for c in facts.floor if c not in facts.contested]
    for cell in sorted(floor, key=lambda c: distance(spawn.at, c)):
        cells = spawn.type.cells(cell)
        if not cells & facts.contested and not cells & facts.suggested and facts.figure_fit(cells) is None:
            return cell
    return None


def figure_spot(facts: Facts, figure: Figure, with_facing: bool = False) -> Any:  # a Cell, or (Cell, facing)
    """The nearest top-left cell (and facing) where the figure fits in its area: floor of its
    own area, no wall inside, no blocking obstacle, no other figure, no active glyph."""
    area = facts.model.areas[figure.area]
    others: set[Cell] = set()
    for other in facts.model.figures:
        if other is not figure:
            others |= other.cells
    glyphs = {m.at for m in facts.model.markers if m.kind == "glyph" and m.active}
    facings = [figure.facing]
    w, h = figure.type.footprint
    if with_facing and w != h:
        facings += [f for f in FACINGS if figure.type.size(f) != figure.type.size(figure.facing)][:1]
    best = None
    for cell in sorted(area.cells, key=lambda c: distance(figure.at, c)):
        for facing in facings:
            cells = figure.type.cells(cell, facing)
            if (
                not cells <= area.cells
                or cells & others
                or cells & glyphs
                or cells & facts.contested
                or cells & facts.suggested
            ):
                continue
            if facts.figure_fit(cells) is None:
                key = (distance(figure.at, cell), facing != figure.facing)
                if best is None or key < best[0]:
                    best = (key, cell, facing)
        if best is not None and distance(figure.at, cell) > best[0][0]:
            break
    if best is None:
        return None
    return (best[1], best[2]) if with_facing else best[1]


def move_fix(
    facts: Facts, span: Span, cell: Cell, what: str, footprint: Iterable[Cell] | None = None
) -> tuple[Fix, ...]:
    """The fix that rewrites the point at `span` as `cell`, in the form it was written
    (`R1:2,3` stays counted from `R1`); unsafe: the nearest free cell is a guess at where
    the writer wanted it. The cell (or a large figure's `footprint` there) is reserved, so
    no other suggestion of the run picks it."""
    ref = facts.point_refs.get((span.start, span.end))
    if ref is None:
        return ()
    text = fmt(cell)
    if ref.piece is not None:
        piece = facts.model.pieces.get(ref.piece.value)
        if piece is not None:
            text = f"{ref.piece.value}:{cell[0] - piece.at[0]},{cell[1] - piece.at[1]}"
    facts.suggested.update(footprint or (cell,))
    return fix(f"move {what} to {fmt(cell)}", replace(span, text))


# ---- statements added to an area ------------------------------------------------------


def add_statement(text: SourceText | None, area: n.Area, statement: str) -> Edit | None:
    """An edit adding `statement` as the area's last statement, laid out as the block is: on a line
    of its own (indented as the statement before it) in a block written over several lines, after
    `; ` in a block written on one line. None without the text or in an empty block."""
    if text is None or not area.statements:
        return None
    last = area.statements[-1].span
    after = text.text[last.end : text.line_end(last.end)].strip()
    if not after or after.startswith("#"):
        return text.insert_line_after(last, statement, indent=text.indentation(last.start))
    return insert_after(last, f"; {statement}")


def add_piece(text: SourceText | None, area: n.Area, piece: str) -> Edit | None:
    """An edit adding `piece` to the area: after the last name of its `pieces` list, else as a new
    `pieces` statement."""
    lists = [s for s in area.statements if isinstance(s, n.Pieces) and s.pieces]
    if lists:
        return insert_after(lists[-1].pieces[-1].span, f", {piece}")
    return add_statement(text, area, f"pieces {piece}")


# ---- a misplaced piece ---------------------------------------------------------------------------


def piece_move_fix(facts: Facts, move: Move) -> tuple[Fix, ...]:
    """The fix that writes a piece's `at` as the Move's place (unsafe: a guess at what the writer
    meant). Offered only when nothing standing on the piece's floor as written would be left
    off the floor there: what was placed for the piece where it was meant to be comes onto it."""
    piece = facts.model.pieces.get(move.piece)
    if piece is None:
        return ()
    old = set(piece.shape.cells)
    floor_after = (set(facts.floor) - old) | set(move.cells)
    standing = {m.at for m in facts.model.markers} | {c for f in facts.model.figures for c in f.cells}
    standing |= {c for o in facts.model.obstacles if o.piece is None for c in o.cells}
    if any(c in old and c not in floor_after for c in standing):
        return ()
    return fix(f"move `{move.piece}` to {fmt(move.at)}", replace(piece.node.at.span, fmt(move.at)))


def misplaced_piece_under(facts: Facts, cell: Cell) -> Move | None:
    """The Move of a nearby piece that would put `cell` on its floor, if one would: a thing off the
    map there was placed for that piece where it was meant to be."""
    for pid, piece in facts.model.pieces.items():
        if piece is None:
            continue
        xs = [c[0] for c in piece.shape.cells]
        ys = [c[1] for c in piece.shape.cells]
        reach = 3
        if not (min(xs) - reach <= cell[0] <= max(xs) + reach and min(ys) - reach <= cell[1] <= max(ys) + reach):
            continue
        move = facts.better_place(pid)
        if move is not None and cell in move.cells:
            return move
    return None


# ---- an opening capped ---------------------------------------------------------------------------

TURNS = (0, 90, 180, 270)


def cap(facts: Facts, pid: str, opening, piece_type: str, word: str) -> tuple[str, tuple[Fix, ...]]:
    """The help naming the `piece ... TYPE at X,Y turn T` statement whose piece (a dead end, an end cap)
    caps this opening, if one fits on the cells outside it, and the fix writing it after the capped
    piece's statement and adding it to that piece's area (unsafe: it adds a piece to the map; offered
    when one area lists the piece in `pieces`)."""
    capper = facts.model.catalog.lookup("piece", piece_type)
    outside = set(opening.outside())
    edges = set(opening.edges())
    taken = set(facts.floor)
    if capper is not None and not outside & taken:
        at = (min(c[0] for c in outside), min(c[1] for c in outside))
        for turn in TURNS:
            placed = capper.placed(at, turn)
            if placed.cells == outside and any(set(o.edges()) == edges for o in placed.openings):
                name = fresh_id(facts, f"{pid}_end")
                turn_text = f" turn {turn}" if turn else ""
                statement = f"piece {name} {piece_type} at {fmt(at)}{turn_text}"
                help = f"cap it with {_a(word)}: `{statement}` (and add `{name}` to the area of `{pid}`)"
                return help, _cap_fix(facts, pid, name, statement)
    return f"cap it with {_a(word)}, or join it to another piece's opening", ()


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _cap_fix(facts: Facts, pid: str, name: str, statement: str) -> tuple[Fix, ...]:
    areas = [c.area for c in facts.claims if c.piece == pid]
    if facts.text is None or len(areas) != 1:
        return ()
    facts.reserved_ids.add(name)
    added = add_piece(facts.text, facts.model.areas[areas[0]].node, name)
    if added is None:
        return ()
    piece = facts.text.insert_line_after(facts.model.pieces[pid].node.span, statement)
    return fix(f"cap the end with `{statement}` in area `{areas[0]}`", piece, added)


def fresh_id(facts: Facts, base: str) -> str:
    """An identifier no piece, door or area of the quest has (nor a fix of this run has taken)."""
    used = set(facts.model.pieces) | set(facts.model.doors) | set(facts.model.areas) | facts.reserved_ids
    name, i = base, 2
    while name in used:
        name, i = f"{base}{i}", i + 1
    return name
