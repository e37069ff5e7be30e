"""Q703 valkyrie-shown-as-text: the code's descriptor; the Valkyrie export reports it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.export.examples import second

Q703 = Descriptor(
    code="Q703",
    name="valkyrie-shown-as-text",
    severity=Severity.WARNING,
    template='Valkyrie has no {what}: the exported quest tells the players "{words}" and the app does nothing more',
    label_template="only text in Valkyrie",
    help_template="{help_text}",
    summary="An effect Valkyrie cannot carry out (threat, runekeys, treasure cards, conquest): the export "
    "shows it to the players as text.",
    explanation="""
Valkyrie plays the overlord of a second edition quest and keeps only what the second
edition has: it gives no threat (the app spends none), has no rune doors or runekeys, no
first edition treasure cards and no conquest tokens. The export still shows such an
effect to the players, in the words the quest sheet uses, so no rule is lost; but the
app does nothing with it, and the players may not be able to either (the overlord's
threat is the app's). Say what happens in words the second edition knows (`read`,
`instruct`), or leave the effect out.
""",
    example=Example(
        failing=second(win="victory heroes when exited\non round 3 {\n  threat 2\n}\n"),
        fixed=second(win='victory heroes when exited\non round 3 {\n  instruct "Each hero suffers 1 fatigue."\n}\n'),
    ),
    fields=("what", "words", "help_text"),
)

RULE = Rule(Q703, reported_by="questc.emit.valkyrie.translate")
