"""Descent: Journeys in the Dark, first edition (2005) and its expansions: glyphs, conquest, treachery."""

from __future__ import annotations

from questc.editions import Edition

EDITION = Edition(
    name="first",
    title="First",
    default_sets=("base",),
    sight="first",  # a straight line from centre to centre
    reveal="sight",  # an area is revealed when a hero sees into it
    start="glyph",  # on or next to the start area's active glyph
    rules=frozenset({"conquest", "treachery", "rune doors", "stairs", "corridors", "chests", "encounters"}),
    conditions=("killed", "revealed", "triggered", "opened", "conquest", "round"),
)
