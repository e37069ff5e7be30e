"""Q105 named-monster-placement: the code's descriptor (reported by questc.model.resolve)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.names.examples import HALL, HEAD

Q105 = Descriptor(
    code="Q105", name="named-monster-placement", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="named monster `{name}` is {problem}",
    summary="A named monster defined but never placed, or placed more than once.",
    explanation="""
A named monster is unique: its `named` definition must be placed with exactly one
`named ID at P` statement inside an area.
""",
    example=Example(
        failing=HEAD + HALL + 'named ghost "The Ghost" sorcerer { conquest 2 }\nvictory heroes when revealed A\n',
        fixed=HEAD + HALL.replace("active }", "active; named ghost at 3,3 }")
              + 'named ghost "The Ghost" sorcerer { conquest 2 }\nvictory heroes when killed ghost\n'),
    fields=("name", "problem"),
)

RULE = Rule(Q105, reported_by="questc.model.resolve")
