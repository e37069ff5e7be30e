"""Q3xx: reachability and revealing (the fixed point of LANGUAGE.md §9)."""
from questc.diagnostics.core import Descriptor, Example, Severity

_HEAD = 'quest "Q" {\n  conquest 3\n}\n'
_TWO_ROOMS = 'piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n'

Q301 = Descriptor(
    code="Q301", name="area-never-revealed", severity=Severity.ERROR,
    template="area `{area}` can never be revealed",
    label_template="no hero can ever see into this area",
    help_template="{help_text}",
    summary="An area that can never be revealed.",
    explanation="""
Areas are revealed when a hero first has line of sight into them (or, with
`reveal door`, when a door into them opens). An area joined to the rest of the map
by no opening, door or staircase stays hidden all game, with everything in it.
""",
    example=Example(
        failing=_HEAD + 'piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 10,0\n'
                'area A "Cell" start { pieces R1; glyph at 0,0 active }\narea B "Vault" { pieces R2 }\n'
                'victory heroes when revealed B\n',
        fixed=_HEAD + _TWO_ROOMS + 'door d between R1 R2\n'
              'area A "Cell" start { pieces R1; glyph at 0,0 active }\narea B "Vault" { pieces R2 }\n'
              'victory heroes when revealed B\n'),
    fields=("area", "help_text"),
)

Q302 = Descriptor(
    code="Q302", name="marker-out-of-reach", severity=Severity.ERROR,
    template="the heroes can never reach the {thing} at {x},{y}",
    label_template="out of reach",
    help_template="{help_text}",
    summary="A marker the heroes can never reach (chest, glyph, encounter, runekey, relic, treasure, or a named monster they must kill).",
    explanation="""
The area is revealed, but no hero can walk to this cell: it is walled off, or ringed
by obstacles that block movement (rubble, water). A chest nobody can open or a
monster nobody can reach is a broken promise to the players.
""",
    example=Example(
        failing=_HEAD + 'piece R1 room_4x4 at 0,0\n'
                'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
                '  obstacle rubble at 2,0 2,1 3,1\n  relic crown at 3,0\n}\n'
                'victory heroes when revealed A\n',
        fixed=_HEAD + 'piece R1 room_4x4 at 0,0\n'
              'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
              '  obstacle rubble at 2,0 3,1\n  relic crown at 3,0\n}\n'
              'victory heroes when revealed A\n'),
    fields=("thing", "x", "y", "help_text"),
)

Q303 = Descriptor(
    code="Q303", name="rune-door-guards-own-key", severity=Severity.ERROR,
    template="the {colour} rune door `{door}` guards its own key",
    label_template="this door needs the {colour} runekey",
    help_template="move the runekey to an area reachable without opening `{door}`",
    summary="A rune door whose key can only be reached through that door (or a cycle of rune doors).",
    explanation="""
A rune door opens once a hero has picked up the runekey of its colour. If every
runekey of that colour lies behind the door itself (or behind another rune door
whose key is behind this one), the door can never open. The areas behind it are
not reported separately: this door is the cause.
""",
    example=Example(
        failing=_HEAD + _TWO_ROOMS + 'door vault between R1 R2 rune red\n'
                'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
                'area B "Vault" { pieces R2; runekey red at 6,2 }\nvictory heroes when revealed B\n',
        fixed=_HEAD + _TWO_ROOMS + 'door vault between R1 R2 rune red\n'
              'area A "Hall" start { pieces R1; glyph at 0,0 active; runekey red at 2,2 }\n'
              'area B "Vault" { pieces R2 }\nvictory heroes when revealed B\n'),
    fields=("colour", "door"),
)

Q304 = Descriptor(
    code="Q304", name="rune-door-without-key", severity=Severity.WARNING,
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
        failing=_HEAD + _TWO_ROOMS + 'door gate between R1 R2 rune yellow\n'
                'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n'
                'victory heroes when revealed B\n',
        fixed=_HEAD + _TWO_ROOMS + 'door gate between R1 R2 rune yellow\n'
              'area A "Hall" start { pieces R1; glyph at 0,0 active; runekey yellow at 1,3 }\n'
              'area B "Beyond" { pieces R2 }\nvictory heroes when revealed B\n'),
    fields=("colour", "door"),
)

Q305 = Descriptor(
    code="Q305", name="area-visible-from-start", severity=Severity.WARNING,
    template="area `{area}` is in line of sight of the start area, so it is revealed before the first turn",
    label_template="seen from the start area",
    help_template="put a door between `{start}` and `{area}`, or make them one area",
    summary="An area other than the start area is in line of sight of the start area.",
    explanation="""
Heroes start in the start area, and every area they can see is revealed at once.
An area seen from the start is revealed before the first turn: its read-aloud text
and its monsters come out during setup, which is rarely what the writer meant.
""",
    example=Example(
        failing=_HEAD + 'piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\npiece E1 dead_end at 6,1\n'
                'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Alcove" { pieces C1, E1 }\n'
                'victory heroes when revealed B\n',
        fixed=_HEAD + 'piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\npiece E1 dead_end at 6,1\n'
              'door d between R1 C1\n'
              'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Alcove" { pieces C1, E1 }\n'
              'victory heroes when revealed B\n'),
    fields=("area", "start"),
)

Q306 = Descriptor(
    code="Q306", name="floor-out-of-reach", severity=Severity.WARNING,
    template="{count} floor {cells} of area `{area}` can never be reached",
    label_template="unreachable",
    help_template="clear a path to {where}, or remove what walls it off",
    summary="Floor cells no hero can ever reach.",
    explanation="""
Cells of a revealed area that no hero can walk to: cut off by obstacles that block
movement or by walls. Cells under blocking obstacles themselves are not counted.
""",
    example=Example(
        failing=_HEAD + 'piece R1 room_4x4 at 0,0\n'
                'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
                '  obstacle rubble at 2,0..2,3\n}\nvictory heroes when revealed A\n',
        fixed=_HEAD + 'piece R1 room_4x4 at 0,0\n'
              'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
              '  obstacle rubble at 2,0..2,2\n}\nvictory heroes when revealed A\n'),
    fields=("count", "cells", "area", "where"),
)

Q307 = Descriptor(
    code="Q307", name="victory-impossible", severity=Severity.ERROR,
    template="this victory condition can never become true: {reason}",
    label_template="{reason}",
    help_template="{help_text}",
    summary="A victory condition that can never become true.",
    explanation="""
A condition names a named monster, area, encounter or door the heroes can never
reach, reveal, trigger or open. The quest could never be won that way.
""",
    example=Example(
        failing=_HEAD + _TWO_ROOMS + 'door d between R1 R2\n'
                'area A "Hall" start { pieces R1; glyph at 0,0 active; obstacle rubble at 3,0..3,3 }\n'
                'area B "Lair" { pieces R2 }\nvictory heroes when opened d\n',
        fixed=_HEAD + _TWO_ROOMS + 'door d between R1 R2\n'
              'area A "Hall" start { pieces R1; glyph at 0,0 active; obstacle rubble at 3,0 3,3 }\n'
              'area B "Lair" { pieces R2 }\nvictory heroes when opened d\n'),
    fields=("reason", "help_text"),
)

Q308 = Descriptor(
    code="Q308", name="stairs-around-rune-door", severity=Severity.WARNING,
    template="stairs `{colour}` lead around the rune door `{door}`",
    label_template="these stairs bypass the door",
    help_template="move one end of the stairs behind `{door}`, or make the door a normal door",
    summary="Stairs lead around a rune door (an area behind a rune door is reachable without its key).",
    explanation="""
The heroes can reach both sides of this rune door without its key, by way of the
stairs. The lock then guards nothing.
""",
    example=Example(
        failing=_HEAD + _TWO_ROOMS + 'door gate between R1 R2 rune red\nstairs blue at 3,3 4,3\n'
                'area A "Hall" start { pieces R1; glyph at 0,0 active; runekey red at 0,3 }\n'
                'area B "Beyond" { pieces R2 }\nvictory heroes when revealed B\n',
        fixed=_HEAD + _TWO_ROOMS + 'door gate between R1 R2 rune red\n'
              'area A "Hall" start { pieces R1; glyph at 0,0 active; runekey red at 0,3 }\n'
              'area B "Beyond" { pieces R2 }\nvictory heroes when revealed B\n'),
    fields=("colour", "door"),
)

Q309 = Descriptor(
    code="Q309", name="reveal-order", severity=Severity.INFO,
    template="wave {wave}: {areas}",
    summary="The order in which areas can be revealed, one line per wave (printed with `--verbose`).",
    explanation="""
The reveal analysis in waves: wave 0 is the start area; each later wave holds the
areas the heroes can first see (or open a door into) once the earlier waves are
revealed, with the areas they are first seen from.
""",
    example=Example(
        failing=_HEAD + _TWO_ROOMS + 'door d between R1 R2\n'
                'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n'
                'victory heroes when revealed B\n',
        fixed=_HEAD + _TWO_ROOMS + 'door d between R1 R2\n'
              'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n'
              'victory heroes when revealed B\n'),
    fields=("wave", "areas"),
    fixed_example_silences=False,
)
