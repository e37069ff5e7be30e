"""Q214 start-without-entrance: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.placement.facts import fmt, placement_facts
from questc.rules.second_examples import second

Q214 = Descriptor(
    code="Q214",
    name="start-without-entrance",
    severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A second edition quest's heroes have nowhere to start: no entrance and no `start at` "
    "space in the start area, or a `start at` space off the start area's free floor.",
    explanation="""
Second edition heroes start on the spaces of the entrance tile unless the quest says
otherwise. So the start area must hold an `entrance` piece, or name the heroes'
spaces with `start at P...`. Each `start at` space must be a space of the start
area that a figure may stand on (not off the map, not on a blocked space, not in
another area).
""",
    example=Example(
        failing=second(
            pieces="T, Out, Cap",
            map_="piece T tile_9a at 0,0\npiece Out exit at 4,1 turn 270\npiece Cap end_cap at -1,1 turn 90\n",
        ),
        fixed=second(
            "  start at 0,0 1,0\n",
            pieces="T, Out, Cap, N",
            map_="piece T tile_9a at 0,0\npiece Out exit at 4,1 turn 270\n"
            "piece Cap end_cap at -1,1 turn 90\npiece N end_cap at 1,-1 turn 180\n",
        ),
    ),
    fields=("problem", "label", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q214 (second edition only): the first start area has neither an entrance piece nor
    `start at` spaces; or a `start at` space is not a free floor space of the start area."""
    facts = placement_facts(context)
    model = facts.model
    out = []
    starts = model.start_areas
    start = starts[0] if starts else None
    for point in model.hero_starts:
        if start is None or point.area != start.id:
            area = model.areas[point.area]
            out.append(
                Q214.at(
                    point.span,
                    problem=f"the heroes start in the start area, but `{area.id}` is not it",
                    label="not the start area",
                    labels=[Label(area.node.id.span, "this area")],
                    help_text="write `start at` in the start area's block",
                )
            )
        elif point.at not in facts.floor or point.at not in start.cells:
            out.append(
                Q214.at(
                    point.span,
                    problem=f"the start space {fmt(point.at)} is not a space of the start area `{start.id}`",
                    label="no space of the start area here",
                    help_text=f"name spaces of `{start.id}`",
                )
            )
        elif (blocker := facts.blocker(point.at)) is not None:
            out.append(
                Q214.at(
                    point.span,
                    problem=f"the start space {fmt(point.at)} is a {blocker.kind.name} space, where no hero may stand",
                    label="a blocked space",
                    help_text="name spaces a hero may stand on",
                )
            )
    if start is None or any(p.area == start.id for p in model.hero_starts):
        return out
    placed = model.role_pieces("entrance")
    if any(p.id in start.pieces for p in placed):
        return out
    labels = [Label(p.node.id.span, f"an entrance, in area `{model.area_of(p.at) or '?'}`") for p in placed]
    help_text = (
        f"put the entrance's piece in `{start.id}`'s `pieces`"
        if placed
        else "join an `entrance` piece to the map and list it in the start area, or write `start at X,Y ...` there"
    )
    out.append(
        Q214.at(
            start.node.id.span,
            problem=f"start area `{start.id}` holds no entrance and no "
            "`start at` spaces: the heroes have nowhere to start",
            label="the heroes start here",
            labels=labels,
            help_text=help_text,
        )
    )
    return out


RULE = Rule(Q214, find, needs={"entrance start"})
