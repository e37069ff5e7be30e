"""Q215 unjoined-connection: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.placement.facts import fmt_cells, placement_facts
from questc.rules.placement.open_corridor_end import ends_excused_by_doors, move_to_join
from questc.rules.placement.suggest import cap, piece_move_fix
from questc.rules.second_examples import MAP, second

Q215 = Descriptor(
    code="Q215",
    name="unjoined-connection",
    severity=Severity.WARNING,
    template="the {side} connection of `{piece}` ({tile}) {problem}",
    label_template="{side} connection ({cells})",
    help_template="cap it with an end cap, or join it to another tile's connection",
    summary="A tile's connection that joins no other tile's and is not capped.",
    explanation="""
A second edition tile's puzzle-cut connections (two spaces wide) are where it joins
the next tile. On the table a connection left open shows the map running on into
nothing, and the rule book's maps never leave one: every connection of a published
map joins another tile's or is closed by an end cap. A connection that meets another
tile's black edge instead of its connection is a tile turned or placed wrong.

questc treats an unjoined connection as a wall (movement and sight stop there), so the
map works; this warning says the table would not look like it. The fix writes the end
cap that closes the connection, when one fits on the spaces beyond it, and adds it to
the tile's area.
""",
    example=Example(
        failing=second(map_=MAP.replace("piece Cap end_cap at -1,1 turn 90\n", ""), pieces="T, In, Out"), fixed=second()
    ),
    fields=("side", "piece", "tile", "problem", "cells"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q215 (warning): a connection of a second edition tile (or end cap, extender, transition,
    entrance, exit) that joins nothing or meets another piece's edge. "Joins nothing" gets the
    end cap that closes it, as help and (where one area lists the tile) an unsafe fix; a piece a
    few spaces off that would join it, the move instead. A connection carrying a door is joined;
    those next to an overlap (Q201) or meant for a misplaced door (Q205) are left to those codes.
    """
    facts = placement_facts(context)
    model = facts.model
    meets: dict[tuple[str, int], str] = {}
    for pid, index, other in facts.build.openings_meeting_wall:
        meets.setdefault((pid, index), other)
    excused = ends_excused_by_doors(facts)
    out = []
    said: set[frozenset[str]] = set()  # two pieces meeting each other's edge: one warning says it
    for pid, index in facts.build.unjoined_openings:
        piece = model.pieces[pid]
        if piece is None or (pid, index) in excused:
            continue
        opening = piece.shape.openings[index]
        if (set(opening.cells) | set(opening.outside())) & facts.contested:
            continue
        other = meets.get((pid, index))
        if other is not None and (
            frozenset((pid, other)) in facts.overlapping_pairs or frozenset((pid, other)) in said
        ):
            continue
        if other is not None:
            said.add(frozenset((pid, other)))
        values = dict(
            side=opening.side,
            piece=pid,
            tile=piece.type.tile or piece.type.name.replace("_", " "),
            cells=fmt_cells(opening.cells),
        )
        move = move_to_join(facts, pid, opening, other)
        wall = (
            [Label(facts.piece_span(other), f"this piece has no connection where `{pid}` ends")]
            if other is not None
            else []
        )
        if move is not None:
            out.append(
                Q215.at(
                    facts.piece_span(pid),
                    problem="joins nothing" if other is None else f"meets the edge of `{other}`",
                    help=f"move `{move.piece}` {move.words()}"
                    + ("" if move.piece == pid else f" (an end cap here would cut `{move.piece}` off)"),
                    labels=wall,
                    fixes=piece_move_fix(facts, move),
                    **values,
                )
            )
        elif other is not None:
            out.append(
                Q215.at(
                    facts.piece_span(pid),
                    problem=f"meets the edge of `{other}`",
                    labels=wall,
                    help=f"move or turn `{pid}` or `{other}` so that this connection meets one of `{other}`'s "
                    "exactly, or close it with an end cap and leave a gap",
                    **values,
                )
            )
        else:
            help, fixes = cap(facts, pid, opening, "end_cap", "end cap")
            out.append(Q215.at(facts.piece_span(pid), problem="joins nothing", help=help, fixes=fixes, **values))
    return out


RULE = Rule(Q215, find, needs={"tiles"})
