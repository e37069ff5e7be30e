"""Q101 unknown-catalog-name: the code's descriptor (reported by questc.model.resolve, questc.catalog.model)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.names.examples import HALL, HEAD

Q101 = Descriptor(
    code="Q101", name="unknown-catalog-name", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="unknown {kind} `{name}`",
    label_template="not in the catalog",
    summary="A piece type, monster, obstacle, trap, treasure, card, colour or set that the catalog does not know.",
    explanation="""
Every component a quest names is looked up in the catalog (cards/*.yaml and the
content packs the quest or the configuration loads). A name that is not there is
usually a typo; the help suggests the closest known name.
""",
    example=Example(
        failing=HEAD + HALL.replace("active }", "active; monster beastmen at 2,2 }") + "victory heroes when revealed A\n",
        fixed=HEAD + HALL.replace("active }", "active; monster beastman at 2,2 }") + "victory heroes when revealed A\n"),
    fields=("kind", "name"),
)

RULE = Rule(Q101, reported_by="questc.model.resolve, questc.catalog.model")
