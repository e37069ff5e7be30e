"""Q510 text-cannot-be-printed: the code's descriptor and the check that finds it."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.logic.examples import quest
from questc.syntax import nodes as n

Q510 = Descriptor(
    code="Q510",
    name="text-cannot-be-printed",
    severity=Severity.ERROR,
    template="this text holds {what}, which cannot be printed",
    label_template="{what}",
    help_template="{help_text}",
    summary="Text holding a control character, or a character none of questc's fonts can draw.",
    explanation="""
Everything written between quotes may end up on the printed sheet, the map or the
guide, in any script: questc ships fonts for the world's scripts (DejaVu Sans, the Noto
script fonts, Droid Sans Fallback for Chinese and Japanese, GNU Unifont for every other
character; see questc/fonts/README.md). What no font can draw is an error before
anything is built, rather than a failed build:

- a control character (U+0000 to U+001F but the tab and the line break, U+007F to
  U+009F), which no sheet can show and which a picture's SVG cannot even hold;
- a private-use or unassigned code point, which no font questc has draws.

Line breaks (`\\n`) and tabs are fine.
""",
    example=Example(
        failing=quest(area_lines='  read "The bell \ue000 rings."\n'),  # a private-use character
        fixed=quest(area_lines='  read "The bell rings."\n'),
    ),
    fields=("what", "help_text"),
)


def texts(node: object) -> Iterator[n.Text]:
    """Every quoted text of a syntax tree, in no particular order."""
    stack: list[object] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, n.Text):
            yield item
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
        elif hasattr(item, "__dataclass_fields__") and not isinstance(item, (n.Name, n.PointRef)):
            stack.extend(getattr(item, name) for name in item.__dataclass_fields__ if name != "span")


def describe(char: str) -> tuple[str, str]:
    """(what the character is, in words; the help) for a character that cannot be printed."""
    code = f"U+{ord(char):04X}"
    category = unicodedata.category(char)
    if category == "Cc":
        return (
            f"the control character {code}",
            "remove it (write `\\n` for a line break); it may have come with text pasted from elsewhere",
        )
    if category == "Co":
        return f"the private-use character {code}", "use a standard Unicode character instead"
    if category == "Cn":
        return f"{code}, which is not a Unicode character", "remove it or use a standard character"
    return (
        f"`{char}` ({code}, {unicodedata.name(char, 'unnamed')}), which none of questc's fonts has",
        "use another character, or write it out in words",
    )


def find(context: CheckContext) -> list[Diagnostic]:
    """Q510: quoted text with a character questc cannot print; one diagnostic per text and character."""
    from questc.fonts import printable

    # A text's characters are the source's (its escapes give only `"`, `\` and line breaks): when
    # every character of the source prints, so does every text, and the tree need not be walked
    # (1.5 ms of every keystroke's check on a 600-line map).
    if all(printable(char) for char in set(context.source)):
        return []
    out = []
    for text in sorted(texts(context.model.syntax), key=lambda t: t.span.start):
        seen = set()
        for char in text.value:
            if char in seen or printable(char):
                continue
            seen.add(char)
            what, help_text = describe(char)
            out.append(Q510.at(text.span, what=what, help_text=help_text))
    return out


RULE = Rule(
    Q510,
    find,
    examples=(
        Example(  # second edition: the same in a second edition quest
            failing=second_examples.second('  read "The bell \ue000 rings."\n'),
            fixed=second_examples.second('  read "The bell rings."\n'),
        ),
    ),
)
