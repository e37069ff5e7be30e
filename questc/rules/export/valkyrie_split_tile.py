"""Q702 valkyrie-split-tile: the code's descriptor; the Valkyrie export reports it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.export.examples import second

_MAP = (
    "piece T tile_9a at 0,0\npiece In entrance at 1,-2 turn 180\npiece Out exit at 4,1 turn 270\n"
    "piece Cap end_cap at -1,1 turn 90\n"
)

Q702 = Descriptor(
    code="Q702",
    name="valkyrie-split-tile",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="`{piece}` is one part of tile 13A without {other} where the tile puts it: Valkyrie places 13A only whole",
    label_template="half of tile 13A",
    help_template="{help_text}",
    summary="One part of tile 13A (`tile_13a1`, `tile_13a2`) without the other where the tile has it.",
    explanation="""
questc's tile data gives side 13A as two parts: `tile_13a1`, a strip of four spaces, and
`tile_13a2`. On the real tile they are one piece of cardboard: the strip lies along the
north edge of the larger part, one space in from its west side (with `tile_13a2` at X,Y,
`tile_13a1` is at X+1,Y-1, both turned alike). Valkyrie has one side, `TileSide13A`, and
can only place the two together; a part alone, or the two apart, cannot be exported.
""",
    example=Example(
        failing=second(
            map_=_MAP + "piece P tile_13a2 at 0,4\n", pieces="T, In, Out, Cap, P", win="victory heroes when round > 6\n"
        ),
        fixed=second(
            map_=_MAP + "piece P tile_13a2 at 0,4\npiece Q tile_13a1 at 1,3\n",
            pieces="T, In, Out, Cap, P, Q",
            win="victory heroes when round > 6\n",
        ),
    ),
    fields=("piece", "other", "help_text"),
)

RULE = Rule(Q702, reported_by="questc.emit.valkyrie.translate")
