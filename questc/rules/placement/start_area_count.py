"""Q209 start-area-count: the code's descriptor and the check that finds it."""

from __future__ import annotations

import re

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.diagnostics.edits import fix, insert_after
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.placement.examples import HEAD
from questc.rules.placement.facts import placement_facts

Q209 = Descriptor(
    code="Q209",
    name="start-area-count",
    severity=Severity.ERROR,
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
        failing=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
        + 'area A "West" start { pieces R1; glyph at 0,0 active }\n'
        + 'area B "East" start { pieces R2; glyph at 7,3 active }\nvictory heroes when revealed B\n',
        fixed=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
        + 'area A "West" start { pieces R1; glyph at 0,0 active }\n'
        + 'area B "East" { pieces R2; glyph at 7,3 }\nvictory heroes when revealed B\n',
    ),
    fields=("problem", "label"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q209: no `start` area, or more than one.

    With no start area, one diagnostic at the quest's title (help: mark the
    first area `start`); with several, one at each start area after the first, labelled
    on the first.
    """
    facts = placement_facts(context)
    model = facts.model
    starts = model.start_areas
    if not model.areas:
        return []  # a quest with no areas at all has no map to start on; nothing to point at
    if not starts:
        first = next(iter(model.areas.values()))
        after = first.node.name.span if first.node.name is not None else first.node.id.span
        return [
            Q209.at(
                model.header_span(),
                problem="no area is the start area",
                label="the heroes start nowhere",
                labels=[Label(first.node.id.span, "the first area")],
                help=f"mark the area where the heroes enter with `start`: "
                f'`area {first.id} "{first.name}" start {{ ... }}`',
                fixes=fix(f"mark area `{first.id}` `start`", insert_after(after, " start")),
            )
        ]
    out = []
    for extra in starts[1:]:
        out.append(
            Q209.at(
                extra.node.id.span,
                problem=f"area `{extra.id}` is a second start area",
                label="also marked `start`",
                labels=[Label(starts[0].node.id.span, "the first start area")],
                help=f"remove `start` from area `{extra.id}`: only `{starts[0].id}` is where the heroes enter",
                fixes=_unmark(facts, extra),
            )
        )
    return out


def _unmark(facts, area) -> tuple:
    """The fix taking `start` off an area (unsafe: which area the writer meant to start in is a guess)."""
    text = facts.text
    if text is None:
        return ()
    after = (area.node.name or area.node.id).span.end
    brace = text.text.find("{", after)
    found = re.compile(r"\bstart\b").search(text.text, after, brace if brace >= 0 else len(text.text))
    if found is None:
        return ()
    return fix(f"remove `start` from area `{area.id}`", text.delete_word(text.span(*found.span())))


RULE = Rule(
    Q209,
    find,
    examples=(
        Example(  # second edition: two start areas
            failing=second_examples.two("", "  start at 5,1 6,1\n", east_start=True), fixed=second_examples.two()
        ),
    ),
)
