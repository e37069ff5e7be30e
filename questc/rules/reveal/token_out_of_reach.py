"""Q310 token-out-of-reach: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reach import places, token_reachable
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.placement.facts import marker_name
from questc.rules.second_examples import second

Q310 = Descriptor(
    code="Q310",
    name="token-out-of-reach",
    severity=Severity.ERROR,
    template="no hero can reach the {thing} {where}",
    label_template="out of reach",
    help_template="{help_text}",
    summary="A search token, objective or villager no hero can reach from the start.",
    explanation="""
A hero searches a search token, picks up an objective and meets a villager from the
token's own space or a space next to it (a door between two spaces keeps them apart).
A token on a part of the map no hero can walk to from where the heroes start (cut off
by walls, closed off by blocked spaces, or on a piece that joins nothing) can never
be used: a promise the quest cannot keep. Tokens the overlord places `on` pieces or
`among` points are out of reach when none of their spaces is in reach.
""",
    example=Example(
        # Tile 10A, a room with connections west and east only, sits apart from tile 9A.
        failing=second(
            "  villager at 10,1\n",
            pieces="T, In, Out, Cap, R",
            map_="piece T tile_9a at 0,0\npiece In entrance at 1,-2 turn 180\n"
            "piece Out exit at 4,1 turn 270\npiece Cap end_cap at -1,1 turn 90\n"
            "piece R tile_10a at 8,0\n",
        ),
        fixed=second("  villager at 2,1\n", pieces="T, In, Out, Cap"),
    ),
    fields=("thing", "where", "help_text"),
)

# The tokens a hero must stand on or next to; a lieutenant is fought (Q307 when a
# victory needs it), whatever stands next to it.
_REACHED_TOKENS = ("search", "objective", "villager")


def find(context: CheckContext) -> list[Diagnostic]:
    """Q310: search tokens, objectives and villagers with no reached space on or next to them.

    Next to means one step for a figure (a wall or closed door between the spaces
    keeps them apart). Tokens off the map or on a blocked space are Q212's.
    """
    model, analysis, board = context.model, context.analysis, context.board
    reached = analysis.reached
    out = []
    for marker in model.markers:
        if marker.kind not in _REACHED_TOKENS:
            continue
        if not board.is_floor(marker.at) or board.blocks_movement(marker.at):
            continue  # Q212
        if marker.at in reached or any(c in reached for c in board.steps_from(marker.at)):
            continue
        out.append(
            Q310.at(
                marker.span,
                thing=marker_name(marker),
                where=f"at {marker.at[0]},{marker.at[1]}",
                help_text="move it onto a space the heroes can walk to, or join its tile to the map",
            )
        )
    for token in model.tokens:  # placed by the overlord `on` pieces or `among` points: any space will do
        if (
            token.placement in ("on", "among")
            and places(board, token.cells)
            and not token_reachable(board, token, reached)
        ):
            where = ("on " + ", ".join(token.pieces)) if token.placement == "on" else "among its spaces"
            out.append(
                Q310.at(
                    token.span,
                    thing=token.name,
                    where=where,
                    help_text="place it where the heroes can walk, or join its tile to the map",
                )
            )
    return out


RULE = Rule(Q310, find, needs={"tokens"})
