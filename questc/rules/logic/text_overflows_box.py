"""Q508 text-overflows-box: the code's descriptor and the check that finds it."""

from __future__ import annotations

import textwrap

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.model.quest import EncounterModel
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.logic.examples import LONG_READ, SHORT_READ, quest
from questc.syntax import nodes as n
from questc.words import plural

# The box a read-aloud text, the intro or the special rules print in.
BOX_LINES = 20
BOX_WIDTH = 60

Q508 = Descriptor(
    code="Q508",
    name="text-overflows-box",
    severity=Severity.WARNING,
    template="this {what} needs {lines} printed lines, but a box holds {limit}",
    label_template="{characters} characters in {lines} lines of {width}",
    help_template="shorten it by about {excess}, or move rules text into the quest's `special` rules",
    summary="A `read` text, `intro` or `special` longer than a printed box can hold.",
    explanation=f"""
The quest sheet prints each read-aloud text, the intro and the special rules in a box.
A box is taken to hold {BOX_LINES} lines of {BOX_WIDTH} characters (about {BOX_LINES * BOX_WIDTH:,} characters).
Each line of the text is wrapped at word breaks to that width, and a blank line counts
as one; a text that needs more lines than the box holds would overflow the sheet.
Read-aloud texts are read out at the table in one go: long ones lose the players anyway.
""",
    example=Example(failing=quest(area_lines=LONG_READ), fixed=quest(area_lines=SHORT_READ)),
    fields=("what", "lines", "limit", "characters", "width", "excess"),
)


def printed_lines(text: str, width: int = BOX_WIDTH) -> int:
    """A text in, the lines it fills in a box `width` characters wide (wrapped at word breaks) out."""
    return sum(max(1, len(textwrap.wrap(line, width))) for line in text.strip("\n").split("\n"))


def find(context: CheckContext) -> list[Diagnostic]:
    """Q508 for each read-aloud text, intro or special rules too long for a printed box."""
    model = context.model
    texts: list[tuple[str, n.Text]] = []
    header = model.header
    for keyword, what in (("intro", "intro"), ("special", "special rules text")):
        field = header.get(keyword) if header is not None else None
        if field is not None and isinstance(field.value, n.Text):
            texts.append((what, field.value))
    for area in model.areas.values():
        for stmt in area.node.statements:
            if isinstance(stmt, n.Read):
                texts.append((f"read-aloud text of area {area.id}", stmt.text))
    texts += [
        (
            f"read-aloud text of encounter `{source.id}`" if isinstance(source, EncounterModel) else "read-aloud text",
            effect.text,
        )
        for effect, source in model.effects()
        if isinstance(effect, n.Read)
    ]
    found = []
    for what, text in texts:
        lines = printed_lines(text.value)
        if lines > BOX_LINES:
            found.append(
                Q508.at(
                    text.span,
                    what=what,
                    lines=lines,
                    limit=BOX_LINES,
                    characters=len(text.value.strip()),
                    width=BOX_WIDTH,
                    excess=plural(lines - BOX_LINES, "line"),
                )
            )
    return found


RULE = Rule(
    Q508,
    find,
    examples=(
        Example(  # second edition: the same in a second edition quest
            failing=second_examples.second(LONG_READ), fixed=second_examples.second(SHORT_READ)
        ),
    ),
)
