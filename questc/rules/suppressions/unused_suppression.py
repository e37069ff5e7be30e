"""Q601 unused-suppression: the code's descriptor (reported by questc.suppress)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.suppressions.examples import QUEST, TAIL

Q601 = Descriptor(
    code="Q601",
    name="unused-suppression",
    severity=Severity.WARNING,
    template="this suppression of {codes} suppresses nothing",
    label_template="unused",
    help_template="remove {what}",
    summary="An inline `# questc: ignore[...]` or `ignore-file[...]` comment that suppresses no diagnostic.",
    explanation="""
A suppression comment says "this diagnostic is expected here". When the problem is
fixed, or the comment stands before the wrong line, it suppresses nothing, and later
it would hide a new, unrelated problem of that code. `# questc: ignore[CODE]` covers
the next line that holds a statement (comment lines between are skipped) or, as a
trailing comment, its own line; `# questc: ignore-file[CODE]` covers the whole file.
A suppression is only judged unused when every check ran (a file with syntax or name
errors reports none of these).
""",
    example=Example(
        failing=QUEST + 'area B "Alcove" { pieces C1, E1 }\n# questc: ignore[Q305]\nvictory heroes when revealed B\n',
        fixed=QUEST + TAIL,
    ),
    fields=("codes", "what"),
)

RULE = Rule(Q601, reported_by="questc.suppress")
