"""Q003 malformed-value: the code's descriptor (reported by questc.syntax.parser, questc.syntax.transform)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.syntax.examples import TAIL

Q003 = Descriptor(
    code="Q003", name="malformed-value", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A malformed number, point, rectangle or range (`4,`, `3..`, `5..2`).",
    explanation="""
Points are written `x,y` with no spaces (`4,2`), rectangles `x1,y1..x2,y2`, ranges
`a..b` with a <= b, piece-relative points `R1:2,3`, turns 0, 90, 180 or 270.
""",
    example=Example(
        failing='quest "Q" {\n  players 5..2\n  conquest 3\n}\n' + TAIL,
        fixed='quest "Q" {\n  players 2..5\n  conquest 3\n}\n' + TAIL),
    fields=("problem", "label", "help_text"),
)

RULE = Rule(Q003, reported_by="questc.syntax.parser, questc.syntax.transform")
