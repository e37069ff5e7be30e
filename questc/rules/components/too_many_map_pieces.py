"""Q404 too-many-map-pieces: the code's descriptor and the check that finds it."""

from __future__ import annotations

from collections import defaultdict

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule, second_examples
from questc.rules.components.counting import too_many
from questc.rules.components.examples import BASE
from questc.rules.context import CheckContext

Q404 = Descriptor(
    code="Q404",
    name="too-many-map-pieces",
    severity=Severity.ERROR,
    template="the map uses {counted}, but {holding}",
    label_template="one {kind} piece too many",
    help_template="replace {extra_counted} with pieces of another kind, or list a set that brings more "
    "in `expansions`{hint}",
    summary="More map pieces of a kind than the owned sets hold.",
    explanation="""
The rule books count map pieces by kind, not by shape: the base game holds 10 rooms,
25 corridors, 6 intersections and 20 dead ends, and The Well of Darkness adds 1 room,
3 corridors, 4 intersections and 2 dead ends. A map that needs more pieces of a kind
than the owned sets hold cannot be built on the table. A box that holds more (a second
copy of a set, pieces from elsewhere) is declared in the configuration's `[owned]`
table: `sets = { base = 2 }`, or `pieces = { room = 14 }`.
""",
    example=Example(
        failing=BASE
        + "".join(f"piece R{i} room_4x4 at {4 * i},0\n" for i in range(1, 12))
        + 'area A "Hall" start {\n  pieces '
        + ", ".join(f"R{i}" for i in range(1, 12))
        + "\n  glyph at 4,0 active\n}\nvictory heroes when revealed A\n",
        fixed=BASE
        + "".join(f"piece R{i} room_4x4 at {4 * i},0\n" for i in range(1, 11))
        + 'area A "Hall" start {\n  pieces '
        + ", ".join(f"R{i}" for i in range(1, 11))
        + "\n  glyph at 4,0 active\n}\nvictory heroes when revealed A\n",
    ),
    fields=("counted", "kind", "holding", "extra_counted", "hint"),
)


PIECE_WORDS = {"dead_end": "dead end"}


def find(context: CheckContext) -> list[Diagnostic]:
    """Q404: map pieces of each kind (room, corridor, intersection, dead end) against the owned sets."""
    model = context.model
    by_kind = defaultdict(list)
    for piece in model.pieces.values():
        if piece is not None:
            by_kind[piece.type.kind].append((piece.node.id.span, 1))
    found = []
    for kind, items in by_kind.items():
        word = PIECE_WORDS.get(kind, kind)
        diagnostic = too_many(
            Q404, context.box.held("pieces", kind), items, f"another {word} piece", f"{word} piece", kind=word
        )
        if diagnostic is not None:
            found.append(diagnostic)
    return found


RULE = Rule(
    Q404,
    find,
    examples=(
        Example(  # second edition: two exit pieces, where the game has one
            failing=second_examples.second(
                map_=second_examples.MAP.replace(
                    "piece Cap end_cap at -1,1 turn 90", "piece Out2 exit at -2,1 turn 90"
                ),
                pieces="T, In, Out, Out2",
            ),
            fixed=second_examples.second(),
        ),
    ),
)
