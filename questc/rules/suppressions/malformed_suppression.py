"""Q604 malformed-suppression: the code's descriptor (reported by questc.suppress)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.suppressions.examples import QUEST, TAIL

Q604 = Descriptor(
    code="Q604",
    name="malformed-suppression",
    severity=Severity.WARNING,
    template="this `questc:` comment is not a suppression questc understands",
    label_template="not understood",
    help_template="write `# questc: ignore[Q305]` or `# questc: ignore-file[Q305, Q306]`",
    summary="A comment that starts `# questc:` but is not `ignore[CODES]` or `ignore-file[CODES]`.",
    explanation="""
Comments starting with `questc:` are instructions to questc. Only two exist:
`ignore[CODES]` before a statement and `ignore-file[CODES]` anywhere, each with a
comma-separated list of codes in square brackets. A misspelt instruction would
otherwise be silently ignored, and the diagnostic it was meant to cover would still
be printed without an explanation why.
""",
    example=Example(failing=QUEST + "# questc: ignore Q305\n" + TAIL, fixed=QUEST + "# questc: ignore[Q305]\n" + TAIL),
)

RULE = Rule(Q604, reported_by="questc.suppress")
