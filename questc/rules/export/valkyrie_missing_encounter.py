"""Q705 valkyrie-missing-encounter: the code's descriptor; the Valkyrie export reports it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.export.examples import HEAD, second

Q705 = Descriptor(
    code="Q705",
    name="valkyrie-missing-encounter",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="{problem}: the Valkyrie quest `{quest}` is not exported",
    label_template="{label}",
    help_template="give every encounter of `{quest}` to one build, for example `questc build {folder} --only valkyrie`",
    summary="A quest of several encounters exported without one of them (or with one twice): Valkyrie "
    "plays them as one quest.",
    explanation="""
The encounters of a quest (`part_of NAME`, `encounter N`) become one Valkyrie quest that
plays encounter 1, then encounter 2 and so on, in the folder NAME. The export needs them
all, numbered from 1 without a gap, in one build: otherwise it would write a different
quest under the same name. Give every encounter's file to the same `questc build`.
""",
    example=Example(
        failing=second(head=HEAD.replace("  edition second\n", "  edition second\n  encounter 2\n  part_of toll\n")),
        fixed=second(head=HEAD.replace("  edition second\n", "  edition second\n  encounter 1\n  part_of toll\n")),
    ),
    fields=("problem", "quest", "label", "folder"),
)

RULE = Rule(Q705, reported_by="questc.emit.valkyrie")
