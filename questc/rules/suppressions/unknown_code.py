"""Q602 unknown-code: the code's descriptor (reported by questc.suppress, questc.config)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.suppressions.examples import QUEST, TAIL

Q602 = Descriptor(
    code="Q602",
    name="unknown-code",
    severity=Severity.WARNING,
    template="`{code}` {problem}",
    label_template="unknown code",
    help_template="{help_text}",
    summary="A suppression comment or the configuration names a diagnostic code that does not exist.",
    explanation="""
Codes are written `Q` and three digits (`Q305`); in the configuration's `select`,
`ignore`, `severity` and `per-file-ignores` a prefix (`Q3`, `Q30`) stands for every
code it starts. A name that is not a code, or a code no check reports, is most often
a typo, and it suppresses or configures nothing. `questc explain all` lists the codes.
""",
    example=Example(failing=QUEST + "# questc: ignore[Q3O5]\n" + TAIL, fixed=QUEST + "# questc: ignore[Q305]\n" + TAIL),
    fields=("code", "problem", "help_text"),
)

RULE = Rule(Q602, reported_by="questc.suppress, questc.config")
