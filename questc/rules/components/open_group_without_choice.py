"""Q412 open-group-without-choice: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import HEAD, second

Q412 = Descriptor(
    code="Q412",
    name="open-group-without-choice",
    severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="An open group the overlord cannot choose: the quest gives no traits, or no monster left in the "
    "owned sets has one.",
    explanation="""
An open group (`open group on T4`) is a monster group the overlord chooses himself
among the monsters that have at least one of the quest's traits (the header's
`traits building, cave`), that the quest does not already use as a group, and whose
figures the owned sets hold. A quest without traits, or whose traits no such monster
has left, leaves him nothing to choose.
""",
    example=Example(
        failing=second("  open group on T\n"),
        fixed=second(
            "  open group on T\n", head=HEAD.replace("  edition second\n", "  edition second\n  traits cave\n")
        ),
    ),
    fields=("problem", "label", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q412: open groups with no trait to choose by, or more open groups than the monsters with one of the
    quest's traits, in the owned sets, not already a group of the quest."""
    model = context.model
    opens = [g for g in model.groups.values() if g.kind == "open"]
    if not opens:
        return []
    traits = set(model.traits)
    if not traits:
        return [_no_traits(group) for group in opens]
    used = {g.id for g in model.groups.values() if g.kind == "monster"} | {f.type.name for f in model.figures}
    sets = set(context.sets)
    choice = sorted(
        m.name
        for m in model.catalog.monsters.values()
        if traits & set(m.traits) and m.name not in used and (not m.set or m.set in sets)
    )
    out = []
    for group in opens[len(choice) :]:
        out.append(
            Q412.at(
                group.span.head("open"),
                problem=f"{len(opens)} open groups, but only {len(choice)} "
                f"{'monster has' if len(choice) == 1 else 'monsters have'} one of the quest's "
                f"traits ({', '.join(sorted(traits))}) and {'is' if len(choice) == 1 else 'are'} "
                "not a group of it already" + (f": {', '.join(choice)}" if choice else ""),
                label="nothing left to choose",
                help_text="give the quest more traits (`traits ...` in the header), or fewer open groups",
            )
        )
    return out


def _no_traits(group):
    return Q412.at(
        group.span.head("open"),
        problem="an open group, but the quest gives no traits to choose its monster by",
        label="chosen by which traits?",
        help_text="list the encounter's traits in the header: `traits building, cave`",
    )


RULE = Rule(Q412, find, needs={"groups"})
