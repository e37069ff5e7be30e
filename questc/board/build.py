"""Board construction: placed pieces, doors, stairs and obstacle cells (plain data) in,
a `BoardBuild` out (the `Board` plus the joints, unjoined openings and overlaps the
placement checks report on).

Semantics (LANGUAGE.md section 4): a piece's cells are floor; an edge between two cells
of the same piece is open; every other edge of a piece is wall unless it belongs to an
opening of that piece meeting exactly (both unit edges) an opening of the piece on the
other side, which makes a *joint*.  Every edge between floor and non-floor is a wall.
"""

from __future__ import annotations

from dataclasses import field

from questc.records import record

from .board import Board
from .geometry import Cell, Edge, cell_sides, edge_cells, is_unit_edge, norm_edge
from .parts import BlockInfo, Door, PlacedPiece, Stairs

__all__ = ["BlockInfo", "BoardBuild", "Door", "PlacedPiece", "Stairs", "build_board", "with_doors"]


@record
class BoardBuild:
    """The result of `build_board`.

    board: the built `Board`;
    joints: ``(piece_a, piece_b, edges)`` for each pair of openings that meet exactly
      (piece ids ordered as the pieces were given, edges sorted);
    unjoined_openings: ``(piece_id, opening_index)`` for every opening not in a joint;
    openings_meeting_wall: ``(piece_id, opening_index, other_piece_id)`` for unjoined
      openings with another piece's floor across them (they are also in
      `unjoined_openings`);
    overlaps: ``(piece_a, piece_b, cells)`` for pieces sharing cells (cells sorted).
    """

    board: Board
    joints: list[tuple[str, str, tuple[Edge, Edge]]] = field(default_factory=list)
    unjoined_openings: list[tuple[str, int]] = field(default_factory=list)
    openings_meeting_wall: list[tuple[str, int, str]] = field(default_factory=list)
    overlaps: list[tuple[str, str, tuple[Cell, ...]]] = field(default_factory=list)


def build_board(
    pieces: list[PlacedPiece], doors: list[Door], stairs: list[Stairs], blocking: dict[Cell, BlockInfo]
) -> BoardBuild:
    """Build the board from placed pieces, doors, stairs and obstacle cells.

    Where pieces overlap, a shared cell belongs to the first piece given (the overlap is
    reported).  Openings whose edges are not unit boundary edges of their piece are
    ignored for joining and reported as unjoined.  Obstacles on cells that are not floor
    are kept in `Board.blocking` but have no effect.
    """
    owner: dict[Cell, str] = {}
    order = {p.id: i for i, p in enumerate(pieces)}
    overlaps: list[tuple[str, str, tuple[Cell, ...]]] = []
    shared: dict[tuple[str, str], set[Cell]] = {}
    for piece in pieces:
        for cell in sorted(piece.cells):
            first = owner.get(cell)
            if first is None:
                owner[cell] = piece.id
            elif first != piece.id:
                shared.setdefault((first, piece.id), set()).add(cell)
    for (a, b), cells in sorted(shared.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]])):
        overlaps.append((a, b, tuple(sorted(cells))))

    # Boundary edges of each piece: sides of its cells whose other cell is not its own.
    boundary: dict[str, set[Edge]] = {}
    for piece in pieces:
        edges: set[Edge] = set()
        for cell in piece.cells:
            for side in cell_sides(cell):
                near, far = edge_cells(side)
                other = far if near == cell else near
                if other not in piece.cells:
                    edges.add(side)
        boundary[piece.id] = edges

    # Openings meet exactly when they have the same two edges, with one piece's floor on
    # each side of them.
    by_edges: dict[frozenset[Edge], list[tuple[str, int]]] = {}
    cells_of = {p.id: p.cells for p in pieces}
    for piece in pieces:
        for index, opening in enumerate(piece.openings):
            normal = tuple(norm_edge(*e) for e in opening)
            if len(set(normal)) == 2 and all(is_unit_edge(e) and e in boundary[piece.id] for e in normal):
                by_edges.setdefault(frozenset(normal), []).append((piece.id, index))

    joined: set[tuple[str, int]] = set()
    joints: list[tuple[str, str, tuple[Edge, Edge]]] = []
    open_edges: set[Edge] = set()
    for edge_set, members in sorted(by_edges.items(), key=lambda kv: sorted(kv[0])):
        for i, (pa, ia) in enumerate(members):
            for pb, ib in members[i + 1 :]:
                if pa == pb or (pa, ia) in joined or (pb, ib) in joined:
                    continue
                if not _faces(edge_set, cells_of[pa], cells_of[pb]):
                    continue
                joined.add((pa, ia))
                joined.add((pb, ib))
                first, second = (pa, pb) if order[pa] <= order[pb] else (pb, pa)
                low, high = sorted(edge_set)
                joints.append((first, second, (low, high)))
                open_edges.update(edge_set)
    joints.sort(key=lambda j: (order[j[0]], order[j[1]], j[2]))

    unjoined: list[tuple[str, int]] = []
    meeting_wall: list[tuple[str, int, str]] = []
    for piece in pieces:
        for index, opening in enumerate(piece.openings):
            if (piece.id, index) in joined:
                continue
            unjoined.append((piece.id, index))
            others: set[str] = set()
            for raw in opening:
                edge = norm_edge(*raw)
                if not is_unit_edge(edge):
                    continue
                for cell in edge_cells(edge):
                    if cell not in piece.cells and cell in owner and owner[cell] != piece.id:
                        others.add(owner[cell])
            for other_id in sorted(others, key=lambda o: order[o]):
                meeting_wall.append((piece.id, index, other_id))

    # Walls: every edge around a floor cell whose other side is not floor of the same
    # piece, except the joints' edges.
    walls: set[Edge] = set()
    for cell, pid in owner.items():
        for side in cell_sides(cell):
            near, far = edge_cells(side)
            other = far if near == cell else near
            if owner.get(other) == pid:
                continue
            if side in open_edges and other in owner:
                continue
            walls.add(side)

    board = Board(
        owner=owner,
        walls=frozenset(walls),
        doors=[Door(d.id, (norm_edge(*d.edges[0]), norm_edge(*d.edges[1])), d.rune) for d in doors],
        stairs=list(stairs),
        blocking=dict(blocking),
        joints=joints,
    )
    return BoardBuild(
        board=board, joints=joints, unjoined_openings=unjoined, openings_meeting_wall=meeting_wall, overlaps=overlaps
    )


def with_doors(build: BoardBuild, doors: list[Door]) -> BoardBuild:
    """`build` with these doors on its board: doors change neither floor, walls nor joints,
    so the board is made again from the same parts (quest_board builds once without doors
    to learn the joints that `between` doors stand on)."""
    board = build.board
    new = Board(
        owner=board._owner,
        walls=board.walls,
        doors=[Door(d.id, (norm_edge(*d.edges[0]), norm_edge(*d.edges[1])), d.rune) for d in doors],
        stairs=list(board.stairs),
        blocking=dict(board.blocking),
        joints=build.joints,
    )
    return BoardBuild(
        board=new,
        joints=build.joints,
        unjoined_openings=build.unjoined_openings,
        openings_meeting_wall=build.openings_meeting_wall,
        overlaps=build.overlaps,
    )


def _faces(edges: frozenset[Edge], cells_a: frozenset[Cell], cells_b: frozenset[Cell]) -> bool:
    """True when every edge has a cell of piece a on one side and of piece b on the other."""
    for edge in edges:
        c1, c2 = edge_cells(edge)
        if not ((c1 in cells_a and c2 in cells_b) or (c1 in cells_b and c2 in cells_a)):
            return False
    return True
