"""Q411 lieutenant-placed-twice: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity, Span
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import second

Q411 = Descriptor(
    code="Q411",
    name="lieutenant-placed-twice",
    severity=Severity.ERROR,
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
        fixed=second("  lieutenant splig at 0,0\n  lieutenant belthir at 3,3\n"),
    ),
    fields=("name",),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q411: every lieutenant token after the first of its name, labelled on the first."""
    model = context.model
    placed = [(m.variant, m.span) for m in model.markers if m.kind == "lieutenant" and m.variant is not None]
    placed += [(g.id, g.span) for g in model.groups.values() if g.kind == "lieutenant"]  # `lieutenant X on T`
    first: dict[str, Span] = {}
    out = []
    for name, span in sorted(placed, key=lambda p: p[1].start):
        earlier = first.setdefault(name, span)
        if earlier is not span:
            out.append(Q411.at(span, name=name, labels=[Label(earlier, "first placed here")]))
    return out


RULE = Rule(Q411, find, needs={"lieutenants"})
