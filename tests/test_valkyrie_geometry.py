"""questc's squares against Valkyrie's placement, for every tile side at every turn, every door and
every monster's footprint (questc/valkyrie/geometry.py).

Valkyrie's side of each comparison is a literal port of its drawing code (Quest.cs: Tile, Door;
TokenBoard.cs: AddPlacedMonsterImg), with the image sizes left free and each side's `top`
and `left` from its tiles.ini: the squares it covers must be those questc's board gives the
piece. The last test writes every side at every turn into one Valkyrie quest and has
Valkyrie's own loader read the positions back.
"""

from __future__ import annotations

import math
import random

import pytest
from valkyrie_tools import FIXTURE_CONTENT, load

from questc.api import check_source
from questc.catalog import builtin_catalog
from questc.valkyrie import content, geometry
from questc.valkyrie.ini import read_ini, write_ini

CATALOG = builtin_catalog()
TILES = read_ini((FIXTURE_CONTENT / "tiles.ini").read_text(encoding="utf-8")).sections
PPS = 105.0  # Valkyrie's pixels per square for the second edition (GameType.TilePixelPerSquare)
TURNS = (0, 90, 180, 270)


def _rotate(point: tuple[float, float], degrees: float) -> tuple[float, float]:
    """Unity's RotateAround(Vector3.zero, Vector3.forward, degrees) on a point: counterclockwise."""
    angle = math.radians(degrees)
    x, y = point
    return (x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle))


def valkyrie_tile_squares(
    side: str, shape: frozenset, placement: geometry.Placement, width: int = 1313, height: int = 977
) -> set[tuple[int, int]]:
    """Quest.cs's Tile, step by step: the image (any size) centred at 0,0, moved so its first space's
    corner (tiles.ini `left`, `top`) is at 0,0, then half a square so that space's centre is; turned
    about 0,0; moved to the location. Each of the side's spaces (its grid square c, r) is then at
    its centre; the result is questc's cells (y grows south)."""
    top, left = float(TILES[side].entries["top"]), float(TILES[side].entries["left"])
    centre = (((width / 2) - left) / PPS, -((height / 2) - top) / PPS)  # Translate right, Translate down
    centre = (centre[0] - 0.5, centre[1] + 0.5)  # TileOnGrid
    out = set()
    for c, r in shape:
        # The square's centre in the image, from the image's centre (Unity's y grows up).
        local = ((left + (c + 0.5) * PPS - width / 2) / PPS, -((top + (r + 0.5) * PPS) - height / 2) / PPS)
        x, y = _rotate((centre[0] + local[0], centre[1] + local[1]), placement.rotation)
        x, y = x + placement.x, y + placement.y
        assert abs(x - round(x)) < 1e-6 and abs(y - round(y)) < 1e-6
        out.add((round(x), -round(y)))
    return out


def _whole_13a_shape() -> frozenset:
    """13A's spaces on Valkyrie's one side: the two parts in the side's 6x6 grid."""
    cells = set()
    for part, ((ox, oy), _size) in content.TILE_13A_PARTS.items():
        cells |= {(ox + x, oy + y) for x, y in CATALOG.lookup("piece", part).cells}
    return frozenset(cells)


def _layout(turn: int):
    """Every side of Valkyrie's base game as questc pieces, each in its own patch of the map, at one
    turn: (side, piece ids, Valkyrie placement) and the quest text placing them."""
    lines, placed = [], []
    for index, (side, piece_type) in enumerate(content.SIDE_PIECES.items()):
        at = (index % 10 * 12 - 40, index // 10 * 12 - 30)
        if piece_type == "tile_13a":
            ids = []
            for part in content.TILE_13A:
                part_at = geometry.part_of_13a(part, at, turn)
                ids.append(f"P{index}{part[-1]}")
                lines.append(f"piece {ids[-1]} {part} at {part_at[0]},{part_at[1]} turn {turn}")
            placed.append((side, ids, geometry.tile_placement(at, turn, *content.TILE_13A_BOX), _whole_13a_shape()))
            continue
        piece = CATALOG.lookup("piece", piece_type)
        lines.append(f"piece P{index} {piece_type} at {at[0]},{at[1]} turn {turn}")
        placed.append((side, [f"P{index}"], geometry.tile_placement(at, turn, piece.width, piece.height), piece.cells))
    pieces = ", ".join(i for _, ids, _, _ in placed for i in ids)
    source = (
        'quest "Every side" {\n  edition second\n}\n'
        + "\n".join(lines)
        + f'\narea A "All" start {{\n  pieces {pieces}\n}}\nvictory heroes when round > 4\n'
    )
    return placed, source


def _owned(source: str) -> dict[str, set]:
    """A quest's board in; each piece's floor cells, as the board says (Board.piece_of) out."""
    board = check_source(source, "sides.quest").compiled.board
    owned: dict[str, set] = {}
    for cell in board.cells:
        owned.setdefault(board.piece_of(cell), set()).add(cell)
    return owned


@pytest.mark.slow
@pytest.mark.parametrize("turn", TURNS)
def test_every_tile_side_covers_the_squares_questc_gives_it(turn):
    placed, source = _layout(turn)
    owned = _owned(source)
    for side, ids, placement, shape in placed:
        questc_cells = set().union(*(owned[i] for i in ids))
        assert valkyrie_tile_squares(side, shape, placement) == questc_cells, (side, turn, placement)
        # and back: the import places the same piece at the same spot
        width, height = (
            content.TILE_13A_BOX
            if len(ids) == 2
            else (
                CATALOG.lookup("piece", content.SIDE_PIECES[side]).width,
                CATALOG.lookup("piece", content.SIDE_PIECES[side]).height,
            )
        )
        at, back_turn = geometry.piece_at(placement, width, height)
        assert geometry.tile_placement(at, back_turn, width, height) == placement


def test_the_export_names_every_side_valkyrie_has_and_no_other():
    assert set(content.SIDE_PIECES) == set(TILES)
    for side, piece_type in content.SIDE_PIECES.items():
        if piece_type == "tile_13a":
            assert all(CATALOG.lookup("piece", part) is not None for part in content.TILE_13A)
            continue
        piece = CATALOG.lookup("piece", piece_type)
        assert piece is not None and piece.set == "second_edition", side
        letter = side[-1]
        assert content.tile_side(piece_type, letter) == side
        assert content.piece_for_side(side) == piece_type


def test_13a_is_its_two_parts_and_the_mirror_of_13b():
    whole = _whole_13a_shape()
    w, h = content.TILE_13A_BOX
    b = CATALOG.lookup("piece", "tile_13b")
    assert (b.width, b.height) == (w, h)
    assert whole == frozenset((w - 1 - x, y) for x, y in b.cells)
    for part, (_offset, size) in content.TILE_13A_PARTS.items():
        piece = CATALOG.lookup("piece", part)
        assert (piece.width, piece.height) == size


def test_token_and_monster_names_are_valkyries():
    tokens = set(read_ini((FIXTURE_CONTENT / "tokens.ini").read_text(encoding="utf-8")).sections)
    assert set(content.OBJECTIVES.values()) | set(content.TOKEN_KINDS.values()) | set(content.TOKEN_ALIASES) <= tokens
    monsters = read_ini((FIXTURE_CONTENT / "monsters.ini").read_text(encoding="utf-8")).sections
    lieutenants = read_ini((FIXTURE_CONTENT / "lieutenants.ini").read_text(encoding="utf-8")).sections
    assert {name for name, _ in content.MONSTERS.values()} == set(monsters)
    assert set(content.LIEUTENANTS.values()) == set(lieutenants)
    for questc_name, (valkyrie_name, trait) in content.MONSTERS.items():
        assert trait in monsters[valkyrie_name].entries["traits"].split(), questc_name
        # questc's footprint is Valkyrie's size, or the same turned a quarter
        footprint = CATALOG.lookup("monster", questc_name).footprint
        assert footprint in (content.SIZES[trait], content.SIZES[trait][::-1]), questc_name
    assert set(content.LIEUTENANTS) == set(CATALOG.lookup("marker", "lieutenant").variants)


def valkyrie_figure_squares(placement: geometry.Placement, rotate: bool, size: tuple[int, int]) -> set:
    """TokenBoard.AddPlacedMonsterImg: a sizeX x sizeY image centred at 0,0, moved right (sizeX-1)/2
    and down (sizeY-1)/2, turned -90 degrees about 0,0 when `rotate`, moved to the placement."""
    sx, sy = size
    centre = ((sx - 1) / 2, -(sy - 1) / 2)
    half = [(sx / 2, sy / 2), (-sx / 2, -sy / 2)]
    corners = [(centre[0] + dx, centre[1] + dy) for dx, dy in half]
    if rotate:
        corners = [_rotate(c, -90) for c in corners]
    xs = sorted(c[0] + placement.x for c in corners)
    ys = sorted(c[1] + placement.y for c in corners)
    return {
        (x, -y)
        for x in range(round(xs[0] + 0.5), round(xs[1] - 0.5) + 1)
        for y in range(round(ys[0] + 0.5), round(ys[1] - 0.5) + 1)
    }


@pytest.mark.parametrize("monster", sorted(content.MONSTERS))
@pytest.mark.parametrize("facing", ["north", "east", "south", "west"])
def test_every_monster_stands_where_questc_puts_it(monster, facing):
    kind = CATALOG.lookup("monster", monster)
    trait = content.MONSTERS[monster][1]
    for at in [(0, 0), (3, -4), (-7, 2)]:
        cells = kind.cells(at, facing)
        placement, rotate = geometry.figure_place(at, kind.size(facing), content.SIZES[trait])
        assert valkyrie_figure_squares(placement, rotate, content.SIZES[trait]) == set(cells)
        assert geometry.figure_at(placement, rotate, content.SIZES[trait]) == (at, kind.size(facing))


def valkyrie_door_edges(placement: geometry.Placement) -> set:
    """Quest.cs's Door: a 0.4 x 1.6 bar centred at 0,0, turned by its rotation about 0,0, moved
    (-0.5, 0.5) and to its location; the unit edges its long middle line lies on, in questc's lattice."""
    a, b = _rotate((0, -0.8), placement.rotation), _rotate((0, 0.8), placement.rotation)
    ends = [(p[0] - 0.5 + placement.x, p[1] + 0.5 + placement.y) for p in (a, b)]
    # questc's lattice point of Valkyrie's square corner (x - 0.5, y + 0.5) is (x, -y): corner (u, v) -> (u + 0.5, -(v - 0.5))
    (x1, y1), (x2, y2) = sorted((round(u + 0.5, 6), round(-(v - 0.5), 6)) for u, v in ends)
    upright = x1 == x2
    low, high = (y1, y2) if upright else (x1, x2)
    edges = set()
    for k in range(math.floor(low), math.ceil(high)):
        if min(k + 1, high) - max(k, low) > 0.5:  # the bar lies along most of this unit edge
            edges.add((int(x1), k, int(x1), k + 1) if upright else (k, int(y1), k + 1, int(y1)))
    return edges


def test_every_door_side_is_where_valkyrie_draws_it():
    from questc.board.quest_board import door_edges_at

    rng = random.Random(7)
    for _ in range(200):
        cell = (rng.randint(-30, 30), rng.randint(-30, 30))
        for side in ("north", "east", "south", "west"):
            edges = door_edges_at(cell, side)
            placement = geometry.door_at(edges)
            assert valkyrie_door_edges(placement) == set(edges), (cell, side, placement)
            assert set(geometry.door_edges(placement)) == set(edges)


@pytest.mark.slow
def test_valkyries_loader_reads_every_side_at_every_turn_where_questc_put_it(tmp_path):
    """All 70 sides at four turns written with questc's writer, read by Valkyrie's loader: the
    positions and rotations it reads cover questc's squares."""
    expected = {}
    sections = []
    for turn in TURNS:
        placed, source = _layout(turn)
        owned = _owned(source)
        for side, ids, placement, shape in placed:
            name = f"Tile{turn}_{side}"
            entries = [
                ("xposition", str(placement.x)),
                ("yposition", str(placement.y)),
                ("side", side),
                ("rotation", str(placement.rotation)),
            ]
            sections.append((name, entries))
            expected[name] = (side, shape, set().union(*(owned[i] for i in ids)))
    (tmp_path / "tiles.ini").write_text(write_ini(sections), encoding="utf-8")
    (tmp_path / "quest.ini").write_text(
        write_ini([("Quest", [("format", "18"), ("type", "D2E")]), ("QuestData", [("tiles.ini", None)])]),
        encoding="utf-8",
    )
    loaded = load(tmp_path)
    assert loaded.code == 0 and loaded.problems == 0, loaded.output
    assert len(loaded.tiles) == len(expected) == 4 * 70
    for name, side, (x, y), rotation in loaded.tiles:
        want_side, shape, cells = expected[name]
        assert side == want_side
        assert valkyrie_tile_squares(side, shape, geometry.Placement(int(x), int(y), rotation)) == cells, name
