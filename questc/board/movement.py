"""Movement on a board (in: its layout and a door state; out: single steps and every cell a
figure can walk to). The step rule is the neighbour rule of sight (LANGUAGE.md section 9),
so both read the door state's blocked edges; the walk uses the bitsets of bulk.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .bulk import BitBoard
from .geometry import Cell, edge_between
from .layout import Layout
from .parts import Stairs
from .sight import SightState

StairsOk = Callable[[Stairs], bool] | set[str] | frozenset[str] | bool | None

NEIGHBOURS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def can_step(layout: Layout, state: SightState, a: Cell, b: Cell) -> bool:
    """Can a figure step from cell a to the 8-neighbour b, with the doors of `state`?

    Both must be floor and b free of obstacles that block movement.  An orthogonal
    step needs the shared edge free of walls and closed doors; a diagonal step is
    refused only when walls or closed doors at the shared corner cut both ways round
    it (LANGUAGE.md section 9).
    """
    if not layout.is_floor(a) or not layout.is_floor(b) or layout.blocks_movement(b):
        return False
    if layout.is_pit(a) and layout.is_pit(b):
        return False  # a figure in a pit spends no movement points: it climbs out, never into the next
    if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        return False
    edge = edge_between(a, b)
    if edge is not None:
        return edge not in state.blocked_edges
    return not state.step_cut(a, b)


def steps_from(layout: Layout, state: SightState, a: Cell) -> list[Cell]:
    """The cells one step from a (see `can_step`), sorted."""
    return sorted(b for b in ((a[0] + dx, a[1] + dy) for dx, dy in NEIGHBOURS) if can_step(layout, state, a, b))


def reachable(
    layout: Layout,
    bits: BitBoard,
    from_cells: Iterable[Cell],
    allowed: set[Cell] | frozenset[Cell] | None = None,
    stairs_ok: StairsOk = None,
) -> set[Cell]:
    """Every cell a figure can walk to from any of `from_cells`, with the doors of `bits`.

    allowed: if given, only these cells may be stepped onto; stairs_ok: which staircases
    may be used (stepping from one end to the other is one step): a callable taking a
    `Stairs`, a set of colours, True for all, or None/False for none. The start cells
    are included when they are floor, free of movement-blocking obstacles and (if
    `allowed` is given) allowed.
    """
    start = bits.bits_of(set(from_cells))
    if not start:
        return set()
    usable = _stairs_predicate(stairs_ok)
    jumps = []
    for stair in layout.stairs:
        if usable(stair) and layout.is_floor(stair.ends[0]) and layout.is_floor(stair.ends[1]):
            a, b = bits.bits_of([stair.ends[0]]), bits.bits_of([stair.ends[1]])
            jumps += [(a, b), (b, a)]
    within = bits.floor if allowed is None else bits.bits_of(allowed)
    if not layout.pits:
        return bits.reach(start, within, jumps)
    return _reach_with_pits(layout, bits, start, within, jumps)


def _reach_with_pits(layout: Layout, bits: BitBoard, start: int, within: int, jumps) -> set[Cell]:
    """`reachable` on a board with pits (BlockInfo.pit): a figure walks the cells that are no pit, steps
    into a pit beside them, and climbs out of it onto any cell beside it that is no pit, never into the
    next pit. So walk without the pits; add the pits one step from what was reached; walk on from the
    cells one step out of those pits; until nothing is added."""
    pits = bits.bits_of(layout.pits)
    reached: set[Cell] = set()
    frontier = start
    while frontier:
        reached |= bits.reach(frontier, within & ~pits | (frontier & pits), jumps)
        entered = {
            b for a in reached if not layout.is_pit(a) for b in steps_from(layout, bits.state, a) if layout.is_pit(b)
        } - reached
        entered &= bits.cells_of(within)
        reached |= entered
        out = {b for a in entered for b in steps_from(layout, bits.state, a)} - reached
        out &= bits.cells_of(within)
        frontier = bits.bits_of(out)
    return reached


def _stairs_predicate(stairs_ok: StairsOk) -> Callable[[Stairs], bool]:
    """Turn the `stairs_ok` argument of `reachable` into a predicate on Stairs."""
    if stairs_ok is None or stairs_ok is False:
        return lambda s: False
    if stairs_ok is True:
        return lambda s: True
    if callable(stairs_ok):
        return stairs_ok
    colours = frozenset(stairs_ok)
    return lambda s: s.colour in colours
