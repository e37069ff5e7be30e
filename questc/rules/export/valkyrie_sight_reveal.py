"""Q704 valkyrie-sight-reveal: the code's descriptor; the Valkyrie export reports it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.export.examples import HEAD, second

Q704 = Descriptor(
    code="Q704",
    name="valkyrie-sight-reveal",
    severity=Severity.WARNING,
    template="Valkyrie cannot follow the heroes' line of sight: the exported quest reveals an area when a "
    "door into it opens, and with the areas it joins without a door",
    label_template="`reveal sight` in Valkyrie",
    help_template="write `reveal door` to say so in the quest, or leave `reveal` out to show the whole map "
    "from the start",
    summary="`reveal sight` in a quest exported to Valkyrie, which cannot see what the heroes see: it "
    "reveals areas as `reveal door` does.",
    explanation="""
The app does not know where the heroes stand, so it cannot tell when a hero first sees
into an area. The export reveals areas as `reveal door` does instead: an area appears
when a door into it is opened, together with the areas that join it without a door.
On most maps this is what sight reveals too (closed doors block sight), but an area
seen across open floor is revealed with the area it joins.
""",
    example=Example(
        failing=second(head=HEAD.replace("  edition second\n", "  edition second\n  reveal sight\n")),
        fixed=second(head=HEAD.replace("  edition second\n", "  edition second\n  reveal door\n")),
    ),
    fields=(),
)

RULE = Rule(Q704, reported_by="questc.emit.valkyrie.translate")
