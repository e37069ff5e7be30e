"""Q103 undefined-reference: the code's descriptor (reported by questc.model.resolve)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.names.examples import HALL, HEAD

Q103 = Descriptor(
    code="Q103", name="undefined-reference", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="no {kind} `{name}` is defined",
    label_template="not defined",
    summary="A reference to an identifier that is never defined.",
    explanation="""
A piece, door, area, encounter or named monster is used (in an area's `pieces`, a
door's `between`, an effect, a trigger or a victory condition) but never defined.
""",
    example=Example(
        failing=HEAD + HALL + "victory heroes when killed phantom\n",
        fixed=HEAD + HALL + "victory heroes when revealed A\n"),
    fields=("kind", "name"),
)

RULE = Rule(Q103, reported_by="questc.model.resolve")
