"""questc.board line of sight: the acceptance cases and hand-checked situations."""

from __future__ import annotations

import pytest
from conftest import ACCEPTANCE as CASES

from questc.board import Door, PlacedPiece, build_board
from questc.board.geometry import hedge, vedge
from questc.board.sight_reference import sees_reference
from questc.board.testing import BOULDER, FOG, RUBBLE, WATER, drowned_reliquary, shape_piece

LOS_FILE = CASES / "los.txt"
ACCEPTANCE = [
    ("1,1", "4,4", (), True),
    ("0,3", "5,3", (), False),
    ("0,4", "4,2", (), False),
    ("12,2", "13,5", (), True),
    ("14,3", "12,5", (), True),
    ("10,2", "12,5", (), False),
    ("5,2", "6,2", (), False),
    ("5,2", "6,2", ("entry",), True),
    ("5,1", "6,2", (), False),
    ("5,1", "6,2", ("entry",), True),
    ("5,0", "6,2", ("entry",), False),
]


def pt(text: str) -> tuple[int, int]:
    x, y = text.split(",")
    return int(x), int(y)


def rect(piece_id, x0, y0, w, h, openings=()):
    cells = frozenset((x, y) for x in range(x0, x0 + w) for y in range(y0, y0 + h))
    return PlacedPiece(piece_id, cells, tuple(openings))


def room(w=8, h=8, blocking=None, extra=()):
    return build_board([rect("A", 0, 0, w, h), *extra], [], [], blocking or {}).board


def all_ways(board, a, b, edition="first", open_doors=frozenset()):
    """The single-pair answer, checked against the bulk query and the reference."""
    single = board.sees(a, b, edition, open_doors)
    assert (b in board.visible_cells([a], edition, open_doors)) == single
    assert sees_reference(board, a, b, edition, open_doors) == single
    assert board.sees(b, a, edition, open_doors) == single
    return single


@pytest.fixture(scope="module")
def reliquary():
    return drowned_reliquary().board


class TestAcceptance:
    @pytest.mark.parametrize("a,b,doors,expected", ACCEPTANCE)
    def test_los_cases(self, reliquary, a, b, doors, expected):
        assert all_ways(reliquary, pt(a), pt(b), "first", frozenset(doors)) is expected

    @pytest.mark.skipif(not LOS_FILE.exists(), reason="shared acceptance folder absent")
    def test_table_matches_shared_file(self):
        """The cases above are the ones in acceptance/cases/los.txt."""
        rows = []
        for line in LOS_FILE.read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            lhs, result = line.split("=>")
            words = lhs.split()
            doors = tuple(words[i + 1] for i, w in enumerate(words) if w == "--open")
            rows.append((words[1], words[2], doors, result.strip() == "visible"))
        assert rows == ACCEPTANCE

    def test_reasons(self, reliquary):
        assert reliquary.why_blocked((0, 3), (5, 3)) == "rubble at 2,3"
        assert reliquary.why_blocked((5, 2), (6, 2)) == "the closed door `entry`"
        assert reliquary.why_blocked((10, 2), (12, 5)) == "the wall between 11,3 and 11,4"
        assert reliquary.why_blocked((5, 0), (6, 2), open_doors={"entry"}) == "the wall between 5,1 and 6,1"
        assert reliquary.why_blocked((5, 1), (6, 2)) == ("the corner of walls and the closed door `entry` at 6,2")
        assert reliquary.why_blocked((1, 1), (4, 4)) is None
        assert reliquary.why_blocked((1, 1), (9, 9)) == "9,9 is not a floor space"

    def test_water_does_not_block(self, reliquary):
        assert all_ways(reliquary, (6, 2), (9, 2), "first", frozenset())

    def test_turned_map(self):
        """The same map turned a quarter: every acceptance answer turns with it."""
        turned = _turned_reliquary()
        h = 12  # the original height: (x, y) -> (h - 1 - y, x)
        for a, b, doors, expected in ACCEPTANCE:
            (ax, ay), (bx, by) = pt(a), pt(b)
            ta, tb = (h - 1 - ay, ax), (h - 1 - by, bx)
            assert turned.sees(ta, tb, "first", frozenset(doors)) is expected, (a, b, doors)


def _turned_reliquary():
    """drowned_reliquary turned 90 degrees clockwise about the map's box (height 12)."""
    built = drowned_reliquary()
    board = built.board

    def cell(c):
        return (11 - c[1], c[0])

    def edge(e):
        (x1, y1), (x2, y2) = (12 - e[1], e[0]), (12 - e[3], e[2])
        return tuple(sorted([(x1, y1), (x2, y2)]))[0] + tuple(sorted([(x1, y1), (x2, y2)]))[1]

    pieces = []
    for pid in ("R1", "C1", "T1", "E1", "R2"):
        cells = frozenset(cell(c) for c in board.cells if board.piece_of(c) == pid)
        openings = tuple(tuple(sorted(edge(e) for e in j[2])) for j in built.joints if pid in j[:2])
        pieces.append(PlacedPiece(pid, cells, openings))
    doors = [Door(d.id, tuple(sorted(edge(e) for e in d.edges)), d.rune) for d in board.doors.values()]
    blocking = {cell(c): b for c, b in board.blocking.items()}
    return build_board(pieces, doors, [], blocking).board


class TestFirstEdition:
    def test_touching_only_the_corner_of_a_blocking_cell(self):
        board = room(blocking={(2, 0): RUBBLE})
        assert all_ways(board, (1, 0), (3, 2))  # passes its corner point 2,1 only
        assert not all_ways(board, (1, 0), (4, 2))  # cuts through the rubble

    def test_between_two_blocking_cells_meeting_at_a_corner(self):
        board = room(blocking={(2, 1): RUBBLE, (1, 2): RUBBLE})
        assert all_ways(board, (0, 0), (3, 3))

    def test_between_two_boulders_meeting_at_a_corner(self):
        """Wall-like obstacles count at grid points, as walls do."""
        board = room(blocking={(2, 1): BOULDER, (1, 2): BOULDER})
        assert not all_ways(board, (0, 0), (3, 3))
        assert board.why_blocked((0, 0), (3, 3)) == "the corner of walls at 2,2"
        single = room(blocking={(2, 1): BOULDER})
        assert all_ways(single, (0, 0), (3, 3))
        assert not all_ways(single, (1, 1), (2, 1))  # a boulder is walled in: not seen

    def test_straight_wall_through_a_grid_point(self):
        """Two rooms side by side, no joint: the wall between them blocks at a point."""
        board = build_board([rect("A", 0, 0, 3, 3), rect("B", 3, 0, 3, 3)], [], [], {}).board
        assert not all_ways(board, (2, 0), (3, 1))
        assert not all_ways(board, (1, 0), (4, 2))

    def test_free_end_of_a_wall(self):
        """Two rooms joined on rows 1-2: the wall stub on row 0 ends freely at 3,1."""
        joint = (vedge(3, 1), vedge(3, 2))
        board = build_board([rect("A", 0, 0, 3, 4, [joint]), rect("B", 3, 0, 3, 4, [joint])], [], [], {}).board
        assert not all_ways(board, (2, 0), (3, 0))
        assert all_ways(board, (2, 0), (3, 1))  # round the free end: NW-SE through 3,1
        assert all_ways(board, (2, 1), (3, 0))  # and NE-SW
        assert all_ways(board, (1, 0), (5, 2))
        assert not all_ways(board, (0, 0), (4, 0))

    def test_outside_of_a_convex_corner(self):
        """An L-shaped map: lines passing the outer corner of the L's inner angle."""
        cells = frozenset(
            {(x, y) for x in range(4) for y in range(2)} | {(x, y) for x in range(2) for y in range(2, 4)}
        )
        board = build_board([PlacedPiece("L", cells)], [], [], {}).board
        assert all_ways(board, (3, 0), (0, 3))  # exactly through the corner point 2,2
        assert all_ways(board, (3, 1), (0, 2))  # also through 2,2, at another slope
        assert not all_ways(board, (3, 1), (1, 3))  # cuts across 2,2, which is no floor
        assert not all_ways(board, (3, 1), (0, 3))  # crosses the wall above 2,2

    def test_doors(self):
        a = rect("A", 0, 0, 3, 4, [(vedge(3, 1), vedge(3, 2))])
        b = rect("B", 3, 0, 3, 4, [(vedge(3, 1), vedge(3, 2))])
        door = Door("d", (vedge(3, 1), vedge(3, 2)))
        board = build_board([a, b], [door], [], {}).board
        assert not all_ways(board, (0, 1), (5, 2))
        assert all_ways(board, (0, 1), (5, 2), open_doors=frozenset({"d"}))
        assert not all_ways(board, (0, 0), (5, 0), open_doors=frozenset({"d"}))  # the wall above the door
        assert all_ways(board, (0, 0), (5, 1), open_doors=frozenset({"d"}))  # past the wall's end at 3,1
        assert all_ways(board, (0, 0), (5, 3), open_doors=frozenset({"d"}))  # through the point 3,2
        assert board.why_blocked((0, 1), (5, 2)) == "the closed door `d` at 3,2"
        assert board.why_blocked((0, 1), (5, 1)) == "the closed door `d`"

    def test_fog(self):
        board = room(blocking={(3, 3): FOG})
        assert all_ways(board, (2, 2), (3, 3))  # into an adjacent fog space
        assert all_ways(board, (3, 3), (4, 4))  # out of it to a neighbour
        assert not all_ways(board, (1, 1), (3, 3))  # not from further
        assert not all_ways(board, (3, 3), (5, 3))
        assert not all_ways(board, (2, 3), (4, 3))  # fog blocks lines through it
        assert all_ways(board, (2, 2), (4, 2))
        assert "fog at 3,3" in board.why_blocked((1, 1), (3, 3))

    def test_end_cells_never_block(self):
        board = room(blocking={(3, 3): RUBBLE, (0, 0): RUBBLE})
        assert all_ways(board, (0, 0), (3, 3))
        assert all_ways(board, (1, 1), (3, 3))


class TestSecondEdition:
    def test_sees_past_a_blocking_cell_by_a_corner(self):
        board = room(blocking={(2, 2): RUBBLE})
        assert not all_ways(board, (2, 0), (2, 4), "first")
        assert all_ways(board, (2, 0), (2, 4), "second") is False  # a one-wide column: every line touches it
        assert all_ways(board, (1, 0), (3, 4), "second")

    def test_running_along_the_edge_of_a_blocked_cell(self):
        board = room(blocking={(2, 0): RUBBLE, (2, 1): RUBBLE})
        # Along the top edge row 0 -> row 0 beyond the rubble: only lines along its edges.
        assert not all_ways(board, (0, 0), (4, 0), "second")
        assert all_ways(board, (0, 0), (4, 2), "second")

    def test_running_along_a_wall(self):
        board = build_board([rect("A", 0, 0, 6, 2)], [], [], {}).board
        assert all_ways(board, (0, 0), (5, 0), "second")

    def test_adjacent_cells(self):
        a = rect("A", 0, 0, 2, 2, [(vedge(2, 0), vedge(2, 1))])
        b = rect("B", 2, 0, 2, 2, [(vedge(2, 0), vedge(2, 1))])
        door = Door("d", (vedge(2, 0), vedge(2, 1)))
        board = build_board([a, b], [door], [], {}).board
        assert not all_ways(board, (1, 0), (2, 0), "second")
        assert not all_ways(board, (1, 0), (2, 1), "second")
        assert all_ways(board, (1, 0), (2, 1), "second", frozenset({"d"}))
        assert not all_ways(board, (0, 0), (3, 0), "second")

    def test_corner_start_must_reach_from_own_cell(self):
        """Two rooms touching only at a corner: the shared lattice point is no way through."""
        board = build_board([rect("A", 0, 0, 3, 3), rect("B", 3, 3, 3, 3)], [], [], {}).board
        assert not all_ways(board, (2, 2), (4, 4), "second")
        assert not all_ways(board, (1, 1), (5, 5), "second")

    def test_reliquary_second(self, reliquary):
        assert all_ways(reliquary, (0, 4), (4, 2), "second")
        assert not all_ways(reliquary, (0, 3), (5, 3), "second")
        assert reliquary.why_blocked((0, 3), (5, 3), "second") == "running along the edge of rubble at 2,3"


def test_rotated_boards_agree_on_a_sample():
    """Rotating a small map with walls, a door, rubble and fog rotates every answer."""
    a = shape_piece("T", "oooooo/oooooo/..oo../..oo..", (0, 0), [("south", 2)])
    b = shape_piece("R", "oooo/oooo/oooo", (1, 4), [("north", 1)])
    built = build_board([a, b], [], [], {})
    door = Door("d", built.joints[0][2])
    blocking = {(1, 1): RUBBLE, (3, 5): FOG, (4, 0): WATER}
    base = build_board([a, b], [door], [], blocking).board
    turned = _turn_board(base, [a, b], [door], blocking)
    for edition in ("first", "second"):
        for doors in (frozenset(), frozenset({"d"})):
            for s in base.cells:
                expect = {(-1 - y, x) for x, y in base.visible_cells([s], edition, doors)}
                assert turned.visible_cells([(-1 - s[1], s[0])], edition, doors) == expect


def _turn_board(board, pieces, doors, blocking):
    def cell(c):
        return (-1 - c[1], c[0])

    def edge(e):
        p, q = (-e[1], e[0]), (-e[3], e[2])
        lo, hi = min(p, q), max(p, q)
        return lo + hi

    turned_pieces = [
        PlacedPiece(
            p.id, frozenset(cell(c) for c in p.cells), tuple(tuple(sorted(edge(e) for e in o)) for o in p.openings)
        )
        for p in pieces
    ]
    turned_doors = [Door(d.id, tuple(sorted(edge(e) for e in d.edges)), d.rune) for d in doors]
    return build_board(turned_pieces, turned_doors, [], {cell(c): b for c, b in blocking.items()}).board


def test_hedge_vedge_conventions():
    assert hedge(3, 4) == (3, 4, 4, 4) and vedge(3, 4) == (3, 4, 3, 5)
