"""The resolver's diagnostic codes (Q102, Q103, Q105): each code's descriptor, with its message,
explanation and examples, where questc.model.resolve, which reports them, can reach it.

questc.rules.names lists them in its family table (questc explain, SARIF, the docs read
the tables).
"""

from __future__ import annotations

from questc.catalog.codes import HALL, HEAD
from questc.diagnostics.core import Descriptor, Example, Severity

Q102 = Descriptor(
    code="Q102",
    name="duplicate-identifier",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="{kind} `{name}` is defined twice",
    label_template="defined again here",
    help_template="rename one of them; identifiers of pieces, doors, areas, encounters and named monsters must be unique",
    summary="An identifier (piece, door, area, encounter, named monster) defined more than once.",
    explanation="""
Pieces, doors, areas, encounters and named monsters share one namespace per kind;
a second definition would make every reference to the name ambiguous.
""",
    example=Example(
        failing=HEAD + "piece R1 room_4x4 at 0,0\npiece R1 room_4x4 at 4,0\n",
        fixed=HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n",
    ),
    fields=("kind", "name"),
)


Q103 = Descriptor(
    code="Q103",
    name="undefined-reference",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="no {kind} `{name}` is defined",
    label_template="not defined",
    summary="A reference to an identifier that is never defined.",
    explanation="""
A piece, door, area, encounter or named monster is used (in an area's `pieces`, a
door's `between`, an effect, a trigger or a victory condition) but never defined.
""",
    example=Example(
        failing=HEAD + HALL + "victory heroes when killed phantom\n",
        fixed=HEAD + HALL + "victory heroes when revealed A\n",
    ),
    fields=("kind", "name"),
)


Q105 = Descriptor(
    code="Q105",
    name="named-monster-placement",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="named monster `{name}` is {problem}",
    summary="A named monster defined but never placed, or placed more than once.",
    explanation="""
A named monster is unique: its `named` definition must be placed with exactly one
`named ID at P` statement inside an area.
""",
    example=Example(
        failing=HEAD + HALL + 'named ghost "The Ghost" sorcerer { conquest 2 }\nvictory heroes when revealed A\n',
        fixed=HEAD
        + HALL.replace("active }", "active; named ghost at 3,3 }")
        + 'named ghost "The Ghost" sorcerer { conquest 2 }\nvictory heroes when killed ghost\n',
    ),
    fields=("name", "problem"),
)
