"""Turning pieces and placing figures: cells and openings under each of the four turns."""

from __future__ import annotations

import pytest

from questc.catalog import Opening, PieceType, load_catalog
from questc.catalog.shapes import OUTWARD, turn_cell, turn_side

CATALOG, _ = load_catalog()
TURNS = (0, 90, 180, 270)
PIECES = sorted(CATALOG.pieces)


def _as_piece(shape, name="turned") -> PieceType:
    """A placed shape at the origin back into an unturned piece, to turn it again (terrain and edge too)."""
    return PieceType(
        name,
        "room",
        "base",
        shape.width,
        shape.height,
        shape.cells,
        shape.openings,
        terrain=shape.terrain,
        edge=shape.edge,
    )


@pytest.mark.parametrize("turn", TURNS)
@pytest.mark.parametrize("name", PIECES)
def test_turned_piece_keeps_cells_inside_its_new_box(name, turn):
    piece = CATALOG.pieces[name]
    at = (7, 3)
    shape = piece.placed(at, turn)
    assert len(shape.cells) == len(piece.cells)
    expected_box = (piece.width, piece.height) if turn in (0, 180) else (piece.height, piece.width)
    assert (shape.width, shape.height) == expected_box
    xs = [x for x, _ in shape.cells]
    ys = [y for _, y in shape.cells]
    # The new bounding box's top-left corner is at `at`, and the cells fill it tightly.
    assert (min(xs), min(ys)) == at
    assert (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) == expected_box


@pytest.mark.parametrize("turn", TURNS)
@pytest.mark.parametrize("name", PIECES)
def test_turned_openings_stay_on_the_outline_of_their_turned_side(name, turn):
    piece = CATALOG.pieces[name]
    shape = piece.placed((2, 5), turn)
    assert len(shape.openings) == len(piece.openings)
    for before, after in zip(piece.openings, shape.openings):
        assert after.side == turn_side(before.side, turn)
        assert after.end == before.end
        assert len(after.cells) == 2 and len(set(after.cells)) == 2
        (ax, ay), (bx, by) = after.cells
        # Two neighbours running along the side: east for north/south, south for east/west.
        assert (bx - ax, by - ay) == ((1, 0) if after.side in ("north", "south") else (0, 1))
        dx, dy = OUTWARD[after.side]
        for x, y in after.cells:
            assert (x, y) in shape.cells
            assert (x + dx, y + dy) not in shape.cells  # on the outline, facing out
        assert set(after.outside()).isdisjoint(shape.cells)


@pytest.mark.parametrize("name", PIECES)
def test_openings_of_the_built_in_pieces_lie_on_the_bounding_box(name):
    # The model's pieces all open on their bounding box, which is what lets two
    # pieces placed side by side join.
    for turn in TURNS:
        shape = CATALOG.pieces[name].placed((0, 0), turn)
        for opening in shape.openings:
            for x, y in opening.cells:
                edge = {"north": y == 0, "south": y == shape.height - 1, "west": x == 0, "east": x == shape.width - 1}[
                    opening.side
                ]
                assert edge, (name, turn, opening)


@pytest.mark.parametrize("name", PIECES)
def test_four_quarter_turns_are_the_identity(name):
    piece = CATALOG.pieces[name]
    start = piece.placed((0, 0), 0)
    shape = start
    for _ in range(4):
        shape = _as_piece(shape).placed((0, 0), 90)
    assert shape == start
    assert piece.placed((4, 4), 360) == piece.placed((4, 4), 0)
    assert piece.placed((4, 4), -90) == piece.placed((4, 4), 270)


@pytest.mark.parametrize("name", PIECES)
def test_turns_compose(name):
    piece = CATALOG.pieces[name]
    twice = _as_piece(piece.placed((0, 0), 90)).placed((0, 0), 90)
    assert twice == piece.placed((0, 0), 180)
    thrice = _as_piece(twice).placed((0, 0), 90)
    assert thrice == piece.placed((0, 0), 270)


def test_corridor_2x4_at_6_2_turn_90_covers_x_6_7_y_2_5():
    shape = CATALOG.pieces["corridor_2x4"].placed((6, 2), 90)
    assert shape.cells == {(x, y) for x in (6, 7) for y in range(2, 6)}
    assert (shape.width, shape.height) == (2, 4)
    assert shape.openings == (Opening("north", ((6, 2), (7, 2)), True), Opening("south", ((6, 5), (7, 5)), True))


def test_intersection_t_turned_90_puts_its_stem_to_the_west():
    shape = CATALOG.pieces["intersection_t"].placed((0, 0), 90)
    assert (shape.width, shape.height) == (4, 6)
    assert {o.side for o in shape.openings} == {"north", "south", "west"}
    west = next(o for o in shape.openings if o.side == "west")
    assert west.cells == ((0, 2), (0, 3))
    assert (0, 0) not in shape.cells and (2, 0) in shape.cells


def test_the_language_guide_map_joins_where_it_says():
    # LANGUAGE.md §1: hall, corridor, T junction, dead end and a 4x6 room.
    r1 = CATALOG.pieces["room_6x6"].placed((0, 0), 0)
    c1 = CATALOG.pieces["corridor_2x4"].placed((6, 2), 0)
    t1 = CATALOG.pieces["intersection_t"].placed((10, 2), 0)
    e1 = CATALOG.pieces["dead_end"].placed((16, 2), 0)
    r2 = CATALOG.pieces["room_4x6"].placed((11, 6), 0)
    assert c1.cells == {(x, y) for x in range(6, 10) for y in (2, 3)}
    assert {(x, y) for x in range(12, 14) for y in (4, 5)} <= t1.cells
    assert r2.cells == {(x, y) for x in range(11, 15) for y in range(6, 12)}

    def joined(a, b):
        return any(set(p.outside()) == set(q.cells) for p in a.openings for q in b.openings)

    assert joined(r1, c1) and joined(c1, r1)
    assert joined(t1, e1) and joined(t1, r2)
    # The corridor's east end (x 9) meets the T junction's west end (x 10).
    assert joined(c1, t1)
    assert not joined(r1, t1) and not joined(r1, r2)


def test_turn_must_be_a_multiple_of_90():
    with pytest.raises(ValueError):
        CATALOG.pieces["room_4x4"].placed((0, 0), 45)
    with pytest.raises(ValueError):
        turn_cell((0, 0), 2, 2, True)  # type: ignore[arg-type]


def test_turn_cell_quarter_turn_rule():
    # One quarter turn of a w×h box: (x, y) -> (h-1-y, x).
    assert turn_cell((0, 0), 4, 2, 90) == (1, 0)
    assert turn_cell((3, 1), 4, 2, 90) == (0, 3)
    assert turn_cell((3, 1), 4, 2, 180) == (0, 0)
    assert turn_cell((0, 0), 4, 2, 270) == (0, 3)


def test_opening_edges_follow_the_edge_convention():
    north = Opening("north", ((1, 0), (2, 0)), False)
    east = Opening("east", ((3, 1), (3, 2)), True)
    assert north.edges() == ((1, 0, 2, 0), (2, 0, 3, 0))
    assert east.edges() == ((4, 1, 4, 2), (4, 2, 4, 3))
    assert east.outside() == ((4, 1), (4, 2))


@pytest.mark.parametrize(
    "facing, size", [(None, (2, 3)), ("north", (2, 3)), ("south", (2, 3)), ("east", (3, 2)), ("west", (3, 2))]
)
def test_monster_cells_turn_long_figures(facing, size):
    dragon = CATALOG.monsters["dragon"]
    cells = dragon.cells((5, 1), facing)
    w, h = size
    assert cells == {(5 + dx, 1 + dy) for dx in range(w) for dy in range(h)}


def test_monster_cells_of_small_and_two_space_figures():
    assert CATALOG.monsters["beastman"].cells((3, 4), "east") == {(3, 4)}
    assert CATALOG.monsters["hell_hound"].cells((0, 0), "north") == {(0, 0), (0, 1)}
    assert CATALOG.monsters["hell_hound"].cells((0, 0), "west") == {(0, 0), (1, 0)}
    with pytest.raises(ValueError):
        CATALOG.monsters["hell_hound"].cells((0, 0), "up")
