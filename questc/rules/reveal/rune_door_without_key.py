"""Q304 rune-door-without-key: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS
from questc.rules.reveal.facts import rune_doors

Q304 = Descriptor(
    code="Q304",
    name="rune-door-without-key",
    severity=Severity.WARNING,
    template="no {colour} runekey is on the map for the rune door `{door}`",
    label_template="needs a {colour} runekey",
    help_template="place `runekey {colour} at X,Y` where the heroes can reach it, or open it with an effect "
    "(`unlock {colour}` or `open {door}`)",
    summary="A rune door with no key of its colour on the map (fine when an effect unlocks or opens it: "
    "then no warning).",
    explanation="""
A rune door stays locked until its colour is unlocked: by a hero picking up the
runekey of that colour, or by an `unlock COLOUR` effect. An `open DOOR` effect the
heroes can trigger (an encounter they reach, an `on round`, ...) opens that one door
too. With none of these, the door never opens. (The areas behind it are not
reported again.)
""",
    example=Example(
        failing=HEAD + TWO_ROOMS + "door gate between R1 R2 rune yellow\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n'
        "victory heroes when revealed B\n",
        fixed=HEAD + TWO_ROOMS + "door gate between R1 R2 rune yellow\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active; runekey yellow at 1,3 }\n'
        'area B "Beyond" { pieces R2 }\nvictory heroes when revealed B\n',
    ),
    fields=("colour", "door"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q304: rune doors the heroes can never pass with nothing at all that could open them."""
    doors = rune_doors(context)
    return [
        Q304.at(door.node.id.span, colour=door.rune, door=door.id)
        for door in sorted(doors.shut, key=lambda d: d.rune or "")
        if not doors.sources(door)
    ]


RULE = Rule(Q304, find, needs={"rune doors"})
