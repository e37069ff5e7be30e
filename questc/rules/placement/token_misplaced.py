"""Q212 token-misplaced: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.model.quest import TOKEN_KINDS
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.placement.facts import fmt, marker_name, placement_facts
from questc.rules.placement.suggest import move_fix
from questc.rules.second_examples import second

# Tile 1B, its entrance north and its other connections (west, south) capped.
_MAP = (
    "piece T tile_1b at 0,0\npiece In entrance at 3,-2 turn 180\npiece W end_cap at -1,2 turn 90\n"
    "piece S end_cap at 3,6\n"
)

Q212 = Descriptor(
    code="Q212",
    name="token-misplaced",
    severity=Severity.ERROR,
    template="{thing} at {where} is {problem}",
    label_template="{label}",
    summary="A search token, objective, villager or lieutenant off the map or on a blocked space.",
    explanation="""
Second edition tokens lie on spaces of the map: a search token is searched, an
objective picked up and a villager met from its own space or the one next to it, and
a lieutenant is a figure. A token off every tile has no space to lie on. One on a
blocked space (a tile's obstacle, outlined in red) stands where no figure may ever
go: a lieutenant could never move, and a token there breaks the setup the overlord
reads from the map. Water, pits and lava are spaces like any other for tokens.
""",
    example=Example(
        # Tile 1B has blocked spaces in its third column (x 2, y 0-1 and y 4-5).
        failing=second("  search at 2,1\n", map_=_MAP, pieces="T, In, W, S", win="victory heroes when round > 6\n"),
        fixed=second("  search at 3,1\n", map_=_MAP, pieces="T, In, W, S", win="victory heroes when round > 6\n"),
    ),
    fields=("thing", "where", "problem", "label"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q212: a second edition token (TOKEN_KINDS) on no floor cell, or on a space terrain blocks.

    A token outside its own area but on the map is Q204's. The help names the nearest
    free space of the token's area.
    """
    facts = placement_facts(context)
    model = facts.model
    out = []
    for marker in model.markers:
        if marker.kind not in TOKEN_KINDS:
            continue
        blocker = facts.blocker(marker.at)
        if marker.at in facts.floor and blocker is None:
            continue
        spot = facts.free_cell(marker.area, marker.at) if marker.area in model.areas else None
        move = f", such as {fmt(spot)}" if spot else ""
        # Moving it to the nearest free space of its area is a guess at what was meant: unsafe.
        fixes = move_fix(facts, marker.span, spot, f"the {marker_name(marker)}") if spot else ()
        if blocker is None:
            out.append(
                Q212.at(
                    marker.span,
                    thing=marker_name(marker),
                    where=fmt(marker.at),
                    problem="off the map",
                    label="no space here",
                    help=f"put it on a space of area `{marker.area}`{move}",
                    fixes=fixes,
                )
            )
        else:
            out.append(
                Q212.at(
                    marker.span,
                    thing=marker_name(marker),
                    where=fmt(marker.at),
                    problem=f"on a {blocker.kind.name} space, where no figure may go",
                    label="a blocked space",
                    labels=[Label(blocker.span, f"{blocker.kind.name} printed on this piece")],
                    help=f"move it to a free space{move}",
                    fixes=fixes,
                )
            )
    return out


RULE = Rule(Q212, find, needs={"tokens"})
