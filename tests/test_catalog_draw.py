"""Text drawings of piece types and the `questc catalog` listings."""

from __future__ import annotations

import json

import pytest

from questc.catalog import load_catalog
from questc.catalog.draw import SECTIONS, catalog_listing, draw_piece

CATALOG, _ = load_catalog()


def test_draw_room_4x4():
    assert draw_piece(CATALOG.pieces["room_4x4"]) == "\n".join(
        [
            "room_4x4: room, base, 4x4",
            "    ^ ^",
            "  o o o o",
            "< o o o o >",
            "< o o o o >",
            "  o o o o",
            "    v v",
            "openings: north 1,0-2,0; east 3,1-3,2; south 1,3-2,3; west 0,1-0,2",
        ]
    )


def test_draw_intersection_marks_ends_and_missing_cells():
    assert draw_piece(CATALOG.pieces["intersection_t"]) == "\n".join(
        [
            "intersection_t: intersection, base, 6x4",
            "⇐ o o o o o o ⇒",
            "⇐ o o o o o o ⇒",
            "  . . o o . .",
            "  . . o o . .",
            "      ⇓ ⇓",
            "openings: west 0,0-0,1 (end); east 5,0-5,1 (end); south 2,3-3,3 (end)",
        ]
    )


def test_draw_turned_piece():
    text = draw_piece(CATALOG.pieces["corridor_2x4"], turn=90)
    assert text.splitlines()[0] == "corridor_2x4: corridor, base, 2x4, turn 90"
    assert text.splitlines()[1:7] == ["⇑ ⇑", "o o", "o o", "o o", "o o", "⇓ ⇓"]


@pytest.mark.parametrize("what", SECTIONS)
def test_json_listing_lists_every_entry_with_its_set(what):
    data = json.loads(catalog_listing(CATALOG, what, as_json=True))
    rows = data[what]
    assert all("set" in row and row["set"] in CATALOG.sets for row in rows)
    names = {row["name"] for row in rows}
    expected = {
        "pieces": set(CATALOG.pieces),
        "monsters": set(CATALOG.monsters),
        "cards": set(CATALOG.cards),
        "props": set(CATALOG.markers)
        | set(CATALOG.treasures)
        | set(CATALOG.obstacles)
        | set(CATALOG.dark_glyphs)
        | set(CATALOG.chest_cards),
    }[what]
    assert names == expected


def test_text_listings_show_names_and_sets():
    text = catalog_listing(CATALOG, "monsters", as_json=False)
    kobold = next(line for line in text.splitlines() if line.startswith("kobold"))
    assert "well_of_darkness" in kobold and "12 (rulebook)" in kobold
    cards = catalog_listing(CATALOG, "cards", as_json=False)
    assert any(line.startswith("Rolling Stone") and "treachery 3 trap (purple)" in line for line in cards.splitlines())
    props = catalog_listing(CATALOG, "props", as_json=False)
    assert any("staircase" in line and "well_of_darkness 2 (rulebook)" in line for line in props.splitlines())
    pieces = catalog_listing(CATALOG, "pieces", as_json=False)
    assert all(f"{name}:" in pieces for name in CATALOG.pieces)


def test_whole_listing_and_determinism():
    text = catalog_listing(CATALOG)
    assert all(f"== {section} ==" in text for section in SECTIONS)
    assert catalog_listing(CATALOG, None, True) == catalog_listing(load_catalog()[0], None, True)


def test_unknown_section():
    with pytest.raises(ValueError):
        catalog_listing(CATALOG, "heroes")
