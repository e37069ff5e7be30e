"""Q405 too-many-markers: the code's descriptor and the check that finds it."""

from __future__ import annotations

from collections import defaultdict

from questc.catalog.owned import Held
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity, Span
from questc.rules import Rule, second_examples
from questc.rules.components.counting import too_many
from questc.rules.components.examples import BASE, quest
from questc.rules.context import CheckContext

Q405 = Descriptor(
    code="Q405",
    name="too-many-markers",
    severity=Severity.ERROR,
    template="the quest places {counted}, but {holding}",
    label_template="one too many",
    help_template="remove {extra} of them, or list a set that brings more in `expansions`{hint}",
    summary="More doors, rune doors, glyphs, encounter markers, staircases, chests, relics or treasures "
    "than the owned sets hold.",
    explanation="""
The base game holds 7 doors and 3 rune doors (one red, one yellow, one blue), 10
glyphs, 10 encounter markers, 6 staircase markers, 8 chest markers, 4 relic markers
and 9 each of healing potion, vitality potion and money markers; The Well of Darkness
adds 2 staircase markers, 6 relic markers, 11 money markers and 9 power potions.

A `stairs` statement places a pair of staircase markers, so it counts 2. Rune doors
are also counted by colour, and so are runekeys (the books do not count runekeys: one
per rune door is an estimate, so too many runekeys is a warning that says how to
declare the real number). Markers whose number the books do not give are not checked.
A box that holds more is declared in the configuration's `[owned]` table:
`markers = { runekey = 6, door = 9 }`, `treasures = { money = 20 }`, or
`sets = { base = 2 }` for two of everything.
""",
    example=Example(
        failing=quest(
            BASE,
            "  relic shield at 1,0\n  relic sword at 2,0\n  relic bow at 3,0\n  relic axe at 4,0\n"
            "  relic helm at 5,0\n",
        ),
        fixed=quest(BASE, "  relic shield at 1,0\n  relic sword at 2,0\n  relic bow at 3,0\n  relic axe at 4,0\n"),
    ),
    fields=("counted", "holding", "extra", "hint"),
)


# Marker kinds counted per colour as well as in all: the base game's three rune doors
# are one of each colour, and so (by estimate) are its three runekeys.
BY_COLOUR = ("rune_door", "runekey")


def find(context: CheckContext) -> list[Diagnostic]:
    """Q405: doors, rune doors, glyphs, encounters, staircases, chests, relics, runekeys and treasures."""
    model, box = context.model, context.box
    catalog = model.catalog
    # (catalog marker kind, what one is called) -> [(span, markers, colour)]
    counted: dict[tuple[str, str], list[tuple[Span, int, str | None]]] = defaultdict(list)
    for door in model.doors.values():
        if door.rune is None:
            counted[("door", "door")].append((door.node.id.span, 1, None))
        else:
            counted[("rune_door", "rune door")].append((door.node.id.span, 1, door.rune))
    for stairs in model.stairs:
        # `stairs` places a pair: the books count staircase markers, not pairs.
        counted[("staircase", "staircase marker")].append((stairs.node.colour.span, 2, None))
    words = {
        "glyph": "glyph",
        "encounter": "encounter marker",
        "chest": "chest marker",
        "relic": "relic marker",
        "runekey": "runekey",
    }
    treasures = []
    for marker in model.markers:
        if marker.kind == "treasure":
            treasures.append(marker)
        elif marker.kind in words:
            colour = marker.variant if marker.kind == "runekey" else None
            counted[(marker.kind, words[marker.kind])].append((marker.span, 1, colour))
    found = []
    for (kind, word), items in counted.items():
        held = box.held("markers", kind)
        owned = held.count
        found += _check(held, items, word)
        marker_kind = catalog.markers.get(kind)
        if (
            kind in BY_COLOUR
            and marker_kind is not None
            and marker_kind.variants
            and owned.count is not None
            and owned.count % len(marker_kind.variants) == 0
        ):
            each = held.share(len(marker_kind.variants))
            for colour in marker_kind.variants:
                of_colour = [item for item in items if item[2] == colour]
                found += _check(each, of_colour, f"{colour} {word}")
    by_treasure: dict[str, list[tuple[Span, int, str | None]]] = defaultdict(list)
    for marker in treasures:
        if marker.variant is not None:  # a treasure marker always names its treasure
            by_treasure[marker.variant].append((marker.span, 1, None))
    for name, items in by_treasure.items():
        entry = catalog.treasures.get(name)
        title = entry.title if entry is not None and entry.title else name
        found += _check(box.held("treasures", name), items, f"{title} marker")
    return found


def _check(held: Held, items, word: str) -> list[Diagnostic]:
    diagnostic = too_many(Q405, held, [(span, weight) for span, weight, _ in items], "one more", word)
    return [diagnostic] if diagnostic is not None else []


# A hallway of six extenders east of tile 9A, the exit at its end; a door may stand on each join.
_HALLWAY = (
    second_examples.MAP.replace("piece Out exit at 4,1 turn 270\n", "")
    + "".join(f"piece E{i} extender at {3 + i},1 turn 270\n" for i in range(1, 7))
    + "piece Out exit at 10,1 turn 270\n"
)
_HALLWAY_PIECES = "T, In, Cap, E1, E2, E3, E4, E5, E6, Out"
_JOINS = [("In", "T"), ("Cap", "T"), ("T", "E1"), *((f"E{i}", f"E{i + 1}") for i in range(1, 6)), ("E6", "Out")]


def _doors(count: int) -> str:
    return "".join(f"door d{i} between {a} {b}\n" for i, (a, b) in enumerate(_JOINS[:count], 1))


RULE = Rule(
    Q405,
    find,
    examples=(
        Example(  # second edition: eight doors, where the game has seven
            failing=second_examples.second(map_=_HALLWAY + _doors(8), pieces=_HALLWAY_PIECES),
            fixed=second_examples.second(map_=_HALLWAY + _doors(7), pieces=_HALLWAY_PIECES),
        ),
    ),
)
