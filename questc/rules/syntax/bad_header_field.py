"""Q004 bad-header-field: the code's descriptor (reported by questc.syntax.parser, questc.syntax.transform)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.syntax.examples import TAIL

Q004 = Descriptor(
    code="Q004", name="bad-header-field", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A header field given twice, or an unknown header field.",
    explanation="""
The `quest` header holds each field at most once (`use` may repeat): id, edition,
expansions, players, conquest, treachery, reveal, author, version, intro, special,
use. A second value would leave it unclear which one counts. The same goes for the
parts of a field: each colour of `treachery` is written once (`treachery event 2,
event 1` is an error; write `event 3`).
""",
    example=Example(
        failing='quest "Q" {\n  conquest 3\n  conquest 4\n}\n' + TAIL,
        fixed='quest "Q" {\n  conquest 4\n}\n' + TAIL),
    fields=("problem", "label", "help_text"),
)

RULE = Rule(Q004, reported_by="questc.syntax.parser, questc.syntax.transform")
