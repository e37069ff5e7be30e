"""Q211 facing-mismatch: the code's descriptor and the check that finds it."""

from __future__ import annotations

from collections.abc import Iterable

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.placement.examples import WIN, wod_hall
from questc.rules.placement.facts import placement_facts
from questc.syntax import nodes as n

Q211 = Descriptor(
    code="Q211",
    name="facing-mismatch",
    severity=Severity.WARNING,
    template="{thing} {problem}",
    label_template="{label}",
    summary="`facing` given where it means nothing, or missing where the component needs it.",
    explanation="""
Only some components have a direction. A boulder rolls, and a crushing wall moves,
the way their arrow points, and a boulder ramp turns a boulder one way: these traps
need `facing north|east|south|west`, or the overlord cannot tell which way they go.
Other traps (a dart field, scything blades) take no direction.

For a monster, `facing` only turns a long figure (a hell hound, 1 by 2; a dragon, 2
by 3) on its side: a one-space figure, or a square large one (an ogre, 2 by 2), fills
the same spaces whichever way it faces, so a `facing` there says nothing and may
hide a mistake (the wrong monster, or a facing meant for another line).
""",
    example=Example(
        failing=wod_hall("  trap boulder at 1,2\n  trap dart_field at 3,3 facing north\n") + WIN,
        fixed=wod_hall("  trap boulder at 1,2 facing east\n  trap dart_field at 3,3\n") + WIN,
    ),
    fields=("thing", "problem", "label"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q211 (warning): `facing` given where it means nothing, or missing where it is needed.

    For each `trap` line, warns at its `facing` direction when the trap
    kind takes none (catalog `facing: false`), and at the kind when a kind that needs
    one (a boulder, a boulder ramp, a crushing wall) has none; for each `monster` and
    `named` placement, warns at the direction when the figure is one space or square
    (it fills the same spaces whichever way it faces). The help gives the fixed line.
    """
    facts = placement_facts(context)
    model = facts.model
    catalog = model.catalog
    out = []
    for area in model.areas.values():
        for stmt in area.node.statements:
            if isinstance(stmt, n.Trap):
                kind = catalog.lookup("trap", stmt.kind.value)
                if kind is None:
                    continue
                where = f"trap {kind.name} at {_points_text(stmt.at)}"
                if stmt.facing is not None and not kind.facing:
                    out.append(
                        Q211.at(
                            stmt.facing.span,
                            thing=f"trap `{kind.name}`",
                            problem=f"takes no direction: `facing {stmt.facing.value}` means nothing",
                            label="a direction that means nothing here",
                            help=f"remove it: `{where}`",
                        )
                    )
                elif stmt.facing is None and kind.facing:
                    out.append(
                        Q211.at(
                            stmt.kind.span,
                            thing=f"trap `{kind.name}`",
                            problem="needs a direction, and none is given",
                            label="which way does it go?",
                            help=f"add the way its arrow points: `{where} facing north` (or east, south, west)",
                        )
                    )
            elif isinstance(stmt, (n.Monster, n.PlaceNamed)) and stmt.facing is not None:
                if isinstance(stmt, n.Monster):
                    monster = catalog.lookup("monster", stmt.type.value)
                    thing = f"monster `{monster.name}`" if monster is not None else ""
                else:
                    named = model.named.get(stmt.id.value)
                    monster = named.type if named is not None else None
                    thing = f"named monster `{stmt.id.value}` ({monster.name})" if monster is not None else ""
                if monster is None:
                    continue
                w, h = monster.footprint
                if w != h:
                    continue
                shape = "fills one space" if (w, h) == (1, 1) else f"is square ({w}x{h})"
                out.append(
                    Q211.at(
                        stmt.facing.span,
                        thing=thing,
                        problem=f"{shape}: `facing {stmt.facing.value}` changes nothing",
                        label="a direction that changes nothing",
                        help=f"remove `facing {stmt.facing.value}`: it fills the same spaces whichever "
                        "way it faces (only a long figure, such as a hell hound, is turned)",
                    )
                )
    return out


def _points_text(points: Iterable[n.PointRef]) -> str:
    return " ".join(f"{p.piece.value + ':' if p.piece else ''}{p.x},{p.y}" for p in points)


RULE = Rule(
    Q211,
    find,
    examples=(
        Example(  # second edition: a direction for a monster of one space
            failing=second_examples.second("  monster zombie at 0,0 facing north\n"),
            fixed=second_examples.second("  monster zombie at 0,0\n"),
        ),
    ),
)
