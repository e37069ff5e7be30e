"""Q005 missing-quest-header: the code's descriptor (reported by questc.syntax.transform)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.syntax.examples import TAIL

Q005 = Descriptor(
    code="Q005", name="missing-quest-header", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="the file does not start with a `quest` header",
    label_template="{label}",
    help_template='start the file with `quest "Title" {{ conquest 5 }}`',
    summary="The file does not start with a `quest` header.",
    explanation="""
A quest file holds exactly one quest, and its first statement is the header
`quest "Title" { ... }` with the quest's settings (at least its starting conquest).
""",
    example=Example(failing=TAIL, fixed='quest "Q" {\n  conquest 3\n}\n' + TAIL),
    fields=("label",),
)

RULE = Rule(Q005, reported_by="questc.syntax.transform")
