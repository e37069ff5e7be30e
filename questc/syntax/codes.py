"""The syntax stage's diagnostic codes (Q001-Q006): each code's descriptor, with its message,
explanation and examples, where the parser and the tree builder that report it can reach it.

questc.rules.syntax lists them in its family table (questc explain, SARIF, the docs read
the tables); the limits Q006 stands for are in questc.limits.
"""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Example, Severity

# The rest of the examples' quests, after the header.
TAIL = (
    'piece R1 room_4x4 at 0,0\narea A "Hall" start { pieces R1; glyph at 0,0 active }\nvictory heroes when revealed A\n'
)


Q001 = Descriptor(
    code="Q001",
    name="unexpected-input",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="{found}: expected {expected}",
    label_template="{label}",
    summary="Something the grammar does not allow at this point.",
    explanation="""
The parser met a word, symbol or line end that cannot come where it stands. The
message says what it found and what could come there instead; after an error the
parser skips to the end of the statement and goes on, so one file can show several
syntax errors (each one a cause, not a consequence of an earlier one).
""",
    example=Example(
        failing='quest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 0,0\n' + TAIL.split("\n", 1)[1],
        fixed='quest "Q" {\n  conquest 3\n}\n' + TAIL,
    ),
    fields=("found", "expected", "label"),
)


Q002 = Descriptor(
    code="Q002",
    name="unterminated-string",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="this string is never closed",
    label_template="the string starts here",
    help_template="{help_text}",
    summary="A string with no closing quote.",
    explanation="""
A one-line string `"..."` must close on its own line (write `\\"` for a quote inside
it); a triple-quoted string `\"\"\"...\"\"\"` must close before the end of the file.
""",
    example=Example(failing='quest "Q {\n  conquest 3\n}\n' + TAIL, fixed='quest "Q" {\n  conquest 3\n}\n' + TAIL),
    fields=("help_text",),
)


Q003 = Descriptor(
    code="Q003",
    name="malformed-value",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A malformed number, point, rectangle or range (`4,`, `3..`, `5..2`).",
    explanation="""
Points are written `x,y` with no spaces (`4,2`), rectangles `x1,y1..x2,y2`, ranges
`a..b` with a <= b, piece-relative points `R1:2,3`, turns 0, 90, 180 or 270.
""",
    example=Example(
        failing='quest "Q" {\n  players 5..2\n  conquest 3\n}\n' + TAIL,
        fixed='quest "Q" {\n  players 2..5\n  conquest 3\n}\n' + TAIL,
    ),
    fields=("problem", "label", "help_text"),
)


Q004 = Descriptor(
    code="Q004",
    name="bad-header-field",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A header field given twice, or an unknown header field.",
    explanation="""
The `quest` header holds each field at most once (`use` may repeat): id, edition,
expansions, players, conquest, treachery, reveal, author, version, intro, special,
use. A second value would leave it unclear which one counts. The same goes for the
parts of a field: each colour of `treachery` is written once (`treachery event 2,
event 1` is an error; write `event 3`).
""",
    example=Example(
        failing='quest "Q" {\n  conquest 3\n  conquest 4\n}\n' + TAIL, fixed='quest "Q" {\n  conquest 4\n}\n' + TAIL
    ),
    fields=("problem", "label", "help_text"),
)


Q005 = Descriptor(
    code="Q005",
    name="missing-quest-header",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="the file does not start with a `quest` header",
    label_template="{label}",
    help_template='start the file with `quest "Title" {{ conquest 5 }}`',
    summary="The file does not start with a `quest` header.",
    explanation="""
A quest file holds exactly one quest, and its first statement is the header
`quest "Title" { ... }` with the quest's settings (at least its starting conquest).
""",
    example=Example(failing=TAIL, fixed='quest "Q" {\n  conquest 3\n}\n' + TAIL),
    fields=("label",),
)


Q006 = Descriptor(
    code="Q006",
    name="beyond-limits",
    severity=Severity.ERROR,
    minimum=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="An input beyond what questc checks: a file over 1,000,000 characters or with over 50 syntax "
    "errors, a condition nested over 100 levels, a number over 1,000,000, a coordinate over "
    "10,000, a rectangle larger than a map, a point over 400 cells off the map, or a map over "
    "20,000 cells or 400 cells across.",
    explanation="""
A real quest is a few kilobytes, nests its conditions a few levels deep and fits on a
table. Input far past that is almost always a generated or broken file; questc
refuses it with this error, at once, rather than spend minutes or gigabytes on it.
""",
    example=Example(
        failing='quest "Q" {\n  conquest 3\n}\n' + TAIL.replace("revealed A", "not " * 101 + "revealed A"),
        fixed='quest "Q" {\n  conquest 3\n}\n' + TAIL,
    ),
    fields=("problem", "label", "help_text"),
)
