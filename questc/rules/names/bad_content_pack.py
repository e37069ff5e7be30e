"""Q106 bad-content-pack: the code's descriptor (reported by questc.catalog.load, questc.model.resolve)."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity
from questc.rules import Rule
from questc.rules.names.examples import HALL, HEAD

Q106 = Descriptor(
    code="Q106", name="bad-content-pack", severity=Severity.ERROR, minimum=Severity.ERROR,
    template="content pack `{path}`: {problem}",
    summary="A `use` path that is missing, unreadable, invalid against the catalog schema, or outside the project root.",
    explanation="""
Content packs extend the catalog with YAML in the catalog's own format. A pack must
exist, parse, validate against schemas/catalog.schema.json, and lie inside the
project root (the folder holding pyproject.toml or questc.toml, else the quest's
folder), so a quest cannot read arbitrary files.
""",
    example=Example(
        failing=HEAD.replace("conquest 3", 'conquest 3\n  use "../../elsewhere/pack.yaml"') + HALL + "victory heroes when revealed A\n",
        fixed=HEAD.replace("conquest 3", 'conquest 3\n  use "packs/my_pack.yaml"') + HALL + "victory heroes when revealed A\n"),
    fields=("path", "problem"),
)

RULE = Rule(Q106, reported_by="questc.catalog.load, questc.model.resolve")
