"""Catalog lookups: did-you-mean suggestions, Q101 for unknown names and Q104 for unlisted sets."""

from __future__ import annotations

import pytest

from questc.catalog import load_catalog
from questc.catalog.lookup import KIND_WORDS, closest, normalise
from questc.diagnostics import Severity, Span

CATALOG, _ = load_catalog()
SPAN = Span("q.quest", 7, 11, 7, 19, 120, 128)


@pytest.mark.parametrize(
    "kind, typo, known",
    [
        ("monster", "beastmen", "beastman"),
        ("monster", "hell hound", "hell_hound"),
        ("monster", "Dragon", "dragon"),
        ("monster", "skeletons", "skeleton"),
        ("piece", "rooom_4x4", "room_4x4"),
        ("piece", "corridor2x4", "corridor_2x4"),
        ("obstacle", "rubbel", "rubble"),
        ("trap", "dart-field", "dart_field"),
        ("treasure", "vitallity", "vitality"),
        ("card", "rolling stone", "Rolling Stone"),
        ("card", "Kobold Swarms", "Kobold Swarm"),
        ("colour", "yelow", "yellow"),
        ("set", "well_of_darknes", "well_of_darkness"),
        ("dark_glyph", "summon", "summoning"),
    ],
)
def test_suggestions(kind, typo, known):
    assert CATALOG.lookup(kind, typo) is None
    assert CATALOG.suggest(kind, typo) == known


def test_no_suggestion_for_a_far_name_or_a_known_one():
    assert CATALOG.suggest("monster", "zeppelin") is None
    assert CATALOG.suggest("monster", "beastman") is None
    assert closest("x", []) is None
    assert normalise(" Hell-Hound ") == "hell_hound"


def test_lookup_of_every_kind():
    assert CATALOG.lookup("piece", "room_4x4").kind == "room"
    assert CATALOG.lookup("monster", "golem").set == "well_of_darkness"
    assert CATALOG.lookup("treasure", "power").set == "well_of_darkness"
    assert CATALOG.lookup("marker", "runekey").count.source == "estimate"
    assert CATALOG.lookup("card", "Danger").treachery_cost == 1
    assert CATALOG.lookup("colour", "red") == "red" and CATALOG.lookup("colour", "green") is None
    assert CATALOG.lookup("set", "tomb_of_ice").title == "The Tomb of Ice"
    assert CATALOG.lookup("dark_glyph", "sundered").colour == "green"
    with pytest.raises(ValueError):
        CATALOG.lookup("hero", "Sir Valadir")
    assert set(KIND_WORDS) >= {
        "piece",
        "monster",
        "obstacle",
        "trap",
        "treasure",
        "card",
        "colour",
        "set",
        "dark_glyph",
    }


def test_unknown_gives_q101_with_did_you_mean():
    diagnostic = CATALOG.unknown("monster", "beastmen", SPAN)
    assert diagnostic.code == "Q101" and diagnostic.severity is Severity.ERROR
    assert diagnostic.message == "unknown monster `beastmen`"
    assert diagnostic.help == "did you mean `beastman`?"
    assert diagnostic.span == SPAN


def test_unknown_piece_type_names_its_kind_in_words():
    diagnostic = CATALOG.unknown("piece", "room_5x5", SPAN)
    assert diagnostic.message == "unknown piece type `room_5x5`"
    assert diagnostic.help.startswith("did you mean `room_")


def test_unknown_obstacle_that_is_a_trap_says_so():
    assert CATALOG.unknown("obstacle", "boulder", SPAN).help == "`boulder` is a trap: write `trap boulder`"
    assert CATALOG.unknown("trap", "rubble", SPAN).help == "`rubble` is an obstacle: write `obstacle rubble`"


def test_unknown_without_a_close_name_lists_short_kinds_or_points_to_the_listing():
    assert CATALOG.unknown("colour", "green", SPAN).help == "known rune colours: `red`, `yellow`, `blue`"
    assert CATALOG.unknown("monster", "zeppelin", SPAN).help == "`questc catalog monsters` lists the known monsters"


def test_set_check():
    kobold = CATALOG.monsters["kobold"]
    diagnostic = CATALOG.set_check("monster", "kobold", kobold.set, ["base"], SPAN)
    assert diagnostic.code == "Q104"
    assert diagnostic.message == (
        "monster `kobold` comes from the `well_of_darkness` set, which the quest's `expansions` does not list"
    )
    assert diagnostic.help == "add `well_of_darkness` to `expansions` in the quest header"
    assert CATALOG.set_check("monster", "kobold", kobold.set, ["base", "well_of_darkness"], SPAN) is None
    assert CATALOG.set_check("monster", "beastman", "base", ["base"], SPAN) is None


def test_set_check_defaults():
    # Without expansions: the catalog's own, else `base` alone (the header's default).
    assert CATALOG.set_check("obstacle", "fog", "altar_of_despair", None, SPAN).code == "Q104"
    assert CATALOG.set_check("obstacle", "pit", "base", None, SPAN) is None
    owned, _ = load_catalog(expansions=["base", "altar_of_despair"])
    assert owned.set_check("obstacle", "fog", "altar_of_despair", None, SPAN) is None
    assert owned.set_check("obstacle", "ice", "tomb_of_ice", None, SPAN).code == "Q104"


# --- chest contents from a set -------------------------------------------------------

FEAT_QUEST = """\
quest "T" {
  conquest 3
}
piece R1 room_4x4 at 0,0
area A "Hall" start { pieces R1; glyph at 0,0 active; chest copper at 2,2 }
chests {
  copper 1: coins 50, feat 2
}
victory heroes when revealed A
"""


def test_feat_in_a_chest_needs_tomb_of_ice_like_a_power_potion_needs_its_set():
    from helpers import assert_codes, span_text

    result = assert_codes(FEAT_QUEST, "Q104")
    (d,) = result.diagnostics
    assert span_text(result.source, d.span) == "feat"
    assert d.message == (
        "chest card `feat` comes from the `tomb_of_ice` set, which the quest's `expansions` does not list"
    )
    assert d.help == "add `tomb_of_ice` to `expansions` in the quest header"
    # The same rule as a potion from another set.
    assert_codes(FEAT_QUEST.replace("feat 2", "potion power"), "Q104")
    # Fixed: the set listed. Near misses: the base game's cards need no set.
    assert_codes(FEAT_QUEST.replace("  conquest 3\n", "  conquest 3\n  expansions base, tomb_of_ice\n"))
    assert_codes(FEAT_QUEST.replace("feat 2", "curse 2, copper"))
    # A misspelt card is still an unknown chest content.
    assert_codes(FEAT_QUEST.replace("feat 2", "feats 2"), "Q101")
