"""Q213 tile-used-twice: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.model.quest import PlacedPieceModel
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import second

# The end caps closing the west side of the first tile and the east side of the second.
_CAPS = "piece W end_cap at -1,1 turn 90\npiece E end_cap at 8,1 turn 270\n"

Q213 = Descriptor(
    code="Q213",
    name="tile-used-twice",
    severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A second edition tile placed twice in one encounter, or both sides of one tile.",
    explanation="""
The second edition's numbered map tiles are double-sided: tile 1 shows 1A on one side
and 1B on the other, and the box holds one of each number. An encounter's map can use
a tile once, on one side: two `tile_1a` pieces, or `tile_1a` with `tile_1b`, cannot be
laid out on the table. (The two parts of 13A, `tile_13a1` and `tile_13a2`, are one
side of tile 13 and go together.) Each encounter is its own map, so the next
encounter may use the tile again.
""",
    example=Example(
        failing=second(
            map_="piece T tile_9a at 0,0\npiece T2 tile_9b at 4,0\npiece In entrance at 1,-2 turn 180\n" + _CAPS,
            pieces="T, T2, In, W, E",
            win="victory heroes when round > 6\n",
        ),
        fixed=second(
            map_="piece T tile_9a at 0,0\npiece T2 tile_10a at 4,0\npiece In entrance at 1,-2 turn 180\n" + _CAPS,
            pieces="T, T2, In, W, E",
            win="victory heroes when round > 6\n",
        ),
    ),
    fields=("problem", "label", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q213: pieces with a printed tile code, grouped by tile number; every piece after the
    first of a number is reported: the same piece type again (placed twice) or another
    side (both sides). Parts of one side (13A's two) may go together, once each."""
    model = context.model
    first_of_type: dict[str, PlacedPieceModel] = {}
    first_of_number: dict[str, PlacedPieceModel] = {}
    out = []
    for piece in model.pieces.values():
        if piece is None or piece.type.tile_number is None:
            continue
        number, tile = piece.type.tile_number, piece.type.tile or ""
        same = first_of_type.get(piece.type.name)
        other = first_of_number.get(number)
        if same is not None:
            first = same
            problem = f"tile {tile} is placed twice: the box holds one tile {number}"
            label = "a second tile_" + tile.lower()
            help_text = "use another tile here: `questc catalog pieces` lists them"
        elif other is not None and other.type.tile != tile:
            first = other
            problem = f"tile {number} is used on both sides: {other.type.tile} and {tile} are the two faces of one tile"
            label = f"the other side of tile {number}"
            help_text = f"keep one side of tile {number} and use another tile here"
        else:  # the first of its number, or the other part of the same side (13A)
            first_of_type[piece.type.name] = piece
            first_of_number.setdefault(number, piece)
            continue
        out.append(
            Q213.at(
                piece.node.type.span,
                problem=problem,
                label=label,
                help_text=help_text,
                labels=[Label(first.node.type.span, f"tile {first.type.tile} already placed here")],
            )
        )
    return out


RULE = Rule(Q213, find, needs={"tiles"})
