"""Q305 area-visible-from-start: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reveal import hero_start_cells
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD
from questc.rules.reveal.facts import area_span

Q305 = Descriptor(
    code="Q305",
    name="area-visible-from-start",
    severity=Severity.WARNING,
    template="area `{area}` is in line of sight of the start area, so it is revealed before the first turn",
    label_template="seen from the start area",
    help_template="put a door between `{start}` and `{area}`, or make them one area",
    summary="An area other than the start area is in line of sight of the start area.",
    explanation="""
Heroes start in the start area, and every area they can see is revealed at once.
An area seen from the start is revealed before the first turn: its read-aloud text
and its monsters come out during setup, which is rarely what the writer meant.
""",
    example=Example(
        failing=HEAD + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\npiece E1 dead_end at 6,1\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Alcove" { pieces C1, E1 }\n'
        "victory heroes when revealed B\n",
        fixed=HEAD + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\npiece E1 dead_end at 6,1\n"
        "door d between R1 C1\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Alcove" { pieces C1, E1 }\n'
        "victory heroes when revealed B\n",
    ),
    fields=("area", "start"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q305: areas seen from the start area with every door closed (before the first turn)."""
    model, quest_board = context.model, context.quest_board
    if model.reveal != "sight":
        return []
    start = model.start_areas[0]
    board = quest_board.board
    walkable = board.reachable(hero_start_cells(model, board, start.id), start.cells)
    seen = board.visible_cells(walkable or start.cells, model.edition.sight, frozenset(), stairs=True)
    out = []
    flagged = set()
    for cell in sorted(seen):
        area = model.area_of(cell)
        if area is None or area == start.id or area in flagged:
            continue
        flagged.add(area)
        out.append(
            Q305.at(
                area_span(model, area), area=area, start=start.id, labels=[Label(start.node.id.span, "the start area")]
            )
        )
    return out


RULE = Rule(
    Q305,
    find,
    examples=(
        Example(  # second edition: revealed by sight, a tile seen from the start
            failing=second_examples.two(head=second_examples.SIGHT_HEAD),
            fixed=second_examples.two(doors="door d between T T2\n", head=second_examples.SIGHT_HEAD),
        ),
    ),
)
