"""Q208 large-figure-does-not-fit: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Fix, Label, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.placement.examples import BIG, hall
from questc.rules.placement.facts import Facts, figure_name, fmt, fmt_cells, placement_facts
from questc.rules.placement.suggest import figure_spot, move_fix, spawn_spot

Q208 = Descriptor(
    code="Q208",
    name="large-figure-does-not-fit",
    severity=Severity.ERROR,
    template="{figure} at {where} does not fit: {problem}",
    label_template="{label}",
    help_template="place it where its whole footprint lies on open floor of its area",
    summary="A large figure that does not fit where it is placed.",
    explanation="""
A large figure fills several spaces: 1x2 (hell hound, turned with `facing`), 2x2
(ogre, giant, ...), 2x3 (dragon). Its point is its top-left space. Every space it
fills must be floor, free of obstacles that block movement, and with no wall or closed
door between any two of them: a figure cannot stand across a wall. The same goes for
a large figure a `spawn` effect places; a spawn names no facing, so a long figure
fits when it fits either way round.
""",
    example=Example(failing=hall("  named big at 3,3\n") + BIG, fixed=hall("  named big at 2,2\n") + BIG),
    fields=("figure", "where", "problem", "label"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q208: a large figure that does not fit.

    For each large figure (2, 4 or 6 spaces) whose footprint is partly
    off the floor, has a wall or door between two of its cells (cells of two pieces
    with no joint between them, or a piece's own wall), or covers an obstacle that
    blocks movement: one diagnostic at its point. The help gives the nearest position
    (or facing) where the whole footprint fits in its area. The same for large figures
    a `spawn` effect places (a long one fits if either way round fits); their help
    gives the nearest floor where the figure fits.
    """
    facts = placement_facts(context)
    out = []
    for index, figure in enumerate(facts.model.figures):
        found = facts.figure_problem.get(index)
        if not found or found[0] != "Q208":
            continue
        w, h = figure.type.size(figure.facing)
        problem, label, labels = _fit_text(facts, found[1], w, h)
        spot = figure_spot(facts, figure, with_facing=True)
        help = None
        fixes: tuple[Fix, ...] = ()
        if spot is not None:
            at, facing = spot
            if facing != figure.facing and facing is not None:
                # A new facing would change every figure of the statement: the help says it, no fix.
                help = (
                    f"place it at {fmt(at)} facing {facing}, where its whole footprint fits"
                    if at != figure.at
                    else f"turn it: `facing {facing}` fits at {fmt(at)}"
                )
            else:
                help = f"move it to {fmt(at)}, where its whole {w}x{h} footprint fits"
                fixes = move_fix(
                    facts, figure.span, at, f"the {figure_name(figure)}", figure.type.cells(at, figure.facing)
                )
        out.append(
            Q208.at(
                figure.span,
                figure=figure_name(figure),
                where=fmt(figure.at),
                problem=problem,
                label=label,
                labels=labels,
                help=help,
                fixes=fixes,
            )
        )
    for index, spawn in enumerate(facts.spawns):
        found = facts.spawn_problem.get(index)
        if not found or found[0] != "Q208":
            continue
        w, h = spawn.type.size()
        problem, label, labels = _fit_text(facts, found[1], w, h)
        spot = spawn_spot(facts, spawn)
        out.append(
            Q208.at(
                spawn.span,
                figure=spawn.name,
                where=fmt(spawn.at),
                problem=problem,
                label=label,
                labels=labels,
                help=f"spawn it at {fmt(spot)}, where its whole footprint fits" if spot else None,
                fixes=move_fix(facts, spawn.span, spot, f"the {spawn.name}", spawn.type.cells(spot)) if spot else (),
            )
        )
    return out


def _fit_text(facts: Facts, fit, w: int, h: int) -> tuple[str, str, list[Label]]:
    """Facts.figure_fit's answer and the footprint's size in; the Q208 problem, label and labels out."""
    kind, cells, what = fit
    labels = []
    if kind == "off":
        problem = f"its {w}x{h} footprint reaches off the floor at {fmt_cells(cells)}"
        label = "part of it is off the floor"
    elif kind == "wall":
        a, b = cells
        if what:
            problem = f"it stands across the door `{what}` between {fmt(a)} and {fmt(b)}"
            labels.append(Label(facts.model.doors[what].node.id.span, "this door is closed at the start"))
        else:
            problem = f"it stands across the wall between {fmt(a)} and {fmt(b)}"
        label = "across a wall"
    else:
        problem = f"it covers {what.kind.name} at {fmt(cells[0])}, which blocks movement"
        label = "on a blocking obstacle"
        labels.append(Label(what.span, f"{what.kind.name} here"))
    return problem, label, labels


RULE = Rule(
    Q208,
    find,
    examples=(
        Example(  # second edition: an ettin (2x2) at the tile's edge
            failing=second_examples.second("  monster ettin at 3,3\n"),
            fixed=second_examples.second("  monster ettin at 2,2\n"),
        ),
    ),
)
