"""Q308 stairs-around-rune-door: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reveal import hero_start_cells
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS

Q308 = Descriptor(
    code="Q308",
    name="stairs-around-rune-door",
    severity=Severity.WARNING,
    template="stairs `{colour}` lead around the rune door `{door}`",
    label_template="these stairs bypass the door",
    help_template="move one end of the stairs behind `{door}`, or make the door a normal door",
    summary="Stairs lead around a rune door (an area behind a rune door is reachable without its key).",
    explanation="""
The heroes can reach both sides of this rune door without its key, by way of the
stairs. The lock then guards nothing.
""",
    example=Example(
        failing=HEAD + TWO_ROOMS + "door gate between R1 R2 rune red\nstairs blue at 3,3 4,3\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active; runekey red at 0,3 }\n'
        'area B "Beyond" { pieces R2 }\nvictory heroes when revealed B\n',
        fixed=HEAD + TWO_ROOMS + "door gate between R1 R2 rune red\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active; runekey red at 0,3 }\n'
        'area B "Beyond" { pieces R2 }\nvictory heroes when revealed B\n',
    ),
    fields=("colour", "door"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q308: rune doors whose far side the heroes reach without the key, by way of stairs."""
    model, quest_board, analysis = context.model, context.quest_board, context.analysis
    if not model.stairs:
        return []
    board = quest_board.board
    revealed_cells = frozenset(c for a in analysis.revealed for c in model.areas[a].cells)
    start_cells = hero_start_cells(model, board, model.start_areas[0].id)
    out = []
    for door_id in sorted(quest_board.door_edges):
        door = model.doors[door_id]
        if not door.rune:
            continue
        passable = frozenset(
            d for d in quest_board.door_edges if model.doors[d].rune is None or model.doors[d].rune != door.rune
        )
        with_stairs = board.reachable(start_cells, revealed_cells, passable, True)
        without = board.reachable(start_cells, revealed_cells, passable, None)
        beside = quest_board.door_cells[door_id]
        if all(any(c in with_stairs for c in side) for side in _sides(beside, quest_board, door_id)) and not all(
            any(c in without for c in side) for side in _sides(beside, quest_board, door_id)
        ):
            for stairs in model.stairs:
                if any(end in with_stairs for end in stairs.ends):
                    out.append(
                        Q308.at(
                            stairs.node.colour.span,
                            colour=stairs.colour,
                            door=door_id,
                            labels=[Label(door.node.id.span, "the rune door")],
                        )
                    )
                    break
    return out


def _sides(cells, quest_board, door_id):
    """The door's four neighbouring cells split into its two sides."""
    (x1, y1, x2, y2) = quest_board.door_edges[door_id][0]
    if y1 == y2:  # horizontal door: north side and south side
        return ([c for c in cells if c[1] < y1], [c for c in cells if c[1] >= y1])
    return ([c for c in cells if c[0] < x1], [c for c in cells if c[0] >= x1])


RULE = Rule(Q308, find, needs={"stairs", "rune doors"})
