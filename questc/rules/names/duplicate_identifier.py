"""Q102 duplicate-identifier: the code's descriptor (reported by questc.model.resolve)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.names.examples import HEAD

Q102 = Descriptor(
    code="Q102", name="duplicate-identifier", severity=Severity.ERROR, minimum=Severity.ERROR,
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
        fixed=HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n"),
    fields=("kind", "name"),
)

RULE = Rule(Q102, reported_by="questc.model.resolve")
