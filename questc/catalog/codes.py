"""The catalog's diagnostic codes (Q101, Q104, Q106): each code's descriptor, with its message,
explanation and examples, where the catalog and the resolver that report it can reach it.

questc.rules.names lists them in its family table (questc explain, SARIF, the docs read
the tables).
"""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity

# Building blocks of the examples' quests.
HEAD = 'quest "Q" {\n  conquest 3\n}\n'
HALL = 'piece R1 room_4x4 at 0,0\narea A "Hall" start { pieces R1; glyph at 0,0 active }\n'


Q101 = Descriptor(
    code="Q101",
    name="unknown-catalog-name",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="unknown {kind} `{name}`",
    label_template="not in the catalog",
    summary="A piece type, monster, obstacle, trap, treasure, card, colour or set that the catalog does not know.",
    explanation="""
Every component a quest names is looked up in the catalog (cards/*.yaml and the
content packs the quest or the configuration loads). A name that is not there is
usually a typo; the help suggests the closest known name.
""",
    example=Example(
        failing=HEAD
        + HALL.replace("active }", "active; monster beastmen at 2,2 }")
        + "victory heroes when revealed A\n",
        fixed=HEAD + HALL.replace("active }", "active; monster beastman at 2,2 }") + "victory heroes when revealed A\n",
    ),
    fields=("kind", "name"),
)


Q104 = Descriptor(
    code="Q104",
    name="component-from-unlisted-set",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
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
        + HALL.replace("active }", "active; monster kobold at 2,2 }")
        + "victory heroes when revealed A\n",
    ),
    fields=("kind", "name", "set", "reason"),
)


Q106 = Descriptor(
    code="Q106",
    name="bad-content-pack",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="content pack `{path}`: {problem}",
    summary="A `use` path that is missing, unreadable, invalid against the catalog schema, or outside the project root.",
    explanation="""
Content packs extend the catalog with YAML in the catalog's own format. A pack must
exist, parse, validate against schemas/catalog.schema.json, and lie inside the
project root (the folder holding pyproject.toml or questc.toml, else the quest's
folder), so a quest cannot read arbitrary files.
""",
    example=Example(
        failing=HEAD.replace("conquest 3", 'conquest 3\n  use "../../elsewhere/pack.yaml"')
        + HALL
        + "victory heroes when revealed A\n",
        fixed=HEAD.replace("conquest 3", 'conquest 3\n  use "packs/my_pack.yaml"')
        + HALL
        + "victory heroes when revealed A\n",
    ),
    fields=("path", "problem"),
)
