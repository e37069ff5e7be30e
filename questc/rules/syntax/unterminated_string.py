"""Q002 unterminated-string: the code's descriptor (reported by questc.syntax.parser)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.syntax.examples import TAIL

Q002 = Descriptor(
    code="Q002", name="unterminated-string", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="this string is never closed",
    label_template="the string starts here",
    help_template="{help_text}",
    summary="A string with no closing quote.",
    explanation="""
A one-line string `"..."` must close on its own line (write `\\"` for a quote inside
it); a triple-quoted string `\"\"\"...\"\"\"` must close before the end of the file.
""",
    example=Example(
        failing='quest "Q {\n  conquest 3\n}\n' + TAIL,
        fixed='quest "Q" {\n  conquest 3\n}\n' + TAIL),
    fields=("help_text",),
)

RULE = Rule(Q002, reported_by="questc.syntax.parser")
