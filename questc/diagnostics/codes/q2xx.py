"""Q2xx: map geometry and placement (pieces, areas, doors, stairs, figures and markers on the board).

The checks that make these diagnostics live in questc/checks/placement.py; most of
them compute a concrete `help` (a position that fits, a dead end that caps a
corridor, a door statement that stands on a real joint), so the help templates
below are only the fallbacks used when nothing better is known.
"""
from questc.diagnostics.core import Descriptor, Example, Severity

E, W = Severity.ERROR, Severity.WARNING

_HEAD = 'quest "Q" {\n  conquest 3\n}\n'
_WIN = "victory heroes when revealed A\n"


def _hall(extra: str = "", glyph: str = "glyph at 0,0 active") -> str:
    """A one-room quest (a 4x4 hall at 0,0, its start area A) with `extra` lines in the area."""
    return (_HEAD + "piece R1 room_4x4 at 0,0\n"
            + 'area A "Hall" start {\n  pieces R1\n  ' + glyph + "\n" + extra + "}\n")


Q201 = Descriptor(
    code="Q201", name="overlapping-pieces", severity=E,
    template="piece `{piece}` overlaps piece `{other}` on {cells}",
    label_template="overlaps `{other}`",
    help_template="move `{piece}` so that none of its cells lie on `{other}`",
    summary="Two map pieces overlap.",
    explanation="""
Map pieces are cardboard tiles: they lie side by side and never on top of each other.
Where two pieces share cells the map cannot be built on the table, and every wall,
joint and line of sight near them is meaningless. The help suggests the nearest
position where the piece no longer overlaps anything.
""",
    example=Example(
        failing=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 2,2\n"
                + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Other" { pieces R2 }\n' + _WIN,
        fixed=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
              + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Other" { pieces R2 }\n' + _WIN),
    fields=("piece", "other", "cells"),
)

Q202 = Descriptor(
    code="Q202", name="open-corridor-end", severity=W,
    template="the {side} end of {kind} `{piece}` {problem}",
    label_template="{side} end ({cells})",
    help_template="cap it with a dead end, or join it to another piece's opening",
    summary="A corridor or intersection end that joins nothing, or meets another piece's wall.",
    explanation="""
Corridor and intersection ends are open: on the table a loose end shows a corridor
running off into nothing, which players read as a way on. Cap every end that leads
nowhere with a `dead_end` piece, and make ends that meet another piece meet one of
its openings exactly. A room's opening that joins nothing is simply wall and draws
no warning; an opening that carries a door is joined.
""",
    example=Example(
        failing=_HEAD + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\ndoor d between R1 C1\n"
                + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Passage" { pieces C1 }\n'
                + _WIN,
        fixed=_HEAD + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\npiece E1 dead_end at 6,1\n"
              + "door d between R1 C1\n"
              + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Passage" { pieces C1, E1 }\n'
              + _WIN),
    fields=("side", "kind", "piece", "problem", "cells"),
)

Q203 = Descriptor(
    code="Q203", name="area-coverage", severity=E,
    template="{subject} {problem}",
    summary="A piece or floor cell that is in no area, or in more than one.",
    explanation="""
Areas are what the heroes reveal, and every space of the map is revealed with exactly
one of them: each piece belongs to one area (`pieces ID, ...`), or a large piece is
split between areas with `cells RECT`. A space in no area is never revealed and never
described; a space in two areas is revealed twice and belongs to two read-aloud texts.
""",
    example=Example(
        failing=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
                + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\n' + _WIN,
        fixed=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
              + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "East" { pieces R2 }\n' + _WIN),
    fields=("subject", "problem"),
)

Q204 = Descriptor(
    code="Q204", name="placed-outside-area", severity=E,
    template="{thing} at {where} is {problem}",
    label_template="{label}",
    summary="Something placed off the map, or on a cell outside its own area.",
    explanation="""
Everything written inside an area's block (glyphs, monsters, chests, obstacles, traps,
treasure, relics, runekeys, encounters) must lie on that area's own floor cells: the
overlord sets an area up when it is revealed, and a thing outside the area would be
set up too early, too late, or off the map entirely. Every cell of a large figure's
footprint counts. The points of a `spawn` effect belong to no area, but they too must
be on the map.
""",
    example=Example(
        failing=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
                + 'area A "West" start {\n  pieces R1\n  glyph at 0,0 active\n  treasure healing at 5,1\n}\n'
                + 'area B "East" { pieces R2 }\n' + "victory heroes when revealed B\n",
        fixed=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
              + 'area A "West" start {\n  pieces R1\n  glyph at 0,0 active\n  treasure healing at 3,1\n}\n'
              + 'area B "East" { pieces R2 }\n' + "victory heroes when revealed B\n"),
    fields=("thing", "where", "problem", "label"),
)

Q205 = Descriptor(
    code="Q205", name="door-not-on-passage", severity=E,
    template="door `{door}` cannot stand there: {problem}",
    label_template="not on a passage between two pieces",
    help_template="put the door where two pieces' openings meet: `door {door} between PIECE PIECE`",
    summary="A door that is not on a two-cell passage between floor cells.",
    explanation="""
A door covers the two-space stretch where two pieces join. `door ID between A B` puts
it on the one joint of A and B (an error if they share none, or several: then say
which with `at`); `door ID at X,Y SIDE` puts it on that side of cell X,Y and the next
cell along it, which must be a joint too. A door on a wall, on open floor inside a
piece, or half off the map cannot be set up.
""",
    example=Example(
        failing=_hall(glyph="glyph at 0,0 active").replace("area A", "door d at 1,1 north\narea A") + _WIN,
        fixed=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d at 3,1 east\n"
              + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "East" { pieces R2 }\n' + _WIN),
    fields=("door", "problem"),
)

_STAIRS_MAP = "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\npiece R3 room_4x4 at 10,0\ndoor d between R1 R2\n"
_STAIRS_AREAS = ('area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Stair" { pieces R2 }\n'
                 'area C "Loft" { pieces R3 }\nvictory heroes when revealed C\n')

Q206 = Descriptor(
    code="Q206", name="bad-stairs", severity=E,
    template="stairs `{colour}`: {problem}",
    label_template="{label}",
    summary="Stairs with an end off the floor, or a colour used for more than one pair.",
    explanation="""
A staircase is a pair of markers of one colour: a figure on one end steps to the other
for one movement point. Both ends must lie on floor cells, and each colour names one
pair only, or no one could tell which end leads where.
""",
    example=Example(
        failing=_HEAD + _STAIRS_MAP + "stairs red at 7,3 19,9\n" + _STAIRS_AREAS,
        fixed=_HEAD + _STAIRS_MAP + "stairs red at 7,3 10,3\n" + _STAIRS_AREAS),
    fields=("colour", "problem", "label"),
)

Q207 = Descriptor(
    code="Q207", name="cell-conflict", severity=E,
    template="{thing} at {where} {problem}",
    label_template="{label}",
    summary="Two things in one cell that cannot share it.",
    explanation="""
Some things cannot stand in the same space: a figure on an obstacle that blocks
movement (rubble, water, a boulder), two figures, a chest or other marker the heroes
must reach on such an obstacle, a monster on an active glyph (monsters may never end
a move on one, so none can be placed there), or two obstacles in one space. Figures
kept only for player counts that never meet (`players 2..3` and `players 4..5`) may
share a space.
""",
    example=Example(
        failing=_hall("  monster skeleton at 0,0\n") + _WIN,
        fixed=_hall("  monster skeleton at 2,2\n") + _WIN),
    fields=("thing", "where", "problem", "label"),
)

_BIG = 'named big "Big" giant { conquest 2 }\nvictory heroes when killed big\n'

Q208 = Descriptor(
    code="Q208", name="large-figure-does-not-fit", severity=E,
    template="{figure} at {where} does not fit: {problem}",
    label_template="{label}",
    help_template="place it where its whole footprint lies on open floor of its area",
    summary="A large figure that does not fit where it is placed.",
    explanation="""
A large figure fills several spaces: 1x2 (hell hound, turned with `facing`), 2x2
(ogre, giant, ...), 2x3 (dragon). Its point is its top-left space. Every space it
fills must be floor, free of obstacles that block movement, and with no wall or closed
door between any two of them: a figure cannot stand across a wall. The same goes for
a large figure a `spawn` effect places; a spawn names no facing, so a long figure
fits when it fits either way round.
""",
    example=Example(
        failing=_hall("  named big at 3,3\n") + _BIG,
        fixed=_hall("  named big at 2,2\n") + _BIG),
    fields=("figure", "where", "problem", "label"),
)

Q209 = Descriptor(
    code="Q209", name="start-area-count", severity=E,
    template="{problem}",
    label_template="{label}",
    summary="No `start` area, or more than one.",
    explanation="""
The heroes enter the quest in one area, marked `start`: it is revealed before the
first turn (wave 0 of the reveal order) and holds the active glyph they are placed
on or next to. Without one there is nowhere to begin; with two, the reveal order and
the heroes' set-up are ambiguous.
""",
    example=Example(
        failing=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
                + 'area A "West" start { pieces R1; glyph at 0,0 active }\n'
                + 'area B "East" start { pieces R2; glyph at 7,3 active }\nvictory heroes when revealed B\n',
        fixed=_HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
              + 'area A "West" start { pieces R1; glyph at 0,0 active }\n'
              + 'area B "East" { pieces R2; glyph at 7,3 }\nvictory heroes when revealed B\n'),
    fields=("problem", "label"),
)

Q210 = Descriptor(
    code="Q210", name="start-without-active-glyph", severity=E,
    template="start area `{area}` has no active glyph",
    label_template="the heroes are placed on or next to an active glyph here",
    help_template="add `glyph at X,Y active` on a free cell of `{area}`",
    summary="The start area has no `active` glyph.",
    explanation="""
Heroes begin the quest on or next to an active glyph of transport in the start area,
and return to it from town. Glyphs start inactive unless the quest says `active`, so
the start area needs at least one `glyph at P active`.
""",
    example=Example(
        failing=_hall(glyph="glyph at 0,0") + _WIN,
        fixed=_hall(glyph="glyph at 0,0 active") + _WIN),
    fields=("area",),
)

_WOD_HEAD = 'quest "Q" {\n  expansions base, well_of_darkness\n  conquest 3\n}\n'


def _wod_hall(extra: str) -> str:
    """The one-room quest of `_hall`, with The Well of Darkness's traps."""
    return _hall(extra).replace(_HEAD, _WOD_HEAD, 1)


Q211 = Descriptor(
    code="Q211", name="facing-mismatch", severity=W,
    template="{thing} {problem}",
    label_template="{label}",
    summary="`facing` given where it means nothing, or missing where the component needs it.",
    explanation="""
Only some components have a direction. A boulder rolls, and a crushing wall moves,
the way their arrow points, and a boulder ramp turns a boulder one way: these traps
need `facing north|east|south|west`, or the overlord cannot tell which way they go.
Other traps (a dart field, scything blades) take no direction.

For a monster, `facing` only turns a long figure (a hell hound, 1 by 2; a dragon, 2
by 3) on its side: a one-space figure, or a square large one (an ogre, 2 by 2), fills
the same spaces whichever way it faces, so a `facing` there says nothing and may
hide a mistake (the wrong monster, or a facing meant for another line).
""",
    example=Example(
        failing=_wod_hall("  trap boulder at 1,2\n  trap dart_field at 3,3 facing north\n") + _WIN,
        fixed=_wod_hall("  trap boulder at 1,2 facing east\n  trap dart_field at 3,3\n") + _WIN),
    fields=("thing", "problem", "label"),
)
