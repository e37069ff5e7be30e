"""questc.board line of sight: properties on small random maps (hypothesis).

Maps are rectangles cut from a small grid (guillotine cuts), some dropped, neighbours
joined through two-cell openings, some joints carrying doors (open or closed), and
rubble, water, fog and boulders scattered about.  The oracle is the Fraction-based
`sight_reference`.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from questc.board import Door, PlacedPiece, build_board
from questc.board.geometry import edge_between, hedge, vedge
from questc.board.sight_reference import sees_reference
from questc.board.testing import BOULDER, FOG, RUBBLE, WATER

# Property and fuzz tests: run by default; `-m "not slow"` leaves them out for a quick run.
pytestmark = pytest.mark.slow

EDITIONS = ("first", "second")
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _cut(x0, y0, x1, y1, rng, depth=0):
    w, h = x1 - x0, y1 - y0
    if (w <= 3 and h <= 3) or depth > 3 or rng.random() < 0.2:
        return [(x0, y0, x1, y1)]
    if w >= h:
        c = rng.randint(x0 + 1, x1 - 1)
        return _cut(x0, y0, c, y1, rng, depth + 1) + _cut(c, y0, x1, y1, rng, depth + 1)
    c = rng.randint(y0 + 1, y1 - 1)
    return _cut(x0, y0, x1, c, rng, depth + 1) + _cut(x0, c, x1, y1, rng, depth + 1)


def random_map(seed: int, width: int = 7, height: int = 6):
    """(pieces, doors, blocking, open_doors) of a random map; deterministic in `seed`."""
    rng = random.Random(seed)
    rects = [r for r in _cut(0, 0, width, height, rng) if rng.random() < 0.85] or [(0, 0, 2, 2)]
    cellsets = [frozenset((x, y) for x in range(r[0], r[2]) for y in range(r[1], r[3])) for r in rects]
    owner = {c: i for i, cells in enumerate(cellsets) for c in cells}
    shared: dict[tuple[int, int], list] = {}
    for (x, y), i in owner.items():
        for n, e in (((x + 1, y), vedge(x + 1, y)), ((x, y + 1), hedge(x, y + 1))):
            j = owner.get(n)
            if j is not None and j != i:
                shared.setdefault((min(i, j), max(i, j)), []).append(e)
    openings: dict[int, list] = {}
    joints = []
    for (i, j), edges in sorted(shared.items()):
        edges.sort()
        pairs = [(a, b) for a, b in zip(edges, edges[1:]) if a[2:] == b[:2]]
        if pairs and rng.random() < 0.8:
            pair = rng.choice(pairs)
            openings.setdefault(i, []).append(pair)
            openings.setdefault(j, []).append(pair)
            joints.append(pair)
    pieces = [PlacedPiece(f"P{i}", cells, tuple(openings.get(i, []))) for i, cells in enumerate(cellsets)]
    doors = [Door(f"d{k}", pair) for k, pair in enumerate(joints) if rng.random() < 0.4]
    blocking = {}
    for cell in sorted(owner):
        roll = rng.random()
        if roll < 0.08:
            blocking[cell] = RUBBLE
        elif roll < 0.12:
            blocking[cell] = WATER
        elif roll < 0.15:
            blocking[cell] = FOG
        elif roll < 0.17:
            blocking[cell] = BOULDER
    open_doors = frozenset(d.id for d in doors if rng.random() < 0.5)
    return pieces, doors, blocking, open_doors


def board_of(seed: int, **size):
    pieces, doors, blocking, open_doors = random_map(seed, **size)
    return build_board(pieces, doors, [], blocking).board, open_doors


def transform(pieces, doors, blocking, point):
    """The same map under a map of the plane given on lattice points (a rotation or a
    mirror): cells go to the cell spanned by their moved corners."""

    def cell(c):
        corners = [point((c[0] + dx, c[1] + dy)) for dx in (0, 1) for dy in (0, 1)]
        return (min(p[0] for p in corners), min(p[1] for p in corners))

    def edge(e):
        p, q = point(e[:2]), point(e[2:])
        return min(p, q) + max(p, q)

    new_pieces = [
        PlacedPiece(
            p.id, frozenset(cell(c) for c in p.cells), tuple(tuple(sorted(edge(e) for e in o)) for o in p.openings)
        )
        for p in pieces
    ]
    new_doors = [Door(d.id, tuple(sorted(edge(e) for e in d.edges)), d.rune) for d in doors]
    board = build_board(new_pieces, new_doors, [], {cell(c): b for c, b in blocking.items()}).board
    return board, cell


TURNS = {
    "quarter": lambda p: (-p[1], p[0]),
    "half": lambda p: (-p[0], -p[1]),
    "mirror": lambda p: (-p[0], p[1]),
    "flip": lambda p: (p[0], -p[1]),
    "transpose": lambda p: (p[1], p[0]),
}

seeds = st.integers(min_value=0, max_value=10**9)


@settings(max_examples=10, **SETTINGS)
@given(seeds)
def test_bulk_single_and_reference_agree(seed):
    """Every pair: the bulk query, the single-pair query and the reference agree."""
    board, open_doors = board_of(seed, width=6, height=5)
    for edition in EDITIONS:
        for a in board.cells:
            seen = board.visible_cells([a], edition, open_doors)
            for b in board.cells:
                ref = sees_reference(board, a, b, edition, open_doors)
                assert board.sees(a, b, edition, open_doors) == ref, (edition, a, b)
                assert (b in seen) == ref, (edition, a, b)
                assert (board.why_blocked(a, b, edition, open_doors) is None) == ref


@settings(max_examples=20, **SETTINGS)
@given(seeds)
def test_bulk_over_many_sources_is_the_union(seed):
    board, open_doors = board_of(seed, width=7, height=6)
    rng = random.Random(seed)
    sources = [c for c in board.cells if rng.random() < 0.3]
    for edition in EDITIONS:
        union = set()
        for s in sources:
            union |= board.visible_cells([s], edition, open_doors)
        assert board.visible_cells(sources, edition, open_doors) == union


@settings(max_examples=20, **SETTINGS)
@given(seeds)
def test_sight_is_symmetric(seed):
    board, open_doors = board_of(seed, width=7, height=6)
    for edition in EDITIONS:
        seen = {a: board.visible_cells([a], edition, open_doors) for a in board.cells}
        for a in board.cells:
            for b in seen[a]:
                assert a in seen[b], (edition, a, b)


@settings(max_examples=20, **SETTINGS)
@given(seeds)
def test_neighbours_without_wall_see_each_other(seed):
    """Orthogonal neighbours with no wall or closed door between them, and diagonal ones
    a figure could step between (ignoring obstacles), always see each other."""
    board, open_doors = board_of(seed, width=7, height=6)
    state = board.state(open_doors)
    for edition in EDITIONS:
        for a in board.cells:
            seen = board.visible_cells([a], edition, open_doors)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    b = (a[0] + dx, a[1] + dy)
                    if b == a or not board.is_floor(b):
                        continue
                    edge = edge_between(a, b)
                    free = (edge not in state.blocked_edges) if edge else not state.step_cut(a, b)
                    assert (b in seen) == free, (edition, a, b)


@settings(max_examples=20, **SETTINGS)
@given(seeds, st.sampled_from(sorted(TURNS)))
def test_turning_the_map_turns_every_answer(seed, turn):
    pieces, doors, blocking, open_doors = random_map(seed, width=8, height=6)
    board = build_board(pieces, doors, [], blocking).board
    turned, cell = transform(pieces, doors, blocking, TURNS[turn])
    for edition in EDITIONS:
        for a in board.cells:
            expect = {cell(b) for b in board.visible_cells([a], edition, open_doors)}
            assert turned.visible_cells([cell(a)], edition, open_doors) == expect, (edition, a)
        # Movement turns too.
        start = board.cells[0]
        moved = {cell(c) for c in board.reachable([start], passable_doors=open_doors)}
        assert turned.reachable([cell(start)], passable_doors=open_doors) == moved


@settings(max_examples=20, **SETTINGS)
@given(seeds)
def test_opening_doors_only_adds_sight(seed):
    board, open_doors = board_of(seed, width=7, height=6)
    all_open = frozenset(board.doors)
    for edition in EDITIONS:
        assert board.visible_cells(board.cells, edition, open_doors) <= board.visible_cells(
            board.cells, edition, all_open
        )
