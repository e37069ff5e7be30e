"""A resolved QuestModel in; its board out: pieces placed, joints found, doors put on edges, obstacles and stairs laid.

Doors that cannot stand where the quest puts them are left off the board and
listed in `door_problems` for the placement checks (Q205), so one misplaced door
never breaks the whole map.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from questc.board.board import Board
from questc.board.build import BoardBuild, build_board, with_doors
from questc.board.geometry import Cell, Edge, edge_cells, norm_edge
from questc.board.parts import BlockInfo, Door, PlacedPiece, Stairs
from questc.limits import MAX_MAP_CELLS, MAX_MAP_SIDE
from questc.words import plural

if TYPE_CHECKING:
    from questc.diagnostics.core import Diagnostic
    from questc.model.quest import QuestModel

# The two unit edges a door `at X,Y SIDE` covers: that side of the cell and of the next
# cell along it (east for north/south, south for east/west).
_SIDE_EDGES = {
    "north": lambda x, y: ((x, y, x + 1, y), (x + 1, y, x + 2, y)),
    "south": lambda x, y: ((x, y + 1, x + 1, y + 1), (x + 1, y + 1, x + 2, y + 1)),
    "west": lambda x, y: ((x, y, x, y + 1), (x, y + 1, x, y + 2)),
    "east": lambda x, y: ((x + 1, y, x + 1, y + 1), (x + 1, y + 1, x + 1, y + 2)),
}


@dataclass
class QuestBoard:
    """The built board and what building it found.

    door_edges: door id -> its two edges (doors on the board);
    door_problems: (door id, problem sentence) for doors left off the board;
    door_cells: door id -> the four cells beside it (two on each side).
    """

    build: BoardBuild
    board: Board
    door_edges: dict[str, tuple[Edge, Edge]] = field(default_factory=dict)
    door_problems: list[tuple[str, str]] = field(default_factory=list)
    door_cells: dict[str, tuple[Cell, ...]] = field(default_factory=dict)
    # What was worked out from this board, by its other inputs (questc.analysis.reveal keeps its
    # analyses here): a board kept between checks (`remember`) keeps them with it.
    memo: dict[object, object] = field(default_factory=dict, repr=False, compare=False)


def door_edges_at(cell: Cell, side: str) -> tuple[Edge, Edge]:
    first, second = _SIDE_EDGES[side](*cell)
    return norm_edge(*first), norm_edge(*second)


# Boards kept by what they were built from, when a long-running caller asks for it
# (`remember`): the language server checks the quest after every edit, and most edits
# leave the map as it was; the same board comes back with its sight tables computed.
_RECENT: dict[tuple[object, ...], QuestBoard] = {}
_KEEP = 0


def remember(count: int) -> None:
    """Keep the last `count` boards built (0, the default: none) and give one back to a quest whose
    pieces, doors, stairs and obstacles are those it was built from."""
    global _KEEP
    _KEEP = max(0, count)
    while len(_RECENT) > _KEEP:
        _RECENT.pop(next(iter(_RECENT)))


def _board_key(model: QuestModel) -> tuple[object, ...]:
    """Everything quest_board reads from the model, hashable."""
    return (
        tuple(
            (p.id, p.shape.cells, tuple(o.edges() for o in p.shape.openings))
            for p in model.pieces.values()
            if p is not None
        ),
        tuple((s.colour, s.ends) for s in model.stairs),
        tuple(
            (
                o.kind.name,
                o.kind.blocks_movement,
                o.kind.blocks_sight,
                o.kind.sight_rule,
                o.kind.wall_like,
                o.kind.movement_rule,
                o.cells,
            )
            for o in model.obstacles
        ),
        tuple((d.id, d.between, d.at, d.side, d.rune) for d in model.doors.values()),
    )


def map_too_large(model: QuestModel) -> Diagnostic | None:
    """The board stage's limit: Q006 on the piece that takes the map past MAX_MAP_CELLS or
    MAX_MAP_SIDE, else None. Exact sight on such a map would take minutes: it is refused
    before the board is built."""
    from questc.syntax.codes import Q006

    # The map as a whole first: within the limits, so is every part of it (the usual case, at
    # every keystroke); else the pieces one by one, to find the one that takes it past them.
    pieces = [piece.shape.cells for piece in model.pieces.values() if piece is not None]
    whole: set[tuple[int, int]] = set().union(*pieces)
    if not whole:
        return None
    xs, ys = zip(*whole)
    if not _past_limits(len(whole), min(xs), min(ys), max(xs), max(ys)):
        return None
    cells: set[tuple[int, int]] = set()
    x0 = y0 = x1 = y1 = 0
    for piece in model.pieces.values():
        if piece is None:
            continue
        for x, y in piece.shape.cells:
            x0, x1 = (x, x) if not cells else (min(x0, x), max(x1, x))
            y0, y1 = (y, y) if not cells else (min(y0, y), max(y1, y))
            cells.add((x, y))
        if cells and _past_limits(len(cells), x0, y0, x1, y1):
            return Q006.at(
                piece.node.id.span,
                problem=f"the map grows to {len(cells):,} floor cells spanning "
                f"{x1 - x0 + 1} x {y1 - y0 + 1} here, too large to check",
                label="the map is too large from this piece on",
                help_text=f"a map holds at most {MAX_MAP_CELLS:,} cells within {MAX_MAP_SIDE} x {MAX_MAP_SIDE}",
            )
    return None


def _past_limits(cells: int, x0: int, y0: int, x1: int, y1: int) -> bool:
    """A map of `cells` floor cells within columns x0..x1 and rows y0..y1 is past the board's limits."""
    return cells > MAX_MAP_CELLS or x1 - x0 >= MAX_MAP_SIDE or y1 - y0 >= MAX_MAP_SIDE


def quest_board(model: QuestModel) -> QuestBoard:
    if not _KEEP:
        return _build(model)
    key = _board_key(model)
    found = _RECENT.pop(key, None)
    if found is None:
        found = _build(model)
    _RECENT[key] = found  # the most recent last
    while len(_RECENT) > _KEEP:
        _RECENT.pop(next(iter(_RECENT)))
    return found


def _build(model) -> QuestBoard:  # (typed, an opening's edges are a tuple of any length to mypy)
    pieces = [
        PlacedPiece(p.id, p.shape.cells, tuple(o.edges() for o in p.shape.openings))
        for p in model.pieces.values()
        if p is not None
    ]
    stairs = [Stairs(s.colour, s.ends) for s in model.stairs]
    blocking: dict[Cell, BlockInfo] = {}
    for obstacle in model.obstacles:
        kind = obstacle.kind
        info = BlockInfo(
            kind.blocks_movement,
            kind.blocks_sight,
            fog=kind.sight_rule == "fog",
            wall_like=kind.wall_like,
            kind=kind.name,
            pit=kind.movement_rule == "pit",
        )
        for cell in obstacle.cells:
            blocking.setdefault(cell, info)
    # First without doors, to learn the joints that `between` doors stand on.
    plain = build_board(pieces, [], stairs, blocking)
    joint_edges = {e for _a, _b, edges in plain.joints for e in edges}
    joints_of: dict[frozenset[str], list[tuple[Edge, Edge]]] = {}
    for pa, pb, edges in plain.joints:
        joints_of.setdefault(frozenset((pa, pb)), []).append(edges)
    owner = {c: p for c in plain.board.cells if (p := plain.board.piece_of(c)) is not None}
    doors, problems, placed = [], [], {}
    for door in model.doors.values():
        if door.between:
            a, b = door.between
            joints = joints_of.get(frozenset((a, b)), [])
            if a == b:
                problems.append((door.id, f"a door cannot stand between `{a}` and itself"))
                continue
            if not joints:
                problems.append((door.id, f"`{a}` and `{b}` share no joint (their openings do not meet)"))
                continue
            if len(joints) > 1:
                problems.append(
                    (
                        door.id,
                        f"`{a}` and `{b}` meet at {plural(len(joints), 'joint')}: say which with `door ID at X,Y SIDE`",
                    )
                )
                continue
            edges = joints[0]
        else:
            assert door.at is not None and door.side is not None  # a door is `between` pieces, or `at` a side
            edges = door_edges_at(door.at, door.side)
            problem = _door_at_problem(edges, owner, joint_edges)
            if problem:
                problems.append((door.id, problem))
                continue
        placed[door.id] = edges
        doors.append(Door(door.id, edges, door.rune))
    build = with_doors(plain, doors)
    result = QuestBoard(build, build.board, placed, problems)
    for door_id, edges in placed.items():
        cells = sorted({c for e in edges for c in edge_cells(e)})
        result.door_cells[door_id] = tuple(cells)
    return result


def _door_at_problem(edges: tuple[Edge, Edge], owner: dict[Cell, str], joint_edges: set[Edge]) -> str | None:
    """Why a door cannot stand on these two edges, or None if it can."""
    for edge in edges:
        a, b = edge_cells(edge)
        if a not in owner or b not in owner:
            return "it is not between two floor cells: one side is off the map"
    if all(e in joint_edges for e in edges):
        return None
    if all(owner[edge_cells(e)[0]] == owner[edge_cells(e)[1]] for e in edges):
        return f"it stands on open floor inside piece `{owner[edge_cells(edges[0])[0]]}`"
    return "it stands on a wall, not on a joint between two pieces"
