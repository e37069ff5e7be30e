"""The map drawing (questc.draw): one display list, rendered as SVG and as PNG; labels at least 6 pt,
one text size per token size, never over a wall, a door, a symbol or another label; the preview's
geometry and data attributes; the same bytes every time."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import compile_file

from questc.draw import draw_map, map_png, map_svg
from questc.draw.labels import intersects
from questc.draw.page import map_page
from questc.draw.symbols import MIN_TEXT

ROOT = Path(__file__).resolve().parent.parent
QUESTS = sorted((ROOT / "quests").glob("*.quest"))
SHEETS = Path(__file__).resolve().parent / "fixtures" / "sheets"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def results():
    out = {}
    for path in QUESTS + [SHEETS / "everything.quest", SHEETS / "drowned_reliquary.quest"]:
        out[path.stem] = compile_file(path)
    return out


def drawings(results):
    """Every quest drawn at its printed scale on A4 and on Letter, and at a small and a large scale."""
    for name, result in results.items():
        for paper in ("a4", "letter"):
            yield f"{name}@{paper}", map_page(result, paper).map
        for cell in (12.0, 72.0):
            yield f"{name}@{cell}", draw_map(result, cell)


@pytest.mark.slow
def test_no_label_covers_a_wall_a_door_a_symbol_or_another_label(results):
    for name, md in drawings(results):
        placed = [label for label in md.labels if label.how != "on"]
        for label in placed:
            for wall in md.walls:
                assert not intersects(label.box, wall), (name, label, wall)
            # another thing's door or symbol: never (a key number may stand on its own thing
            # when there is no room at all beside it)
            for door, owner in md.doors:
                assert owner == label.owner or not intersects(label.box, door), (name, label, door)
            for box, owner in md.symbols:
                assert owner == label.owner or not intersects(label.box, box), (name, label, box)
        for i, a in enumerate(placed):
            for b in placed[i + 1 :]:
                assert not intersects(a.box, b.box), (name, a, b)


@pytest.mark.slow
def test_words_on_a_token_stay_inside_its_squares_and_off_the_walls(results):
    for name, md in drawings(results):
        for label in md.labels:
            if label.how == "on":
                for wall in md.walls:
                    assert not intersects(label.box, wall), (name, label, wall)


@pytest.mark.slow
def test_every_word_on_the_map_is_at_least_6_pt(results):
    from questc.draw.items import Text, walk

    for name, md in drawings(results):
        for layer in md.drawing.layers:
            for item in walk(layer.items):
                if isinstance(item, Text):
                    assert item.size >= MIN_TEXT - 1e-9, (name, item)


@pytest.mark.slow
def test_tokens_of_one_size_share_one_text_size(results):
    for name, md in drawings(results):
        sizes: dict = {}
        for label in md.labels:
            if label.how == "on" and label.owner.startswith("figure:") and not label.text[:1].isdigit():
                sizes.setdefault(label.owner, set()).add(label.size)
        by_size = {}
        for footprint, size in md.text_sizes.items():
            by_size[footprint] = size
        seen = {round(s, 3) for owner_sizes in sizes.values() for s in owner_sizes}
        assert seen <= {round(s, 3) for s in by_size.values()}, (name, seen, by_size)


@pytest.mark.slow
def test_a_player_count_badge_stands_inside_its_token(results):
    """A badge beside a token stood on a square's corner, unclear whose it was: a badge is on its
    token, or the token wears a dashed ring and the sheet's area list gives the count."""
    for name, md in drawings(results):
        tokens = {owner: box for box, owner in md.symbols if owner.startswith("figure:")}
        for label in md.labels:
            if label.how == "badge":
                x0, y0, x1, y1 = tokens[label.owner]
                assert x0 - 0.01 <= label.box[0] and label.box[2] <= x1 + 0.01, (name, label)
                assert y0 - 0.01 <= label.box[1] and label.box[3] <= y1 + 0.01, (name, label)
            else:
                assert not ("\u2013" in label.text and label.text.replace("\u2013", "").isdigit()), (name, label)


@pytest.mark.slow
def test_area_badges_are_bounded_and_never_cover_a_figure_or_a_token(results):
    for name, md in drawings(results):
        for label in md.labels:
            if not label.owner.startswith("area:") or label.how == "unplaced":
                continue
            assert label.box[2] - label.box[0] <= md.cell * 1.6 + 0.01, (name, label)
            for box, owner in md.symbols:
                if owner.startswith(("figure:", "marker:")):
                    assert not intersects(label.box, box), (name, label, owner)


CAPPED = """quest "Capped" {
  edition second
  players 2..5
}
piece In entrance at 0,0 turn 90
piece Road tile_22a at 2,0
piece Cap end_cap at 8,1 turn 90
area A "Road" start {
  pieces In, Road
}
area LongAreaName "The End" {
  pieces Cap
  monster goblin_archer at Cap:0,0 Cap:0,1
}
victory heroes when round > 3
"""


def test_an_end_caps_badge_stands_beside_its_archers():
    """A 2-space end cap full of goblin archers: its badge went over them; now it stands beside,
    joined by a leader line, and the name too long for a badge is a key number the legend names."""
    from helpers import compile_source

    result = compile_source(CAPPED, "capped.quest")
    for cell in (18.0, 30.0, 72.0):
        md = draw_map(result, cell)
        badge = next(label for label in md.labels if label.owner == "area:LongAreaName")
        assert badge.how == "leader", badge
        for box, owner in md.symbols:
            assert not intersects(badge.box, box), (cell, owner)
        if badge.text != "LongAreaName":
            assert any(entry.what == ("area", badge.text) and "LongAreaName" in entry.label for entry in md.legend)


@pytest.mark.slow
def test_a_second_edition_map_names_every_tile_on_it(results):
    """Each tile's outline is drawn and its printed code stands on it (or, with no room, a key
    number the legend names), so a group can build the map from its tiles."""
    for name, md in drawings(results):
        result = results[name.split("@")[0]]
        if not result.model.edition.map_pieces:
            continue
        svg = map_svg(result, cell=md.cell).decode("utf-8")
        for piece in result.model.pieces.values():
            assert f'data-piece="{piece.id}"' in svg, (name, piece.id)
            words = [label.text for label in md.labels if label.owner == f"piece:{piece.id}"]
            assert words, (name, piece.id)
            if piece.type.tile:
                shown = words[0]
                assert shown == piece.type.tile or any(
                    entry.what == ("key", shown) and piece.type.tile in entry.label for entry in md.legend
                ), (name, piece.id, shown)


def test_first_edition_sheet_maps_leave_the_pieces_out_unless_asked(results):
    result = results["three_seals"]
    assert "data-piece=" not in map_svg(result, cell=20).decode("utf-8")
    md = draw_map(result, 72.0, pieces=True)
    assert {label.text for label in md.labels if label.owner == "piece:R1"} == {"R1 room 6×6"}


def test_codes_and_keys_are_explained_in_the_legend(results):
    md = map_page(results["burning_well"], "a4").map
    legend = [entry.label for entry in md.legend]
    badges = {e.what[1] for e in md.legend if e.what[0] == "players"}
    numbers = [label for label in md.labels if label.text.isdigit() and label.text not in badges]
    assert numbers
    for label in numbers:
        assert any(e.what == ("key", label.text) for e in md.legend), label
    for label in md.labels:
        if label.owner.startswith("figure:") and len(label.text) == 2 and label.text[0].isupper():
            assert any(e.what == ("code", label.text) for e in md.legend), label
    # each player-count badge, and the dashed ring, is explained
    drawn = {label.text for label in md.labels if label.how == "badge"}
    assert {e.what[1] for e in md.legend if e.what[0] == "players"} == drawn
    rings = [e for e in md.legend if e.what[0] == "ring"]
    assert rings or drawn
    assert all("Only with" in label for label in legend if label.endswith(" players"))


def test_the_svg_is_well_formed_and_marks_cells_areas_and_doors(results):
    result = results["drowned_reliquary"]
    data = map_svg(result, cell=20)
    root = ET.fromstring(data)
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}title").text == result.model.title
    desc = root.find(f"{SVG}desc").text
    for area in result.model.areas.values():
        assert area.name in desc
    cells = {g.get("data-cell"): g.get("data-area") for g in root.iter(f"{SVG}g") if g.get("class") == "cell"}
    board = result.board
    assert set(cells) == {f"{x},{y}" for x, y in board.cells}
    for area in result.model.areas.values():
        for x, y in area.cells:
            if board.is_floor((x, y)):
                assert cells[f"{x},{y}"] in result.model.areas
    doors = {g.get("data-door") for g in root.iter(f"{SVG}g") if g.get("class") == "door"}
    assert doors == set(board.doors)
    badges = {g.get("data-area") for g in root.iter(f"{SVG}g") if g.get("class") == "area"}
    assert badges == set(result.model.areas)


def test_cell_geometry_matches_the_svg(results):
    result = results["drowned_reliquary"]
    md = draw_map(result, 20)
    root = ET.fromstring(map_svg(result, cell=20))
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "cell":
            x, y = (int(v) for v in g.get("data-cell").split(","))
            rect = g.find(f"{SVG}rect")
            assert (float(rect.get("x")), float(rect.get("y"))) == pytest.approx(md.cell_rect((x, y))[:2], abs=0.01)
            assert float(rect.get("width")) == pytest.approx(md.cell)
            assert md.cell_at(float(rect.get("x")) + 1, float(rect.get("y")) + 1) == (x, y)


def test_same_bytes_every_time(results):
    result = results["everything"]
    assert map_svg(result, cell=18) == map_svg(result, cell=18)
    from PIL import Image

    first = Image.open(io.BytesIO(map_png(result, cell=18, px_per_cell=40)))
    second = Image.open(io.BytesIO(map_png(result, cell=18, px_per_cell=40)))
    assert first.tobytes() == second.tobytes()


def test_svg_text_is_the_png_text(results):
    """Both renderers read one display list: every word of the SVG is a Text item of the drawing."""
    from questc.draw.items import Text, walk

    result = results["burning_well"]
    md = draw_map(result, 18)
    words = sorted(t.text for layer in md.drawing.layers for t in walk(layer.items) if isinstance(t, Text))
    root = ET.fromstring(map_svg(result, cell=18))
    assert sorted(t.text for t in root.iter(f"{SVG}text")) == words


def test_a_quest_whose_checks_found_errors_is_drawn_as_built():
    """The preview pins the errors on this very map: the board as built, overlap and all."""
    from questc.api import check_source

    result = check_source(
        'quest "Broken" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\n'
        "piece R2 room_4x4 at 2,2\narea A start { pieces R1, R2 }\n"
        "victory heroes when conquest >= 9\n"
    )
    assert "Q201" in [d.code for d in result.errors] and result.compiled is not None
    md = draw_map(result.compiled)
    assert (md.columns, md.rows) == (6, 6)


def test_a_map_page_is_laid_out_with_the_collector_paused_and_leaves_it_as_it_was(results, monkeypatch):
    """map_page draws with Python's garbage collector off (its passes over the checked quest were
    a third of a large map page's time) and leaves it on or off as it found it, also when the
    drawing fails."""
    import gc

    from questc.draw import page

    seen = []
    real = page._map_page

    def drawing(quest, paper):
        seen.append(gc.isenabled())
        return real(quest, paper)

    monkeypatch.setattr(page, "_map_page", drawing)
    monkeypatch.setattr(page, "_LAST", ())
    assert gc.isenabled()
    map_page(results["burning_well"], "a4")
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        map_page(results["burning_well"], "letter")
        assert seen == [False, False] and not gc.isenabled()
    finally:
        gc.enable()

    def failing(quest, paper):
        raise RuntimeError("a drawing that fails")

    monkeypatch.setattr(page, "_map_page", failing)
    with pytest.raises(RuntimeError):
        map_page(results["burning_well"], "a4")
    assert gc.isenabled()
