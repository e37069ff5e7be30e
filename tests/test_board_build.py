"""questc.board: building the board from pieces, and movement."""

from __future__ import annotations

from questc.board import BlockInfo, Board, Door, PlacedPiece, Stairs, build_board
from questc.board.geometry import hedge, vedge
from questc.board.testing import BOULDER, CORRIDOR_2X4, INTERSECTION_T, RUBBLE, WATER, drowned_reliquary, shape_piece


def rect(piece_id: str, x0: int, y0: int, w: int, h: int, openings=()) -> PlacedPiece:
    cells = frozenset((x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h))
    return PlacedPiece(piece_id, cells, tuple(openings))


class TestBuild:
    def test_reliquary_joints_and_openings(self):
        """The example map joins R1-C1, C1-T1, T1-E1 and T1-R2; the other room sides are wall."""
        built = drowned_reliquary()
        assert [(a, b) for a, b, _ in built.joints] == [("R1", "C1"), ("C1", "T1"), ("T1", "E1"), ("T1", "R2")]
        assert built.joints[0][2] == ((6, 2, 6, 3), (6, 3, 6, 4))
        assert built.unjoined_openings == [("R1", 0), ("R1", 1), ("R1", 2), ("R2", 1), ("R2", 2), ("R2", 3)]
        assert built.openings_meeting_wall == []
        assert built.overlaps == []
        board = built.board
        assert (board.width, board.height, board.origin) == (17, 12, (0, 0))
        assert len(board.cells) == 36 + 8 + 16 + 2 + 24
        assert board.cells == tuple(sorted(board.cells))

    def test_walls(self):
        board = drowned_reliquary().board
        assert not board.is_wall((6, 2, 6, 3))  # the joint (a door sits there)
        assert board.is_wall((6, 1, 6, 2))  # R1's east side above the joint
        assert board.is_wall((6, 2, 6, 1))  # either point order
        assert board.is_wall(hedge(11, 4))  # T1's bar above nothing
        assert not board.is_wall(vedge(3, 3))  # inside R1
        assert board.is_wall(hedge(0, 0))  # the edge of the map
        assert board.edge_between((5, 2), (6, 2)) == (6, 2, 6, 3)
        assert board.edge_between((5, 2), (6, 3)) is None
        assert board.piece_of((12, 5)) == "T1" and board.piece_of((20, 20)) is None
        assert board.doors_on((6, 3, 6, 4)) == ["entry"]
        assert board.joints_between("R2", "T1") == [((12, 6, 13, 6), (13, 6, 14, 6))]

    def test_half_matching_openings_do_not_join(self):
        """Openings offset by one cell meet the other piece's wall on one edge: no joint."""
        a = rect("A", 0, 0, 2, 4, [(vedge(2, 1), vedge(2, 2))])
        b = rect("B", 2, 0, 2, 4, [(vedge(2, 2), vedge(2, 3))])
        built = build_board([a, b], [], [], {})
        assert built.joints == []
        assert built.unjoined_openings == [("A", 0), ("B", 0)]
        assert built.openings_meeting_wall == [("A", 0, "B"), ("B", 0, "A")]
        assert built.board.is_wall(vedge(2, 2))

    def test_overlap_reported_and_first_piece_wins(self):
        built = build_board([rect("A", 0, 0, 3, 3), rect("B", 2, 2, 3, 3)], [], [], {})
        assert built.overlaps == [("A", "B", ((2, 2),))]
        assert built.board.piece_of((2, 2)) == "A"

    def test_turned_piece(self):
        """A corridor_2x4 at 6,2 turn 90 covers x 6-7, y 2-5 (CATALOG.md)."""
        piece = shape_piece("C", CORRIDOR_2X4, (6, 2), [("west", 0), ("east", 0)], turn=90)
        assert piece.cells == frozenset((x, y) for x in (6, 7) for y in range(2, 6))
        assert piece.openings == (((6, 2, 7, 2), (7, 2, 8, 2)), ((6, 6, 7, 6), (7, 6, 8, 6)))
        t = shape_piece("T", INTERSECTION_T, (0, 0), [("south", 2)], turn=180)
        assert (2, 0) in t.cells and (0, 0) not in t.cells and (0, 3) in t.cells
        assert t.openings == (((2, 0, 3, 0), (3, 0, 4, 0)),)

    def test_negative_coordinates(self):
        board = build_board([rect("A", -3, -2, 2, 2)], [], [], {}).board
        assert (board.origin, board.width, board.height) == ((-3, -2), 2, 2)
        assert board.visible_cells([(-3, -2)]) == set(board.cells)


class TestMovement:
    def test_orthogonal_and_doors(self):
        board = drowned_reliquary().board
        assert not board.can_step((5, 2), (6, 2))
        assert board.can_step((5, 2), (6, 2), frozenset({"entry"}))
        assert not board.can_step((5, 1), (6, 1), frozenset({"entry"}))  # (6,1) is no floor
        assert not board.can_step((5, 2), (7, 2), frozenset({"entry"}))  # not a neighbour

    def test_diagonal_round_a_corner(self):
        """Stepping 5,1 -> 6,2 passes the corner where R1's wall meets the joint."""
        board = drowned_reliquary().board
        assert not board.can_step((5, 1), (6, 2))  # door closed: cut both ways
        assert board.can_step((5, 1), (6, 2), frozenset({"entry"}))  # round the wall's corner

    def test_diagonal_not_through_straight_wall(self):
        a = rect("A", 0, 0, 2, 3)
        b = rect("B", 2, 0, 2, 3, [])
        board = build_board([a, b], [], [], {}).board
        assert not board.can_step((1, 0), (2, 1))

    def test_pieces_touching_only_at_a_corner(self):
        board = build_board([rect("A", 0, 0, 2, 2), rect("B", 2, 2, 2, 2)], [], [], {}).board
        assert not board.can_step((1, 1), (2, 2))
        assert not board.sees((1, 1), (2, 2))

    def test_obstacles(self):
        board = drowned_reliquary().board
        assert not board.can_step((1, 3), (2, 3))  # rubble
        assert board.can_step((1, 2), (2, 1))
        assert board.can_step((1, 4), (2, 5))  # diagonal past rubble
        assert board.can_step((3, 2), (2, 2))

    def test_two_boulders_meeting_at_a_corner_block_like_walls(self):
        base = [rect("A", 0, 0, 4, 4)]
        rubble = build_board(base, [], [], {(1, 1): RUBBLE, (2, 2): RUBBLE}).board
        assert rubble.can_step((2, 1), (1, 2))
        boulders = build_board(base, [], [], {(1, 1): BOULDER, (2, 2): BOULDER}).board
        assert not boulders.can_step((2, 1), (1, 2))
        assert boulders.can_step((0, 0), (1, 0))
        assert not boulders.can_step((0, 1), (1, 1))

    def test_reachable(self):
        board = drowned_reliquary().board
        hall = {c for c in board.cells if board.piece_of(c) == "R1"}
        assert board.reachable([(1, 1)]) == hall - {(2, 3), (2, 4)}
        with_entry = board.reachable([(1, 1)], passable_doors={"entry"})
        assert (16, 3) in with_entry and (12, 8) not in with_entry
        assert (7, 2) not in with_entry  # water
        both = board.reachable([(1, 1)], passable_doors={"entry", "vault"})
        assert (12, 8) in both
        only_hall = board.reachable([(1, 1)], allowed=hall, passable_doors={"entry"})
        assert only_hall == hall - {(2, 3), (2, 4)}
        assert board.reachable([(2, 3)]) == set()  # cannot stand on rubble

    def test_stairs(self):
        a = rect("A", 0, 0, 3, 3)
        b = rect("B", 10, 0, 3, 3)
        stairs = [Stairs("grey", ((2, 2), (10, 0)))]
        board = build_board([a, b], [], stairs, {}).board
        assert (11, 1) not in board.reachable([(0, 0)])
        assert (11, 1) in board.reachable([(0, 0)], stairs_ok=True)
        assert (11, 1) in board.reachable([(0, 0)], stairs_ok={"grey"})
        assert (11, 1) not in board.reachable([(0, 0)], stairs_ok={"red"})
        assert (11, 1) in board.reachable([(0, 0)], stairs_ok=lambda s: s.colour == "grey")
        assert board.stair_sight((2, 2)) == {(10, 0), (11, 0), (10, 1), (11, 1)}
        assert board.stair_sight((0, 0)) == set()
        assert (12, 2) not in board.visible_cells([(2, 2)])
        assert (11, 1) in board.visible_cells([(2, 2)], stairs=True)


def test_board_type():
    assert isinstance(drowned_reliquary().board, Board)
    assert BlockInfo(True, True).kind == "obstacle"
    assert Door("d", (vedge(1, 0), vedge(1, 1))).rune is None
    assert WATER.blocks_movement and not WATER.blocks_sight
