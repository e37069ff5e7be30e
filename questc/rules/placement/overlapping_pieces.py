"""Q201 overlapping-pieces: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.placement.examples import HEAD, WIN
from questc.rules.placement.facts import Cell, Facts, distance, fmt, fmt_cells, placement_facts

Q201 = Descriptor(
    code="Q201",
    name="overlapping-pieces",
    severity=Severity.ERROR,
    template="piece `{piece}` overlaps piece `{other}` on {cells}",
    label_template="overlaps `{other}`",
    help_template="move `{piece}` so that none of its cells lie on `{other}`",
    summary="Two map pieces overlap.",
    explanation="""
Map pieces are cardboard tiles: they lie side by side and never on top of each other.
Where two pieces share cells the map cannot be built on the table, and every wall,
joint and line of sight near them is meaningless. The help suggests the nearest
position where the piece no longer overlaps anything.
""",
    example=Example(
        failing=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 2,2\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Other" { pieces R2 }\n'
        + WIN,
        fixed=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Other" { pieces R2 }\n'
        + WIN,
    ),
    fields=("piece", "other", "cells"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q201: two pieces overlap.

    Reports each pair of pieces sharing cells once, at the later piece's
    name, with a label on the earlier piece and, as help, the nearest position where the
    later piece overlaps nothing.
    """
    facts = placement_facts(context)
    out = []
    pieces = facts.model.pieces
    for first, second, cells in facts.build.overlaps:
        piece = pieces[second]
        spot = _free_spot(facts, second)
        help = None
        if spot is not None:
            turn = f" turn {piece.turn}" if piece.turn else ""
            help = (
                f"move `{second}` off `{first}`: `piece {second} {piece.type.name} at {fmt(spot)}{turn}` "
                f"is the nearest place where it overlaps no piece"
            )
        out.append(
            Q201.at(
                facts.piece_span(second),
                piece=second,
                other=first,
                cells=fmt_cells(cells),
                labels=[Label(facts.piece_span(first), f"`{second}` overlaps this piece")],
                help=help,
            )
        )
    return out


def _free_spot(facts: Facts, piece_id: str) -> Cell | None:
    """The nearest `at` point (up to 12 cells away) where the piece overlaps no other piece."""
    piece = facts.model.pieces[piece_id]
    others: set[Cell] = set()
    for other in facts.model.pieces.values():
        if other is not None and other.id != piece_id:
            others |= other.shape.cells
    ax, ay = piece.at
    rel = [(x - ax, y - ay) for x, y in piece.shape.cells]
    candidates = [(ax + dx, ay + dy) for dx in range(-12, 13) for dy in range(-12, 13) if (dx, dy) != (0, 0)]
    for spot in sorted(candidates, key=lambda c: distance(piece.at, c)):
        if not any((spot[0] + x, spot[1] + y) in others for x, y in rel):
            return spot
    return None


RULE = Rule(
    Q201,
    find,
    examples=(
        Example(  # second edition: a tile laid over another
            failing=second_examples.second(
                map_=second_examples.MAP + "piece T2 tile_2a at 2,2\n", pieces="T, T2, In, Out, Cap"
            ),
            fixed=second_examples.second(),
        ),
    ),
)
