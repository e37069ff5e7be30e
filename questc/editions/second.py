"""Descent: Journeys in the Dark, second edition (2012): tiles, tokens, lieutenants, monster groups, quests of
encounters."""

from __future__ import annotations

from questc.editions import Edition

EDITION = Edition(
    name="second",
    title="Second",
    default_sets=("second_edition",),
    sight="second",  # any corner of one space to any corner of the other
    reveal="all",  # the whole map is set up at the start
    start="entrance",  # the entrance's spaces, or `start at`
    rules=frozenset(
        {"lieutenants", "start at", "objectives", "exit", "tokens", "tiles", "groups", "carrying", "roles", "acts"}
    ),
    header_fields=frozenset({"encounter", "part_of", "act", "traits"}),
    conditions=(
        "round",
        "objectives",
        "exited",
        "killed",
        "revealed",
        "triggered",
        "opened",
        "defeated",
        "carried",
        "on",
        "in",
    ),
    exports=("json", "png", "pdf", "play", "valkyrie"),  # Valkyrie plays second edition quests
    # The Quest Guide's order: the read-aloud introduction, the monsters, the setup, the special
    # rules (the quest's events and rules of each round among them, each under its heading), the
    # reinforcements, the victory, the map; then what questc adds: each area's words.
    map_pieces=True,  # a second edition map is built from numbered tiles: each drawn with its code
    sheet=("introduction", "monsters", "setup", "special", "reinforcements", "victory", "map", "areas", "named"),
)
