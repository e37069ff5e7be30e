"""Q312 defeat-out-of-reach: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.analysis.reach import ALL, unreachable_foes
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import MAP, second
from questc.syntax import nodes as n

# Tile 10A, a room joined to nothing, east of the example map.
_ISLAND = MAP + "piece R tile_10a at 8,0\n"

Q312 = Descriptor(
    code="Q312",
    name="defeat-out-of-reach",
    severity=Severity.ERROR,
    template="a victory needs {what} defeated, but no hero can reach {them}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A victory needs a monster group (or every monster) defeated that no hero can come next to.",
    explanation="""
`defeated goblin_archer` comes true when every goblin archer of the encounter is
defeated (those placed at points, those of the group the overlord places himself, and
reinforcements); `defeated all`, when every monster, lieutenant and named monster is. A
hero defeats a figure by attacking it, and monsters walk the same map as the heroes:
a figure on a part of the map no hero can walk next to (a tile joined to nothing, a
room sealed by blocked spaces) can never be defeated, and the victory never comes.
For a group the overlord places himself, one space of its place the heroes can come
next to is enough: its monsters come out to fight.
""",
    example=Example(
        failing=second(
            map_=_ISLAND,
            pieces="T, In, Out, Cap, R",
            extra="  group zombie on R\n",
            win="victory heroes when defeated zombie\n",
        ),
        fixed=second(extra="  group zombie on T\n", win="victory heroes when defeated zombie\n"),
    ),
    fields=("what", "them", "label", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q312: each `defeated NAME` a victory needs true (not under a `not`) with a figure, group or
    lieutenant of it no reached space is next to. One diagnostic per atom, labelled on the foes."""
    model, board, reached = context.model, context.board, context.analysis.reached
    out = []
    for victory in model.victories:
        for atom in n.event_conditions(victory.when, negated=False):
            if atom.event != "defeated":
                continue
            name = atom.target.value
            lost = unreachable_foes(model, board, reached, name)
            if not lost:
                continue
            what = "every monster" if name == ALL else f"`{name}`"
            labels = [Label(f.span, f"the {f.what} `{f.name}`: out of reach") for f in lost if f.span is not None]
            out.append(
                Q312.at(
                    atom.target.span,
                    what=what,
                    them="them all" if name == ALL or lost[0].what in ("group", "figures") else "it",
                    label="out of reach" if name != ALL else ", ".join(f"`{f.name}`" for f in lost) + " out of reach",
                    help_text="place it where the heroes can walk next to it, or join its tile to the map",
                    labels=labels + [Label(victory.side.span, f"the {victory.side.value}' victory")],
                )
            )
    return out


RULE = Rule(Q312, find, needs={"groups"})
