"""Q306 floor-out-of-reach: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD
from questc.rules.reveal.marker_out_of_reach import unreachable_markers
from questc.words import plural

Q306 = Descriptor(
    code="Q306",
    name="floor-out-of-reach",
    severity=Severity.WARNING,
    template="{cells} of area `{area}` can never be reached{elsewhere}",
    label_template="unreachable",
    help_template="clear a path to {where}, or remove what walls it off",
    summary="Floor cells no hero can ever reach.",
    explanation="""
Cells of a revealed area that no hero can walk to: cut off by obstacles that block
movement or by walls. Cells under blocking obstacles themselves are not counted. A
marker on such a cell (a chest, a glyph...) is reported on its own (Q302); the count
still includes its cell, and the message says which cells those are.
""",
    example=Example(
        failing=HEAD + "piece R1 room_4x4 at 0,0\n"
        'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
        "  obstacle rubble at 2,0..2,3\n}\nvictory heroes when revealed A\n",
        fixed=HEAD + "piece R1 room_4x4 at 0,0\n"
        'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
        "  obstacle rubble at 2,0..2,2\n}\nvictory heroes when revealed A\n",
    ),
    fields=("cells", "area", "elsewhere", "where"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q306: floor cells of revealed areas that no hero can walk to (blocking obstacles' own cells excepted)."""
    model, quest_board, analysis = context.model, context.quest_board, context.analysis
    board = quest_board.board
    reported = {marker.at: what for marker, what in unreachable_markers(context)}  # Q302's
    out = []
    for area_id in sorted(analysis.revealed):
        area = model.areas[area_id]
        lost = sorted(
            c
            for c in area.cells
            if board.is_floor(c)
            and c not in analysis.reached
            and not board.blocks_movement(c)
            and not board.is_wall_like(c)
        )
        if not lost or all(c in reported for c in lost):
            continue  # nothing but cells whose markers Q302 reports: it says all there is
        where = ", ".join(f"{x},{y}" for x, y in lost[:4]) + (" ..." if len(lost) > 4 else "")
        out.append(
            Q306.at(
                area.node.id.span,
                cells=plural(len(lost), "floor cell"),
                area=area_id,
                elsewhere=_reported_elsewhere([c for c in lost if c in reported], reported),
                where=where,
            )
        )
    return out


def _reported_elsewhere(cells: list[tuple[int, int]], reported: dict[tuple[int, int], str]) -> str:
    """`` or ` (the gold chest at 5,6 on one of them is reported on its own)`."""
    if not cells:
        return ""
    named = [f"{reported[c]} at {c[0]},{c[1]}" for c in cells[:3]]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    if len(cells) > 3:
        listed += f" and {plural(len(cells) - 3, 'other marker')}"
    if len(cells) == 1:
        return f" (the {listed} on one of them is reported on its own)"
    return f" (the {listed} on {len(cells)} of them are reported on their own)"


RULE = Rule(
    Q306,
    find,
    examples=(
        Example(  # second edition: a tile joined to nothing
            failing=second_examples.two(apart=True, win=second_examples.ROUNDS),
            fixed=second_examples.two(win=second_examples.ROUNDS),
        ),
    ),
)
