"""Q5xx: quest logic (victory, chests, encounters, player counts, conquest, printed text)."""
from questc.diagnostics.core import Descriptor, Example, Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

_HEAD = 'quest "Q" {\n  conquest 3\n}\n'
_HALL = 'piece R1 room_6x6 at 0,0\narea A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n'
_CHIEF = '  named chief at 5,5\n}\nnamed chief "Chief" beastman { conquest 1 }\n'
_WIN = 'victory heroes when killed chief\n'

# The printed box every read-aloud or rules text must fit (see Q508).
BOX_LINES = 20
BOX_WIDTH = 60


def _quest(head: str = _HEAD, area_lines: str = "", tail: str = "", win: str = _WIN) -> str:
    """An otherwise valid one-room quest with `area_lines` in its start area and `tail` after it."""
    return head + _HALL + area_lines + _CHIEF + tail + win


_LONG_READ = '  read """\n' + "".join(f"    Line {i} of a tale that goes on and on.\n" for i in range(1, 23)) + '  """\n'
_SHORT_READ = '  read """\n' + "".join(f"    Line {i} of a tale that ends.\n" for i in range(1, 5)) + '  """\n'

Q501 = Descriptor(
    code="Q501", name="no-heroes-victory", severity=E,
    template="the quest has no heroes' victory condition",
    label_template="the heroes can never win this quest",
    summary="No heroes' victory condition.",
    explanation="""
The overlord always wins when the heroes' conquest reaches 0, so his victory need not
be written; the heroes' goal must be. A quest needs at least one
`victory heroes ... when CONDITION` (kill a named monster, reveal an area, trigger an
encounter, open a door, ...).
""",
    example=Example(
        failing=_quest(win="victory overlord when conquest 0\n"),
        fixed=_quest(win="victory heroes when killed chief\nvictory overlord when conquest 0\n")),
    fields=(),
)

Q502 = Descriptor(
    code="Q502", name="chest-chart-too-short", severity=E,
    template="{count} {chest} chests are placed, but the chest chart has {rows} {chest} {row_word}",
    label_template="no chart row is left for this chest",
    help_template="add {missing} to the `chests` chart, or place fewer {chest} chests",
    summary="A chest type placed more often than the chest chart has rows for it.",
    explanation="""
Chest markers are shuffled face down by type; the overlord places a random one of the
type the quest shows, and its number is looked up in the quest's chest chart. With
more chests of a type than the chart has rows for it, some chest would hold nothing
the quest says: each chest of a type needs its own numbered row.
""",
    example=Example(
        failing=_quest(area_lines="  chest copper at 2,2 4,4\n", tail="chests {\n  copper 1: coins 50\n}\n"),
        fixed=_quest(area_lines="  chest copper at 2,2 4,4\n",
                     tail="chests {\n  copper 1: coins 50\n  copper 2: copper, conquest 1\n}\n")),
    fields=("count", "chest", "rows", "row_word", "missing"),
)

Q503 = Descriptor(
    code="Q503", name="chest-rows-never-used", severity=W,
    template="the chest chart has {rows} {chest} {row_word}, but no {chest} chest is placed",
    label_template="no {chest} chest on the map",
    help_template="place one with `chest {chest} at X,Y` in an area, or remove the {chest} rows",
    summary="Chest chart rows for a chest type never placed.",
    explanation="""
Rows of the chest chart are only read when a chest of their type is opened. Rows for a
type the map never shows are dead text on the sheet, and usually mean a chest was
forgotten or given the wrong type.
""",
    example=Example(
        failing=_quest(area_lines="  chest copper at 2,2\n",
                       tail="chests {\n  copper 1: coins 50\n  gold 1: gold, conquest 3\n}\n"),
        fixed=_quest(area_lines="  chest copper at 2,2\n  chest gold at 4,4\n",
                     tail="chests {\n  copper 1: coins 50\n  gold 1: gold, conquest 3\n}\n")),
    fields=("rows", "chest", "row_word"),
)

Q504 = Descriptor(
    code="Q504", name="empty-encounter", severity=W,
    template="encounter `{name}` has no effect and no text",
    label_template="nothing happens here",
    help_template="give it a `read \"...\"` text or an effect (`conquest +2`, `treasure copper`, `open DOOR`, "
                  "`instruct \"...\"`), or remove it",
    summary="An encounter with no effect and no text.",
    explanation="""
An encounter marker stops a hero who ends his move on it, and the quest says what
happens. An empty block makes the marker do nothing at all: usually a block left to
be written.
""",
    example=Example(
        failing=_quest(area_lines="  encounter well at 2,2 { }\n"),
        fixed=_quest(area_lines='  encounter well at 2,2 {\n    read "The well is dry."\n    conquest +1\n  }\n')),
    fields=("name",),
)

Q505 = Descriptor(
    code="Q505", name="player-count-out-of-range", severity=E,
    template="{problem}",
    label_template="{label}",
    summary="`players` outside 2..5, or a figure's `players` outside the quest's.",
    explanation="""
Descent is played by 2 to 5 players, the overlord included, so a quest's `players`
range lies within 2..5. A figure's `players a..b` keeps it only for those player
counts; a count the quest itself does not support can never happen, so the figure's
range must lie within the quest's.
""",
    example=Example(
        failing=_quest(_HEAD.replace("conquest 3", "players 2..4\n  conquest 3"),
                       "  monster beastman at 2,2 players 4..5\n"),
        fixed=_quest(_HEAD.replace("conquest 3", "players 2..4\n  conquest 3"),
                     "  monster beastman at 2,2 players 4\n")),
    fields=("problem", "label"),
)

Q506 = Descriptor(
    code="Q506", name="no-starting-conquest", severity=E,
    template="{problem}",
    label_template="{label}",
    help_template="give the heroes at least 1: `conquest 5` is what the first base quest gives",
    summary="Starting conquest below 1 (or not given).",
    explanation="""
The overlord wins at once when the heroes hold no conquest tokens, so a quest that
starts them with none is lost before the first turn. `conquest N` is a required
header field, and N must be at least 1.
""",
    example=Example(
        failing=_quest(_HEAD.replace("conquest 3", "conquest 0")),
        fixed=_quest(_HEAD)),
    fields=("problem", "label"),
)

Q507 = Descriptor(
    code="Q507", name="conquest-on-the-map", severity=I,
    template="the heroes start with {start} conquest and can gain up to {available} {where}{detail}",
    label_template="{start} at the start",
    help_template="the heroes lose a hero's conquest value (2 to 4) when he dies and 3 each time the overlord's "
                  "deck runs out: weigh that against the {available} the map gives",
    summary="The conquest the heroes can gain on the map against what they start with.",
    explanation="""
Conquest is the heroes' life line: at 0 the overlord wins. This note sums what the map
gives: 3 for each glyph not active at the start (activating it), the chest chart's
conquest (for each chest type, its best rows, one per chest of the type placed), the
`conquest +N` of encounters and of `on` triggers, and named monsters' conquest. Losses
are left out: it is what the heroes *can* gain.

When the reveal analysis is available, only what the heroes can reach counts (markers
on reached cells, named monsters standing on or next to one, triggers of areas they
can reveal); otherwise the whole map counts, and the message says so.
""",
    # A note, not a fault: the "fixed" quest shows the same note with a safer start.
    example=Example(
        failing=_quest(area_lines="  glyph at 2,2\n"),
        fixed=_quest(_HEAD.replace("conquest 3", "conquest 5"), area_lines="  glyph at 2,2\n")),
    fields=("start", "available", "where", "detail"),
    fixed_example_silences=False,
)

Q508 = Descriptor(
    code="Q508", name="text-overflows-box", severity=W,
    template="this {what} needs {lines} printed lines, but a box holds {limit}",
    label_template="{characters} characters in {lines} lines of {width}",
    help_template="shorten it by about {excess} lines, or move rules text into the quest's `special` rules",
    summary="A `read` text, `intro` or `special` longer than a printed box can hold.",
    explanation=f"""
The quest sheet prints each read-aloud text, the intro and the special rules in a box.
A box is taken to hold {BOX_LINES} lines of {BOX_WIDTH} characters (about {BOX_LINES * BOX_WIDTH:,} characters).
Each line of the text is wrapped at word breaks to that width, and a blank line counts
as one; a text that needs more lines than the box holds would overflow the sheet.
Read-aloud texts are read out at the table in one go: long ones lose the players anyway.
""",
    example=Example(
        failing=_quest(area_lines=_LONG_READ),
        fixed=_quest(area_lines=_SHORT_READ)),
    fields=("what", "lines", "limit", "characters", "width", "excess"),
)
