"""Q206 bad-stairs: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.placement.examples import HEAD, STAIRS_AREAS, STAIRS_MAP
from questc.rules.placement.facts import distance, fmt, placement_facts
from questc.syntax import nodes as n

Q206 = Descriptor(
    code="Q206",
    name="bad-stairs",
    severity=Severity.ERROR,
    template="stairs `{colour}`: {problem}",
    label_template="{label}",
    summary="Stairs with an end off the floor, or a colour used for more than one pair.",
    explanation="""
A staircase is a pair of markers of one colour: a figure on one end steps to the other
for one movement point. Both ends must lie on floor cells, and each colour names one
pair only, or no one could tell which end leads where.
""",
    example=Example(
        failing=HEAD + STAIRS_MAP + "stairs red at 7,3 19,9\n" + STAIRS_AREAS,
        fixed=HEAD + STAIRS_MAP + "stairs red at 7,3 10,3\n" + STAIRS_AREAS,
    ),
    fields=("colour", "problem", "label"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q206: stairs with an end off the floor, or a colour used for more than one pair.

    One diagnostic per end off the floor (at that end's point; help: the
    nearest floor cell), per pair whose two ends are one cell, and per extra pair of a
    colour (at its colour, labelled on the first pair).
    """
    facts = placement_facts(context)
    out = []
    first: dict[str, n.Stairs] = {}
    for stairs in facts.model.stairs:
        node = stairs.node
        colour = stairs.colour
        if colour in first:
            used = {s.colour for s in facts.model.stairs}
            fresh = next(f"{colour}{i}" for i in range(2, 100) if f"{colour}{i}" not in used)
            out.append(
                Q206.at(
                    node.colour.span,
                    colour=colour,
                    problem="the colour is used for a second pair",
                    label="second pair",
                    labels=[Label(first[colour].colour.span, "first pair here")],
                    help=f"give each pair its own colour: `stairs {fresh} at ...`",
                )
            )
        else:
            first[colour] = node
        for end, ref in zip(stairs.ends, node.ends):
            if end not in facts.floor:
                near = min(facts.floor, key=lambda c: distance(end, c)) if facts.floor else None
                out.append(
                    Q206.at(
                        ref.span,
                        colour=colour,
                        problem=f"the end at {fmt(end)} is off the floor",
                        label="no floor here",
                        help=f"put the end on a floor cell, such as {fmt(near)}"
                        if near
                        else "put both ends on floor cells",
                    )
                )
        if stairs.ends[0] == stairs.ends[1] and stairs.ends[0] in facts.floor:
            out.append(
                Q206.at(
                    node.ends[1].span,
                    colour=colour,
                    problem="both ends are on one cell",
                    label="same cell as the other end",
                    labels=[Label(node.ends[0].span, "the other end")],
                    help="put the two ends of a staircase on different cells",
                )
            )
    return out


RULE = Rule(Q206, find, needs={"stairs"})
