"""Q306 floor-out-of-reach: the code's descriptor and the check that finds it."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD

Q306 = Descriptor(
    code="Q306", name="floor-out-of-reach", severity=Severity.WARNING,
    template="{count} floor {cells} of area `{area}` can never be reached",
    label_template="unreachable",
    help_template="clear a path to {where}, or remove what walls it off",
    summary="Floor cells no hero can ever reach.",
    explanation="""
Cells of a revealed area that no hero can walk to: cut off by obstacles that block
movement or by walls. Cells under blocking obstacles themselves are not counted.
""",
    example=Example(
        failing=HEAD + 'piece R1 room_4x4 at 0,0\n'
                'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
                '  obstacle rubble at 2,0..2,3\n}\nvictory heroes when revealed A\n',
        fixed=HEAD + 'piece R1 room_4x4 at 0,0\n'
              'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
              '  obstacle rubble at 2,0..2,2\n}\nvictory heroes when revealed A\n'),
    fields=("count", "cells", "area", "where"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q306: floor cells of revealed areas that no hero can walk to (blocking obstacles' own cells excepted)."""
    model, quest_board, analysis = context.model, context.board, context.analysis
    board = quest_board.board
    marked = {m.at for m in model.markers}   # a marker out of reach is Q302's, not counted again
    out = []
    for area_id in sorted(analysis.revealed):
        area = model.areas[area_id]
        lost = sorted(c for c in area.cells
                      if board.is_floor(c) and c not in analysis.reached and not board.blocks_movement(c)
                      and not board.is_wall_like(c) and c not in marked)
        if not lost:
            continue
        where = ", ".join(f"{x},{y}" for x, y in lost[:4]) + (" ..." if len(lost) > 4 else "")
        out.append(Q306.at(area.node.id.span, count=len(lost), cells="cell" if len(lost) == 1 else "cells",
                           area=area_id, where=where))
    return out


RULE = Rule(Q306, find)
