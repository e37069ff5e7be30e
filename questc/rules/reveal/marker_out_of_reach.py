"""Q302 marker-out-of-reach: the code's descriptor and the check that finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc.analysis import named_reachable
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.model.quest import TOKEN_KINDS
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD
from questc.rules.reveal.facts import rune_doors
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from questc.model.quest import Marker

Q302 = Descriptor(
    code="Q302",
    name="marker-out-of-reach",
    severity=Severity.ERROR,
    template="the heroes can never reach the {thing} at {x},{y}",
    label_template="out of reach",
    help_template="{help_text}",
    summary="A marker the heroes can never reach (chest, glyph, encounter, runekey, relic, treasure, or a named monster they must kill).",
    explanation="""
The area is revealed, but no hero can walk to this cell: it is walled off, or ringed
by obstacles that block movement (rubble, water). A chest nobody can open or a
monster nobody can reach is a broken promise to the players.
""",
    example=Example(
        failing=HEAD + "piece R1 room_4x4 at 0,0\n"
        'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
        "  obstacle rubble at 2,0 2,1 3,1\n  relic crown at 3,0\n}\n"
        "victory heroes when revealed A\n",
        fixed=HEAD + "piece R1 room_4x4 at 0,0\n"
        'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
        "  obstacle rubble at 2,0 3,1\n  relic crown at 3,0\n}\n"
        "victory heroes when revealed A\n",
    ),
    fields=("thing", "x", "y", "help_text"),
)


_MARKER_WORDS = {
    "chest": "chest",
    "glyph": "glyph",
    "encounter": "encounter",
    "runekey": "runekey",
    "relic": "relic",
    "treasure": "treasure",
}


def unreachable_markers(context: CheckContext) -> list[tuple[Marker, str]]:
    """The markers Q302 reports, with what each is called (`gold chest`), in source order.

    Markers in areas never revealed are Q301's (or Q303's) cause already; a marker
    outside its own area is Q204's. Q306 names these when it counts lost floor cells.
    """
    model, analysis = context.model, context.analysis
    hopeful = rune_doors(context).hopeful
    revealed = analysis.revealed
    out = []
    for marker in model.markers:
        if marker.kind in TOKEN_KINDS:
            continue  # second edition tokens are searched from next to them: Q310's
        if marker.area not in revealed or marker.at in analysis.reached or marker.at in hopeful.reached:
            continue
        if model.area_of(marker.at) != marker.area:
            continue
        what = _MARKER_WORDS.get(marker.kind, marker.kind)
        if marker.variant and marker.kind in ("chest", "treasure", "runekey"):
            what = f"{marker.variant} {what}"
        out.append((marker, what))
    return out


def find(context: CheckContext) -> list[Diagnostic]:
    """Q302: markers in revealed areas on cells no hero can walk to, and named monsters the
    heroes must kill but cannot reach."""
    model, analysis = context.model, context.analysis
    hopeful = rune_doors(context).hopeful
    revealed = analysis.revealed
    out = []
    for marker, what in unreachable_markers(context):
        out.append(
            Q302.at(
                marker.span,
                thing=what,
                x=marker.at[0],
                y=marker.at[1],
                help_text="move it to a cell the heroes can walk to, or clear a path "
                "(obstacles that block movement, walls)",
            )
        )
    for victory in model.victories:
        for target in (a.target for a in n.event_conditions(victory.when, negated=False) if a.event == "killed"):
            named = model.named.get(target.value)
            if named is None or not named.placements:
                continue
            figure_area = next((f.area for f in model.figures if f.named == named.id), None)
            if figure_area not in revealed:
                continue
            if named_reachable(model, named.id, analysis.reached) or named_reachable(model, named.id, hopeful.reached):
                continue
            place = named.placements[0]
            out.append(
                Q302.at(
                    place.at.span,
                    thing=f"named monster `{named.id}`",
                    x=place.at.x,
                    y=place.at.y,
                    labels=[Label(target.span, "the heroes must kill it")],
                    help_text="leave a cell next to it that the heroes can walk to",
                )
            )
    return out


_NAMED = 'named big "Big" ettin { }\nvictory heroes when killed big\n'

RULE = Rule(
    Q302,
    find,
    examples=(
        Example(  # second edition: a named monster on a tile joined to nothing
            failing=second_examples.two(east="  named big at 11,1\n", apart=True, win=_NAMED),
            fixed=second_examples.two(east="  named big at 5,1\n", win=_NAMED),
        ),
    ),
)
