"""Q202 open-corridor-end: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.board.quest_board import door_edges_at
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.placement.examples import HEAD, WIN
from questc.rules.placement.facts import MOVE_REACH, Facts, distance, fmt_cells, placement_facts
from questc.rules.placement.suggest import cap, piece_move_fix

Q202 = Descriptor(
    code="Q202",
    name="open-corridor-end",
    severity=Severity.WARNING,
    template="the {side} end of {kind} `{piece}` {problem}",
    label_template="{side} end ({cells})",
    help_template="cap it with a dead end, or join it to another piece's opening",
    summary="A corridor or intersection end that joins nothing, or meets another piece's wall.",
    explanation="""
Corridor and intersection ends are open: on the table a loose end shows a corridor
running off into nothing, which players read as a way on. Cap every end that leads
nowhere with a `dead_end` piece, and make ends that meet another piece meet one of
its openings exactly. A room's opening that joins nothing is simply wall and draws
no warning; an opening that carries a door is joined.
""",
    example=Example(
        failing=HEAD
        + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\ndoor d between R1 C1\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Passage" { pieces C1 }\n'
        + WIN,
        fixed=HEAD
        + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\npiece E1 dead_end at 6,1\n"
        + "door d between R1 C1\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Passage" { pieces C1, E1 }\n'
        + WIN,
    ),
    fields=("side", "kind", "piece", "problem", "cells"),
)


# The piece kinds whose `end` openings must join something (CATALOG.md).
OPEN_ENDED = ("corridor", "intersection")


def find(context: CheckContext) -> list[Diagnostic]:
    """Q202 (warning): a corridor or intersection end that joins nothing or meets a wall.

    For every unjoined `end` opening of a corridor or intersection, warns
    at the piece's name: "joins nothing" (help: the exact `dead_end` statement that caps
    it) or "runs into the wall of `X`" (label on X). Rooms' unjoined openings are wall and
    never warned about; an opening carrying a door is joined. Ends next to an overlap
    (Q201) or meant for a misplaced door (Q205) are left to those codes.
    """
    facts = placement_facts(context)
    model = facts.model
    meets: dict[tuple[str, int], str] = {}
    for pid, index, other in facts.build.openings_meeting_wall:
        meets.setdefault((pid, index), other)
    excused = ends_excused_by_doors(facts)
    out = []
    for pid, index in facts.build.unjoined_openings:
        piece = model.pieces[pid]
        if piece.type.kind not in OPEN_ENDED:
            continue
        opening = piece.shape.openings[index]
        if not opening.end or (pid, index) in excused:
            continue
        near = set(opening.cells) | set(opening.outside())
        if near & facts.contested:
            continue
        other = meets.get((pid, index))
        if other is not None and frozenset((pid, other)) in facts.overlapping_pairs:
            continue
        values = dict(side=opening.side, kind=piece.type.kind, piece=pid, cells=fmt_cells(opening.cells))
        move = move_to_join(facts, pid, opening, other)
        if move is not None:
            # A piece a few cells off joins this end: capping it would cut that piece off for good.
            out.append(
                Q202.at(
                    facts.piece_span(pid),
                    problem="joins nothing" if other is None else f"runs into the wall of `{other}`",
                    help=f"move `{move.piece}` {move.words()}"
                    + ("" if move.piece == pid else f" (a dead end here would cut `{move.piece}` off)"),
                    labels=[Label(facts.piece_span(other), f"this piece has no opening where `{pid}` ends")]
                    if other is not None
                    else [],
                    fixes=piece_move_fix(facts, move),
                    **values,
                )
            )
        elif other is not None:
            out.append(
                Q202.at(
                    facts.piece_span(pid),
                    problem=f"runs into the wall of `{other}`",
                    labels=[Label(facts.piece_span(other), f"this piece has no opening where `{pid}` ends")],
                    help=f"move or turn `{pid}` or `{other}` so that this end meets one of `{other}`'s openings "
                    f"exactly, or cap the end with a dead end and leave a gap",
                    **values,
                )
            )
        else:
            help, fixes = cap(facts, pid, opening, "dead_end", "dead end")
            out.append(Q202.at(facts.piece_span(pid), problem="joins nothing", help=help, fixes=fixes, **values))
    return out


def move_to_join(facts: Facts, pid: str, opening, other: str | None):
    """A nearby piece (this one, the one whose wall it meets, or one with a loose opening facing
    this end) that, moved a few cells, joins this end."""
    model = facts.model
    ends = set(opening.outside()) | set(opening.cells)
    candidates = [pid] + ([other] if other else [])
    for qid, index in facts.build.unjoined_openings:
        piece = model.pieces.get(qid)
        if qid in candidates or piece is None:
            continue
        if any(
            abs(a[0] - b[0]) <= 2 * MOVE_REACH and abs(a[1] - b[1]) <= 2 * MOVE_REACH
            for a in piece.shape.openings[index].outside()
            for b in ends
        ):
            candidates.append(qid)
    moves = []
    for qid in candidates:
        move = facts.better_place(qid)
        if move is None:
            continue
        if qid != pid and pid in move.joins:
            moves.append(move)
        elif qid == pid:
            moved = (
                model.pieces[pid]
                .type.placed(move.at, model.pieces[pid].turn)
                .openings[model.pieces[pid].shape.openings.index(opening)]
            )
            joined = {
                o
                for p2 in model.pieces.values()
                if p2 is not None and p2.id != pid
                for o in p2.shape.openings
                if set(o.edges()) == set(moved.edges())
            }
            if joined:
                moves.append(move)
    return max(moves, key=lambda m: (len(m.joins), -m.length), default=None)


def ends_excused_by_doors(facts: Facts) -> set[tuple[str, int]]:
    """Openings a misplaced door (Q205) was meant for: the door is the cause there."""
    model = facts.model
    excused: set[tuple[str, int]] = set()
    bad = {door_id for door_id, _ in facts.qb.door_problems}
    for door_id in bad:
        door = model.doors[door_id]
        if door.at is not None and door.side is not None:
            edges = set(door_edges_at(door.at, door.side))
            for piece in model.pieces.values():
                for index, opening in enumerate(piece.shape.openings):
                    if set(opening.edges()) & edges:
                        excused.add((piece.id, index))
        elif door.between:
            # The door names two pieces that do not meet: the end of each facing the other
            # is the one the writer meant to join.
            for a, b in (door.between, door.between[::-1]):
                if a not in model.pieces or b not in model.pieces:
                    continue
                piece, other = model.pieces[a], model.pieces[b]
                unjoined = [i for p, i in facts.build.unjoined_openings if p == a]
                if unjoined:
                    nearest = min(
                        unjoined,
                        key=lambda i: min(
                            distance(c, o) for c in piece.shape.openings[i].outside() for o in other.shape.cells
                        ),
                    )
                    excused.add((a, nearest))
    return excused


# The second edition has no corridors: its tiles' connections are closed by end caps (Q215).
RULE = Rule(Q202, find, needs={"corridors"})
