"""Q701 valkyrie-unknown-component: the code's descriptor; the Valkyrie export reports it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.export.examples import PACK_HEAD, second

Q701 = Descriptor(
    code="Q701",
    name="valkyrie-unknown-component",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="{what} `{name}` has no counterpart in Valkyrie's content: the quest cannot be exported to Valkyrie",
    label_template="not in Valkyrie's base game",
    help_template="Valkyrie knows the second edition base game's tiles, tokens, monsters and lieutenants; "
    "use one of those, or leave Valkyrie out of this quest's outputs",
    summary="A component Valkyrie does not know (from a content pack): the quest cannot be exported to Valkyrie.",
    explanation="""
Valkyrie draws each tile, token and monster from its own content, by name. questc
exports the second edition base game's components under Valkyrie's names (docs/valkyrie.md
lists them); a component from a content pack of your own has no name there, and a quest
naming it would fail to load in the app. The Valkyrie quest is not written; the quest's
other outputs (JSON, PNG, PDF) are.
""",
    example=Example(
        failing=second("  monster crypt_horror at 0,0\n", head=PACK_HEAD),
        fixed=second("  monster zombie at 0,0\n", head=PACK_HEAD),
    ),
    fields=("what", "name"),
)

RULE = Rule(Q701, reported_by="questc.emit.valkyrie.translate")
