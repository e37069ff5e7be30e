"""Q504 empty-encounter: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.logic.examples import quest

Q504 = Descriptor(
    code="Q504",
    name="empty-encounter",
    severity=Severity.WARNING,
    template="encounter `{name}` has no effect and no text",
    label_template="nothing happens here",
    help_template='give it a `read "..."` text or an effect (`conquest +2`, `treasure copper`, `open DOOR`, '
    '`instruct "..."`), or remove it',
    summary="An encounter with no effect and no text.",
    explanation="""
An encounter marker stops a hero who ends his move on it, and the quest says what
happens. An empty block makes the marker do nothing at all: usually a block left to
be written.
""",
    example=Example(
        failing=quest(area_lines="  encounter well at 2,2 { }\n"),
        fixed=quest(area_lines='  encounter well at 2,2 {\n    read "The well is dry."\n    conquest +1\n  }\n'),
    ),
    fields=("name",),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q504 for each encounter whose block is empty (a `read` or an `instruct` is text, so not empty)."""
    model = context.model
    return [Q504.at(e.node.id.span, name=e.id) for e in model.encounters.values() if not e.node.effects]


RULE = Rule(Q504, find, needs={"encounters"})
