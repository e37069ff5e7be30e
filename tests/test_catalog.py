"""The built-in catalog: it validates against its schema and holds the facts of docs CATALOG.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from questc.catalog import (
    CardType,
    Catalog,
    Count,
    MonsterType,
    ObstacleKind,
    Opening,
    PieceType,
    load_catalog,
)
from questc.catalog.load import builtin_files, read_yaml, schema

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    catalog, diagnostics = load_catalog()
    assert diagnostics == []
    return catalog


# --- the files and the schema ------------------------------------------------------


def test_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_builtin_files_are_the_five_sets_base_first():
    names = [p.name for p in builtin_files()]
    assert names[0] == "base.yaml"
    assert set(names) == {
        "base.yaml",
        "well_of_darkness.yaml",
        "altar_of_despair.yaml",
        "tomb_of_ice.yaml",
        "second_edition.yaml",
    }


@pytest.mark.parametrize("path", sorted((REPO / "cards").glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_catalog_file_validates_against_the_schema(path):
    document = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    errors = [
        f"{list(e.absolute_path)}: {e.message}" for e in jsonschema.Draft202012Validator(schema()).iter_errors(document)
    ]
    assert errors == []


def test_schema_rejects_unknown_keys_and_bad_values():
    validator = jsonschema.Draft202012Validator(schema())
    assert not validator.is_valid({"monsters": {"wraith": {"footprint": [1, 1], "colour": "grey"}}})
    assert not validator.is_valid({"pieces": {"x": {"kind": "hall", "shape": ["o"], "openings": []}}})
    assert not validator.is_valid({"pieces": {"x": {"kind": "room", "shape": ["o x"], "openings": []}}})
    assert not validator.is_valid({"pieces": {"x": {"kind": "tile", "shape": ["o"], "openings": [], "tile": "1C"}}})
    assert not validator.is_valid({"terrain": {"x": {"mark": "o", "blocks_movement": True, "blocks_sight": True}}})
    assert not validator.is_valid({"sets": {"s": {"edition": "third"}}})
    assert not validator.is_valid({"cards": {"X": {"treachery": {"colour": "blue", "cost": 1}}}})
    assert not validator.is_valid({"obstacles": {"x": {"blocks_movement": True}}})
    assert not validator.is_valid({"monsters": {"bad name": {"footprint": [1, 1]}}})
    assert not validator.is_valid(
        {"sets": {"s": {"inventory": {"pieces": {"hallway": {"count": 1, "source": "rulebook"}}}}}}
    )
    assert not validator.is_valid({"sets": {"s": {"totals": {"map_pieces": {"count": 1, "source": "guess"}}}}})
    assert validator.is_valid({"set": "s", "cards": {"Rolling Stone": {"treachery": None}}})


def test_loading_the_catalog_stays_light():
    # No CLI and no jsonschema at start-up: only packs are validated at run time.
    code = (
        "import sys\nfrom questc.catalog import load_catalog\nload_catalog()\n"
        "print(sorted(m for m in ('click', 'jsonschema') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": ""},
        check=True,
    )
    assert out.stdout.strip() == "[]"


def test_no_pack_catalog_is_cached_and_read_only(catalog):
    again, _ = load_catalog()
    assert again is catalog
    with pytest.raises(TypeError):
        catalog.monsters["wraith"] = catalog.monsters["beastman"]  # type: ignore[index]
    with_sets, _ = load_catalog(expansions=["base", "well_of_darkness"])
    assert with_sets.expansions == ("base", "well_of_darkness")
    assert with_sets.monsters is catalog.monsters
    assert catalog.expansions is None


def test_duplicate_yaml_keys_are_refused(tmp_path):
    path = tmp_path / "twice.yaml"
    path.write_text("monsters:\n  a: {footprint: [1, 1]}\n  a: {footprint: [2, 2]}\n", encoding="utf-8")
    with pytest.raises(Exception, match="appears twice"):
        read_yaml(path)


# --- map pieces ----------------------------------------------------------------------

# docs CATALOG.md's table: shape rows and openings (side, cells, end), unturned.
PIECES = {
    "room_4x4": (
        "room",
        ["oooo"] * 4,
        [
            ("north", (1, 0), (2, 0), False),
            ("east", (3, 1), (3, 2), False),
            ("south", (1, 3), (2, 3), False),
            ("west", (0, 1), (0, 2), False),
        ],
    ),
    "room_4x6": (
        "room",
        ["oooo"] * 6,
        [
            ("north", (1, 0), (2, 0), False),
            ("east", (3, 2), (3, 3), False),
            ("south", (1, 5), (2, 5), False),
            ("west", (0, 2), (0, 3), False),
        ],
    ),
    "room_6x6": (
        "room",
        ["oooooo"] * 6,
        [
            ("north", (2, 0), (3, 0), False),
            ("east", (5, 2), (5, 3), False),
            ("south", (2, 5), (3, 5), False),
            ("west", (0, 2), (0, 3), False),
        ],
    ),
    "room_6x8": (
        "room",
        ["oooooo"] * 8,
        [
            ("north", (2, 0), (3, 0), False),
            ("east", (5, 3), (5, 4), False),
            ("south", (2, 7), (3, 7), False),
            ("west", (0, 3), (0, 4), False),
        ],
    ),
    "room_8x8": (
        "room",
        ["o" * 8] * 8,
        [
            ("north", (3, 0), (4, 0), False),
            ("east", (7, 3), (7, 4), False),
            ("south", (3, 7), (4, 7), False),
            ("west", (0, 3), (0, 4), False),
        ],
    ),
    "corridor_2x1": ("corridor", ["o"] * 2, [("west", (0, 0), (0, 1), True), ("east", (0, 0), (0, 1), True)]),
    "corridor_2x2": ("corridor", ["oo"] * 2, [("west", (0, 0), (0, 1), True), ("east", (1, 0), (1, 1), True)]),
    "corridor_2x4": ("corridor", ["oooo"] * 2, [("west", (0, 0), (0, 1), True), ("east", (3, 0), (3, 1), True)]),
    "corridor_2x6": ("corridor", ["oooooo"] * 2, [("west", (0, 0), (0, 1), True), ("east", (5, 0), (5, 1), True)]),
    "intersection_l": (
        "intersection",
        ["oooo", "oooo", "oo..", "oo.."],
        [("east", (3, 0), (3, 1), True), ("south", (0, 3), (1, 3), True)],
    ),
    "intersection_t": (
        "intersection",
        ["oooooo", "oooooo", "..oo..", "..oo.."],
        [("west", (0, 0), (0, 1), True), ("east", (5, 0), (5, 1), True), ("south", (2, 3), (3, 3), True)],
    ),
    "intersection_x": (
        "intersection",
        ["..oo..", "..oo..", "oooooo", "oooooo", "..oo..", "..oo.."],
        [
            ("north", (2, 0), (3, 0), True),
            ("east", (5, 2), (5, 3), True),
            ("south", (2, 5), (3, 5), True),
            ("west", (0, 2), (0, 3), True),
        ],
    ),
    "dead_end": ("dead_end", ["o", "o"], [("west", (0, 0), (0, 1), False)]),
}


def test_piece_types_are_exactly_the_table(catalog):
    assert {n for n, p in catalog.pieces.items() if p.set != "second_edition"} == set(PIECES)
    for name, (kind, rows, openings) in PIECES.items():
        piece = catalog.pieces[name]
        assert isinstance(piece, PieceType)
        assert (piece.kind, piece.set) == (kind, "base"), name
        assert list(piece.shape) == rows, name
        assert (piece.width, piece.height) == (len(rows[0]), len(rows)), name
        assert piece.openings == tuple(Opening(side, (a, b), end) for side, a, b, end in openings), name


def test_piece_inventory_by_kind(catalog):
    base, wod = catalog.sets["base"], catalog.sets["well_of_darkness"]
    assert {k: c.count for k, c in base.pieces.items()} == {
        "room": 10,
        "corridor": 25,
        "intersection": 6,
        "dead_end": 20,
    }
    assert {k: c.count for k, c in wod.pieces.items()} == {"room": 1, "corridor": 3, "intersection": 4, "dead_end": 2}
    assert all(c.source == "rulebook" for c in [*base.pieces.values(), *wod.pieces.values()])
    assert sum(c.count for c in base.pieces.values()) == base.totals["map_pieces"].count == 61
    assert sum(c.count for c in wod.pieces.values()) == wod.totals["map_pieces"].count == 10
    assert catalog.pieces_owned("room", ["base"]) == Count(10, "rulebook")
    assert catalog.pieces_owned("room", ["base", "well_of_darkness"]) == Count(11, "rulebook")
    assert catalog.pieces_owned("dead_end", ["base", "well_of_darkness", "tomb_of_ice"]) == Count(22, "rulebook")
    # Altar of Despair has pieces of kinds the books do not give: the total is a lower bound.
    assert catalog.pieces_owned("corridor", ["base", "altar_of_despair"]) == Count(25, "estimate")


# --- monsters ------------------------------------------------------------------------

FOOTPRINTS = {
    "beastman": (1, 1),
    "razorwing": (1, 1),
    "skeleton": (1, 1),
    "sorcerer": (1, 1),
    "hell_hound": (1, 2),
    "ogre": (2, 2),
    "giant": (2, 2),
    "bane_spider": (2, 2),
    "manticore": (2, 2),
    "naga": (2, 2),
    "demon": (2, 2),
    "dragon": (2, 3),
    "kobold": (1, 1),
    "ferrox": (1, 1),
    "golem": (2, 2),
}


def test_monster_types_and_footprints(catalog):
    assert {n: m.footprint for n, m in catalog.monsters.items() if m.set != "second_edition"} == FOOTPRINTS
    assert all(isinstance(m, MonsterType) for m in catalog.monsters.values())
    assert {n for n, m in catalog.monsters.items() if m.set == "well_of_darkness"} == {"kobold", "ferrox", "golem"}
    assert not catalog.monsters["skeleton"].large and catalog.monsters["hell_hound"].large


def test_base_estimates_add_up_to_39_normal_and_21_master(catalog):
    base = [m for m in catalog.monsters.values() if m.set == "base"]
    assert len(base) == 12
    assert all(m.normal.source == m.master.source == "estimate" for m in base)
    assert sum(m.normal.count for m in base) == 39 == catalog.sets["base"].totals["monster_figures_normal"].count
    assert sum(m.master.count for m in base) == 21 == catalog.sets["base"].totals["monster_figures_master"].count
    assert all(m.normal.count >= 1 and m.master.count >= 1 for m in base)


def test_well_of_darkness_figures_are_the_rulebook_counts(catalog):
    counts = {n: (m.normal, m.master) for n, m in catalog.monsters.items() if m.set == "well_of_darkness"}
    assert counts == {
        "kobold": (Count(12, "rulebook"), Count(6, "rulebook")),
        "ferrox": (Count(4, "rulebook"), Count(2, "rulebook")),
        "golem": (Count(2, "rulebook"), Count(1, "rulebook")),
    }
    totals = catalog.sets["well_of_darkness"].totals
    assert (totals["monster_figures_normal"].count, totals["monster_figures_master"].count) == (18, 9)


def test_figures_owned(catalog):
    assert catalog.figures_owned("kobold", "normal", ["base"]) == Count(0, "rulebook")
    assert catalog.figures_owned("kobold", "master", ["base", "well_of_darkness"]) == Count(6, "rulebook")
    assert catalog.figures_owned("kobold", "named", ["base", "well_of_darkness"]) == Count(6, "rulebook")
    assert catalog.figures_owned("beastman", "normal", ["base"]).source == "estimate"
    with pytest.raises(ValueError):
        catalog.figures_owned("beastman", "name", ["base"])


# --- markers, treasures, obstacles ----------------------------------------------------


def test_marker_counts(catalog):
    expected = {
        "door": {"base": Count(7, "rulebook")},
        "rune_door": {"base": Count(3, "rulebook")},
        "glyph": {"base": Count(10, "rulebook")},
        "encounter": {"base": Count(10, "rulebook")},
        "staircase": {"base": Count(6, "rulebook"), "well_of_darkness": Count(2, "rulebook")},
        "chest": {"base": Count(8, "rulebook")},
        "relic": {"base": Count(4, "rulebook"), "well_of_darkness": Count(6, "rulebook")},
        "runekey": {"base": Count(3, "estimate")},
    }
    first = {
        n: {s: c for s, c in m.counts.items() if s != "second_edition"}
        for n, m in catalog.markers.items()
        if m.set == "base"
    }
    assert first == expected
    assert all(m.count == m.counts[m.set] for m in catalog.markers.values())
    assert catalog.markers["rune_door"].variants == ("red", "yellow", "blue")
    assert catalog.markers["chest"].variants == ("copper", "silver", "gold")
    assert catalog.markers_owned("staircase", ["base", "well_of_darkness"]) == Count(8, "rulebook")
    assert catalog.markers_owned("relic", ["base"]) == Count(4, "rulebook")
    assert catalog.markers_owned("runekey", ["base", "well_of_darkness"]) == Count(3, "estimate")


def test_treasure_kinds_and_counts(catalog):
    assert set(catalog.treasures) == {"healing", "vitality", "power", "money"}
    expected = {
        "healing": {"base": Count(9, "rulebook")},
        "vitality": {"base": Count(9, "rulebook")},
        "money": {"base": Count(9, "rulebook"), "well_of_darkness": Count(11, "rulebook")},
        "power": {"well_of_darkness": Count(9, "rulebook")},
    }
    assert {n: dict(t.counts) for n, t in catalog.treasures.items()} == expected
    assert catalog.treasures["power"].set == "well_of_darkness"
    assert catalog.treasures["power"].potion and not catalog.treasures["money"].potion
    assert catalog.treasures_owned("power", ["base"]) == Count(0, "rulebook")
    assert catalog.treasures_owned("money", ["base", "well_of_darkness"]) == Count(20, "rulebook")


# (set, trap, blocks movement, blocks sight, sight rule, wall-like, facing)
OBSTACLES = {
    "pit": ("base", False, False, False, "pit", False, False),
    "rubble": ("base", False, True, True, None, False, False),
    "water": ("base", False, True, False, None, False, False),
    "lava": ("well_of_darkness", False, False, False, None, False, False),
    "mud": ("well_of_darkness", False, False, False, None, False, False),
    "dart_field": ("well_of_darkness", True, False, False, None, False, False),
    "scything_blades": ("well_of_darkness", True, False, False, None, False, False),
    "boulder": ("well_of_darkness", True, True, True, None, True, True),
    "boulder_ramp": ("well_of_darkness", True, False, False, None, False, True),
    "fog": ("altar_of_despair", False, False, True, "fog", False, False),
    "corrupted": ("altar_of_despair", False, False, False, None, False, False),
    "altar_good": ("altar_of_despair", False, False, False, None, False, False),
    "altar_evil": ("altar_of_despair", False, False, False, None, False, False),
    "crushing_wall": ("altar_of_despair", True, True, True, None, True, True),
    "ice": ("tomb_of_ice", False, False, False, None, False, False),
}


def test_obstacles_and_traps(catalog):
    got = {
        n: (o.set, o.trap, o.blocks_movement, o.blocks_sight, o.sight_rule, o.wall_like, o.facing)
        for n, o in catalog.obstacles.items()
    }
    assert got == OBSTACLES
    assert all(isinstance(o, ObstacleKind) for o in catalog.obstacles.values())
    assert catalog.obstacles["mud"].movement_cost == 2
    assert catalog.lookup("trap", "boulder") is catalog.obstacles["boulder"]
    assert catalog.lookup("obstacle", "boulder") is None
    assert catalog.lookup("obstacle", "rubble") is catalog.obstacles["rubble"]


def test_rune_colours(catalog):
    assert catalog.rune_colours == ("red", "yellow", "blue")


# --- overlord cards and dark glyphs ---------------------------------------------------


def test_treachery_cards_carry_only_the_stated_costs(catalog):
    for name, colour, cost, kind in (
        ("Rolling Stone", "purple", 3, "trap"),
        ("Danger", "green", 1, "event"),
        ("Empower", "green", 1, "event"),
    ):
        card = catalog.cards[name]
        assert isinstance(card, CardType)
        assert (card.set, card.treachery_colour, card.treachery_cost, card.treachery_kind) == (
            "well_of_darkness",
            colour,
            cost,
            kind,
        )
        assert not card.base_deck
        # Nothing the books do not print is filled in.
        assert (card.type, card.threat_cost, card.discard_value, card.copies) == (None, None, None, Count())


def test_base_deck_cards(catalog):
    base = {
        "Aim",
        "Gust of Wind",
        "Hordes of the Things",
        "Explosive Rune",
        "Dark Charm",
        "Dodge",
        "Curse of the Monkey God",
        "Beastman War Party",
        "Bane Spider Swarm",
    }
    assert {n for n, c in catalog.cards.items() if c.set == "base"} == base
    assert all(catalog.cards[n].base_deck and catalog.cards[n].treachery_cost is None for n in base)
    assert catalog.cards["Curse of the Monkey God"].type == "trap"
    assert catalog.cards["Beastman War Party"].type == "spawn"
    assert catalog.cards["Kobold Swarm"].copies == Count(2, "rulebook")
    assert catalog.cards["Ferrox Tribe"].copies == Count(1, "rulebook")
    assert catalog.cards["Kobold Swarm"].base_deck and catalog.cards["Ferrox Tribe"].set == "well_of_darkness"
    assert all(c.threat_cost is None and c.discard_value is None for c in catalog.cards.values())
    assert catalog.copies_owned("Kobold Swarm", ["base"]) == Count(0, "rulebook")
    assert catalog.copies_owned("Kobold Swarm", ["base", "well_of_darkness"]) == Count(2, "rulebook")


def test_dark_glyphs(catalog):
    got = {n: (g.set, g.colour, g.treachery_kind, g.cost) for n, g in catalog.dark_glyphs.items()}
    assert got == {
        "summoning": ("altar_of_despair", "red", "monster", 2),
        "sundered": ("altar_of_despair", "green", "event", 2),
        "power": ("altar_of_despair", "purple", "trap", 2),
    }


def test_chest_cards_tie_feat_to_tomb_of_ice(catalog):
    assert {n: c.set for n, c in catalog.chest_cards.items()} == {"feat": "tomb_of_ice"}
    assert catalog.lookup("chest_card", "feat") is catalog.chest_cards["feat"]
    assert catalog.lookup("chest_card", "copper") is None  # the base game's cards are not listed


def test_sets(catalog):
    assert set(catalog.sets) == {"base", "well_of_darkness", "altar_of_despair", "tomb_of_ice", "second_edition"}
    assert {n for n, s in catalog.sets.items() if s.edition == "second"} == {"second_edition"}
    assert all(s.pack is None for s in catalog.sets.values())
    every_entry = [
        *catalog.pieces.values(),
        *catalog.monsters.values(),
        *catalog.obstacles.values(),
        *catalog.markers.values(),
        *catalog.treasures.values(),
        *catalog.cards.values(),
        *catalog.dark_glyphs.values(),
        *catalog.chest_cards.values(),
        *catalog.terrain.values(),
    ]
    assert {e.set for e in every_entry} <= set(catalog.sets)


# --- counts --------------------------------------------------------------------------


def test_count_total():
    assert Count.total([]) == Count(0, "rulebook")
    assert Count.total([Count(6, "rulebook"), Count(2, "rulebook")]) == Count(8, "rulebook")
    assert Count.total([Count(6, "rulebook"), Count(2, "estimate")]) == Count(8, "estimate")
    assert Count.total([Count(6, "rulebook"), Count()]) == Count(6, "estimate")
    assert Count.total([Count(), Count()]) == Count(None, None)
    assert str(Count(3, "estimate")) == "3 (estimate)" and str(Count()) == "unknown"


def test_json_round_trip_of_the_listing_is_possible(catalog):
    # The catalog's values are plain enough for the CLI's --json.
    from questc.catalog.draw import catalog_listing

    data = json.loads(catalog_listing(catalog, None, as_json=True))
    assert set(data) == {"pieces", "monsters", "props", "cards"}
