"""Q411 lieutenant-placed-twice: the code's descriptor and the check that finds it."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.model.quest import Marker
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import second

Q411 = Descriptor(
    code="Q411", name="lieutenant-placed-twice", severity=Severity.ERROR,
    template="lieutenant `{name}` is placed more than once",
    label_template="placed again here",
    help_template="a lieutenant is one character with one token: keep one `lieutenant {name}`",
    summary="A lieutenant placed more than once in one encounter.",
    explanation="""
Each lieutenant is a single character of the story, and the box holds one token for
each. An encounter may place a lieutenant once (or not at all); a second placement
cannot be set up, and a victory such as `killed splig` would be ambiguous.
""",
    example=Example(
        failing=second("  lieutenant splig at 0,0\n  lieutenant splig at 3,3\n"),
        fixed=second("  lieutenant splig at 0,0\n  lieutenant belthir at 3,3\n")),
    fields=("name",),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q411: every lieutenant token after the first of its name, labelled on the first."""
    first: dict[str, Marker] = {}
    out = []
    for marker in context.model.markers:
        if marker.kind != "lieutenant" or marker.variant is None:
            continue
        earlier = first.setdefault(marker.variant, marker)
        if earlier is not marker:
            out.append(Q411.at(marker.span, name=marker.variant,
                               labels=[Label(earlier.span, "first placed here")]))
    return out


RULE = Rule(Q411, find, needs={"lieutenants"})
