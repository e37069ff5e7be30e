"""Q409 dark-glyphs-without-glyphs: the code's descriptor and the check that finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.components.counting import MAX_LABELS
from questc.rules.components.examples import AOD, quest
from questc.rules.context import CheckContext
from questc.words import plural, verb

if TYPE_CHECKING:
    from questc.model.plan import DeckPlan
    from questc.model.quest import QuestModel

Q409 = Descriptor(
    code="Q409",
    name="dark-glyphs-without-glyphs",
    severity=Severity.ERROR,
    template="the deck plan lays {planned}, but {inactive} of the quest's glyphs {start} inactive",
    label_template="no glyph left to hide this dark glyph",
    help_template="dark glyphs are mixed in with the glyph markers, and a glyph active at the start may not be "
    "dark: add {more} (`glyph at X,Y`, without `active`), or take {extra} out of the plan",
    summary="A deck plan with more dark glyphs than the quest has glyphs that start inactive.",
    explanation="""
Altar of Despair's dark glyphs are mixed in with the glyph markers: the overlord lays
each one face down in place of a glyph of transport, and the heroes learn which it is
when they step on it. A glyph the quest marks `active` starts face up and may not be
dark, so every dark glyph in the plan (the quest's `overlord { }` block, or a YAML
plan checked with `questc deck`) needs a glyph of its own that starts inactive.

The diagnostic points at the first dark glyph that has no glyph left to hide it; the
glyphs active at the start are labelled.
""",
    example=Example(
        failing=quest(AOD, tail="overlord {\n  dark_glyph summoning\n}\n"),
        fixed=quest(AOD, "  glyph at 3,0\n", tail="overlord {\n  dark_glyph summoning\n}\n"),
    ),
    fields=("planned", "inactive", "start", "more", "extra"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q409 in the quest's own `overlord { }` plan."""
    pricing = context.plan
    return dark_glyph_room(pricing.plan, context.model) if pricing is not None else []


def dark_glyph_room(plan: DeckPlan, model: QuestModel) -> list[Diagnostic]:
    """Q409: a plan (the quest's or a YAML one) with more dark glyphs than glyphs that start inactive.

    Dark glyphs are laid in place of glyph markers, and a glyph active at the start may
    not be dark. Only dark glyphs the catalog knows count (an unknown one is Q101).
    """
    glyphs = [item for item in plan.items if item.kind == "dark_glyph" and item.name in model.catalog.dark_glyphs]
    markers = [m for m in model.markers if m.kind == "glyph"]
    inactive = sum(1 for m in markers if not m.active)
    if len(glyphs) <= inactive:
        return []
    extra = len(glyphs) - inactive
    labels = [Label(item.span, "another dark glyph with no glyph to hide it") for item in glyphs[inactive + 1 :]]
    labels += [Label(m.span, "active at the start: may not be dark") for m in markers if m.active]
    return [
        Q409.at(
            glyphs[inactive].span,
            labels=labels[:MAX_LABELS],
            planned=plural(len(glyphs), "dark glyph"),
            inactive="none" if inactive == 0 else f"only {inactive}",
            start=verb(inactive, "starts", "start"),
            more=("a glyph" if extra == 1 else plural(extra, "glyph"))
            + f" that {verb(extra, 'starts', 'start')} inactive",
            extra="a dark glyph" if extra == 1 else plural(extra, "dark glyph"),
        )
    ]


RULE = Rule(Q409, find, needs={"treachery"})
