"""Q1xx: names and references (always errors)."""
from questc.diagnostics.core import Descriptor, Example, Severity

E = Severity.ERROR

_HALL = 'piece R1 room_4x4 at 0,0\narea A "Hall" start { pieces R1; glyph at 0,0 active }\n'
_HEAD = 'quest "Q" {\n  conquest 3\n}\n'

Q101 = Descriptor(
    code="Q101", name="unknown-catalog-name", severity=E, minimum=E,
    template="unknown {kind} `{name}`",
    label_template="not in the catalog",
    summary="A piece type, monster, obstacle, trap, treasure, card, colour or set that the catalog does not know.",
    explanation="""
Every component a quest names is looked up in the catalog (cards/*.yaml and the
content packs the quest or the configuration loads). A name that is not there is
usually a typo; the help suggests the closest known name.
""",
    example=Example(
        failing=_HEAD + _HALL.replace("active }", "active; monster beastmen at 2,2 }") + "victory heroes when revealed A\n",
        fixed=_HEAD + _HALL.replace("active }", "active; monster beastman at 2,2 }") + "victory heroes when revealed A\n"),
    fields=("kind", "name"),
)

Q102 = Descriptor(
    code="Q102", name="duplicate-identifier", severity=E, minimum=E,
    template="{kind} `{name}` is defined twice",
    label_template="defined again here",
    help_template="rename one of them; identifiers of pieces, doors, areas, encounters and named monsters must be unique",
    summary="An identifier (piece, door, area, encounter, named monster) defined more than once.",
    explanation="""
Pieces, doors, areas, encounters and named monsters share one namespace per kind;
a second definition would make every reference to the name ambiguous.
""",
    example=Example(
        failing=_HEAD + "piece R1 room_4x4 at 0,0\npiece R1 room_4x4 at 4,0\n",
        fixed=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n"),
    fields=("kind", "name"),
)

Q103 = Descriptor(
    code="Q103", name="undefined-reference", severity=E, minimum=E,
    template="no {kind} `{name}` is defined",
    label_template="not defined",
    summary="A reference to an identifier that is never defined.",
    explanation="""
A piece, door, area, encounter or named monster is used (in an area's `pieces`, a
door's `between`, an effect, a trigger or a victory condition) but never defined.
""",
    example=Example(
        failing=_HEAD + _HALL + "victory heroes when killed phantom\n",
        fixed=_HEAD + _HALL + "victory heroes when revealed A\n"),
    fields=("kind", "name"),
)

Q104 = Descriptor(
    code="Q104", name="component-from-unlisted-set", severity=E, minimum=E,
    template="{kind} `{name}` comes from the `{set}` set, which the quest's `expansions` does not list",
    label_template="needs `{set}`",
    help_template="add `{set}` to `expansions` in the quest header",
    summary="A component from a set the quest's `expansions` does not list.",
    explanation="""
A quest says which component sets it needs with `expansions`; players who own only
those sets must be able to set it up. Using a component from another set is an
error: list the set, or use a component from a listed one.
""",
    example=Example(
        failing=_HEAD + _HALL.replace("active }", "active; monster kobold at 2,2 }") + "victory heroes when revealed A\n",
        fixed='quest "Q" {\n  expansions base, well_of_darkness\n  conquest 3\n}\n'
              + _HALL.replace("active }", "active; monster kobold at 2,2 }") + "victory heroes when revealed A\n"),
    fields=("kind", "name", "set"),
)

Q105 = Descriptor(
    code="Q105", name="named-monster-placement", severity=E, minimum=E,
    template="named monster `{name}` is {problem}",
    summary="A named monster defined but never placed, or placed more than once.",
    explanation="""
A named monster is unique: its `named` definition must be placed with exactly one
`named ID at P` statement inside an area.
""",
    example=Example(
        failing=_HEAD + _HALL + 'named ghost "The Ghost" sorcerer { conquest 2 }\nvictory heroes when revealed A\n',
        fixed=_HEAD + _HALL.replace("active }", "active; named ghost at 3,3 }")
              + 'named ghost "The Ghost" sorcerer { conquest 2 }\nvictory heroes when killed ghost\n'),
    fields=("name", "problem"),
)

Q106 = Descriptor(
    code="Q106", name="bad-content-pack", severity=E, minimum=E,
    template="content pack `{path}`: {problem}",
    summary="A `use` path that is missing, unreadable, invalid against the catalog schema, or outside the project root.",
    explanation="""
Content packs extend the catalog with YAML in the catalog's own format. A pack must
exist, parse, validate against schemas/catalog.schema.json, and lie inside the
project root (the folder holding pyproject.toml or questc.toml, else the quest's
folder), so a quest cannot read arbitrary files.
""",
    example=Example(
        failing=_HEAD.replace("conquest 3", 'conquest 3\n  use "../../elsewhere/pack.yaml"') + _HALL + "victory heroes when revealed A\n",
        fixed=_HEAD.replace("conquest 3", 'conquest 3\n  use "packs/my_pack.yaml"') + _HALL + "victory heroes when revealed A\n"),
    fields=("path", "problem"),
)
