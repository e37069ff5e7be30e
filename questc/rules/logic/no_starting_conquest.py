"""Q506 no-starting-conquest: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.logic.examples import HEAD, quest

Q506 = Descriptor(
    code="Q506",
    name="no-starting-conquest",
    severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="give the heroes at least 1: `conquest 5` is what the first base quest gives",
    summary="Starting conquest below 1 (or not given).",
    explanation="""
The overlord wins at once when the heroes hold no conquest tokens, so a quest that
starts them with none is lost before the first turn. `conquest N` is a required
header field, and N must be at least 1.
""",
    example=Example(failing=quest(HEAD.replace("conquest 3", "conquest 0")), fixed=quest(HEAD)),
    fields=("problem", "label"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q506 when the header gives no `conquest`, or fewer than 1."""
    model = context.model
    if model.conquest is None:
        return [
            Q506.at(
                model.header_span(),
                label="no `conquest` in this header",
                problem="the quest does not say how much conquest the heroes start with (`conquest N` is required)",
            )
        ]
    if model.conquest < 1:
        return [
            Q506.at(
                model.header_span("conquest"),
                label="at least 1 is needed",
                problem=f"the heroes start with {model.conquest} conquest: the overlord wins before the first turn",
            )
        ]
    return []


RULE = Rule(Q506, find, needs={"conquest"})
