"""Q001 unexpected-input: the code's descriptor (reported by questc.syntax.parser, questc.pipeline)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.syntax.examples import TAIL

Q001 = Descriptor(
    code="Q001", name="unexpected-input", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="{found}: expected {expected}",
    label_template="{label}",
    summary="Something the grammar does not allow at this point.",
    explanation="""
The parser met a word, symbol or line end that cannot come where it stands. The
message says what it found and what could come there instead; after an error the
parser skips to the end of the statement and goes on, so one file can show several
syntax errors (each one a cause, not a consequence of an earlier one).
""",
    example=Example(
        failing='quest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 0,0\n' + TAIL.split("\n", 1)[1],
        fixed='quest "Q" {\n  conquest 3\n}\n' + TAIL),
    fields=("found", "expected", "label"),
)

RULE = Rule(Q001, reported_by="questc.syntax.parser, questc.pipeline")
