"""Q104 component-from-unlisted-set: the code's descriptor (reported by questc.model.resolve, questc.catalog.model)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.names.examples import HALL, HEAD

Q104 = Descriptor(
    code="Q104", name="component-from-unlisted-set", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="{kind} `{name}` comes from the `{set}` set, {reason}",
    label_template="needs `{set}`",
    help_template="add `{set}` to `expansions` in the quest header",
    summary="A component from a set the quest's `expansions` does not list.",
    explanation="""
A quest says which component sets it needs with `expansions`; players who own only
those sets must be able to set it up. Using a component from another set is an
error: list the set, or use a component from a listed one.

A quest is also played with one edition's components: a first edition map piece,
monster, glyph, chest or conquest-era marker in an `edition second` quest (or a
second edition tile, monster or token in a first edition quest) is this error too,
whatever `expansions` lists; its hint names the edition the component belongs to.
""",
    example=Example(
        failing=HEAD + HALL.replace("active }", "active; monster kobold at 2,2 }") + "victory heroes when revealed A\n",
        fixed='quest "Q" {\n  expansions base, well_of_darkness\n  conquest 3\n}\n'
              + HALL.replace("active }", "active; monster kobold at 2,2 }") + "victory heroes when revealed A\n"),
    fields=("kind", "name", "set", "reason"),
)

RULE = Rule(Q104, reported_by="questc.model.resolve, questc.catalog.model")
