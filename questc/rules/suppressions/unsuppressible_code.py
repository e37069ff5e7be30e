"""Q603 unsuppressible-code: the code's descriptor (reported by questc.suppress)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.suppressions.examples import QUEST, TAIL

Q603 = Descriptor(
    code="Q603",
    name="unsuppressible-code",
    severity=Severity.WARNING,
    template="`{code}` is always an error and cannot be suppressed",
    label_template="cannot be suppressed",
    help_template="fix the {kind} error instead; remove `{code}` from this comment",
    summary="A suppression comment names a syntax or reference code (Q0xx, Q1xx), which stays an error.",
    explanation="""
A quest with a syntax error or a broken name cannot be compiled, whatever a comment
says, so these codes can be neither suppressed inline nor lowered or switched off by
the configuration. The comment is reported so that nobody believes the problem is
handled.
""",
    example=Example(
        failing=QUEST.replace("area A", "# questc: ignore[Q101]\narea A").replace(
            "active }", "active; monster beastmen at 2,2 }"
        )
        + TAIL,
        fixed=QUEST.replace("active }", "active; monster beastman at 2,2 }") + TAIL,
    ),
    fields=("code", "kind"),
)

RULE = Rule(Q603, reported_by="questc.suppress")
