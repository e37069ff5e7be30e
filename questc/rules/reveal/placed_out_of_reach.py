"""Q314 placed-out-of-reach: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reach import near, places
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import MAP, second
from questc.syntax import nodes as n

# Tile 10A, a room joined to nothing, east of the example map.
_ISLAND = MAP + "piece R tile_10a at 8,0\n"
_EACH = "at end of each overlord turn {\n  place 2 zombie on %s\n}\n"

Q314 = Descriptor(
    code="Q314",
    name="placed-out-of-reach",
    severity=Severity.WARNING,
    template="{what} placed where no hero can reach: {where}",
    label_template="out of reach",
    help_template="{help_text}",
    summary="Reinforcements or tokens placed during play (`place`) where no hero can come next to them.",
    explanation="""
A `place` effect puts monsters (reinforcements) or tokens on the map during play. On a
part of the map the heroes cannot walk next to (a tile joined to nothing, a room sealed
off), reinforcements never reach the heroes and tokens can never be taken: the rule
does nothing, which is rarely what its writer meant.
""",
    example=Example(
        failing=second(map_=_ISLAND, pieces="T, In, Out, Cap, R", win="victory heroes when exited\n" + _EACH % "R"),
        fixed=second(win="victory heroes when exited\n" + _EACH % "T"),
    ),
    fields=("what", "where", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q314 (warning): a `place` effect none of whose spaces a reached space is on or next to."""
    model, board, reached = context.model, context.board, context.analysis.reached
    out = []
    for effect, _source in model.effects():
        if not isinstance(effect, n.PlaceEffect):
            continue
        cells: set[tuple[int, int]] = set()
        for name in effect.on:
            piece = model.pieces.get(name.value)
            if piece is not None:
                cells |= piece.shape.cells
        if effect.area is not None and effect.area.value in model.areas:
            cells |= model.areas[effect.area.value].cells
        for point in effect.at:
            ox, oy = (0, 0)
            piece = model.pieces.get(point.piece.value) if point.piece is not None else None
            if piece is not None:
                ox, oy = piece.at
            cells.add((ox + point.x, oy + point.y))
        room = places(board, cells)
        if not room or any(near(board, c, reached) for c in room):
            continue  # nowhere at all is Q217's (or Q204's) to say
        what = "reinforcements" if effect.kind == "monster" else f"{effect.kind} tokens"
        where = (
            ("area " + f"`{effect.area.value}`")
            if effect.area is not None
            else "piece " + ", ".join(f"`{p.value}`" for p in effect.on)
            if effect.on
            else "the points listed"
        )
        out.append(
            Q314.at(
                effect.span,
                what=what.capitalize(),
                where=where,
                help_text="place them where the heroes can walk, or join that part of the map to it",
            )
        )
    return out


RULE = Rule(Q314, find, needs={"groups"})
