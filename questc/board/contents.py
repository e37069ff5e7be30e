"""A resolved quest (and its board, when built) in; what stands on each cell of its map out.

The one answer to "what is on this cell": the language server's hover on a point and
the preview's cell details both read it (CompiledQuest.contents_of), each in its own
words. Every list keeps the quest's source order; the doors are those the board
placed, each with the side of the cell it stands on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from questc.board.geometry import Cell, cell_sides, edge_cells

if TYPE_CHECKING:
    from questc.board.board import Board
    from questc.model.quest import (
        AreaModel,
        DoorModel,
        Figure,
        GroupModel,
        Marker,
        ObstacleModel,
        PlacedPieceModel,
        QuestModel,
        StairsModel,
        TokenModel,
    )

SIDES = ("north", "east", "south", "west")  # cell_sides' order


@dataclass(frozen=True)
class CellContents:
    """One cell: the piece whose floor it is and the area that claims it (the first of each in
    source order, None for none), and the figures covering it, the markers on it, the
    obstacles and traps covering it, the stairs ending on it and the doors on its sides; in a
    second edition quest also the groups the overlord may place here (`group ... on`, an open
    group, a lieutenant on a piece) and the tokens he may (`on` pieces, `among` points)."""

    cell: Cell
    piece: PlacedPieceModel | None = None
    area: AreaModel | None = None
    figures: tuple[Figure, ...] = ()
    markers: tuple[Marker, ...] = ()
    obstacles: tuple[ObstacleModel, ...] = ()
    stairs: tuple[StairsModel, ...] = ()
    doors: tuple[tuple[DoorModel, str], ...] = ()  # (door, the side of this cell it stands on)
    groups: tuple[GroupModel, ...] = ()
    tokens: tuple[TokenModel, ...] = ()

    @property
    def empty(self) -> bool:
        """Nothing stands here (a piece and an area may still hold the cell)."""
        return not (
            self.figures or self.markers or self.obstacles or self.stairs or self.doors or self.groups or self.tokens
        )


@dataclass
class _Gathering:
    piece: PlacedPieceModel | None = None
    area: AreaModel | None = None
    figures: list[Figure] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    obstacles: list[ObstacleModel] = field(default_factory=list)
    stairs: list[StairsModel] = field(default_factory=list)
    doors: list[tuple[DoorModel, str]] = field(default_factory=list)
    groups: list[GroupModel] = field(default_factory=list)
    tokens: list[TokenModel] = field(default_factory=list)


def cell_contents(model: QuestModel, board: Board | None = None) -> dict[Cell, CellContents]:
    """Every cell something stands on or claims (a piece, an area, a figure...), with what it holds.

    Without the board (a quest whose names did not all resolve) the doors are not known."""
    cells: dict[Cell, _Gathering] = {}

    def at(cell: Cell) -> _Gathering:
        found = cells.get(cell)
        if found is None:
            found = cells[cell] = _Gathering()
        return found

    for piece in model.pieces.values():
        if piece is not None:
            for cell in piece.shape.cells:
                here = at(cell)
                here.piece = here.piece or piece
    for area in model.areas.values():
        for cell in area.cells:
            here = at(cell)
            here.area = here.area or area
    for figure in model.figures:
        for cell in figure.cells:
            at(cell).figures.append(figure)
    for marker in model.markers:
        at(marker.at).markers.append(marker)
    for obstacle in model.obstacles:
        for cell in obstacle.cells:
            at(cell).obstacles.append(obstacle)
    for stairs in model.stairs:
        for cell in dict.fromkeys(stairs.ends):
            at(cell).stairs.append(stairs)
    for group in model.groups.values():
        for cell in group.cells:
            at(cell).groups.append(group)
    for token in model.tokens:
        if token.placement in ("on", "among"):
            for cell in token.cells:
                at(cell).tokens.append(token)
    if board is not None:
        for door in board.doors.values():
            placed = model.doors.get(door.id)
            if placed is None:
                continue
            for edge in door.edges:
                for cell in edge_cells(edge):
                    at(cell).doors.append((placed, SIDES[cell_sides(cell).index(edge)]))
    return {
        cell: CellContents(
            cell,
            g.piece,
            g.area,
            tuple(g.figures),
            tuple(g.markers),
            tuple(g.obstacles),
            tuple(g.stairs),
            tuple(g.doors),
            tuple(g.groups),
            tuple(g.tokens),
        )
        for cell, g in cells.items()
    }
