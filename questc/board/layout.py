"""A board's layout: floor cells and their pieces, walls, doors, staircases and obstacles,
with the plain queries on them (no movement, no sight: those build on this in movement.py,
sight.py and bulk.py, and `Board` in board.py brings them together)."""

from __future__ import annotations

from .geometry import Cell, Edge, cell_sides, edge_between, edge_cells, norm_edge
from .parts import BlockInfo, Door, Stairs


class Layout:
    """Floor cells, walls, doors, stairs and obstacles, and what stands where.

    Attributes (all deterministic; sequences are sorted):
      cells: tuple of floor cells, sorted;
      walls: frozenset of every unit edge that is wall (piece boundaries that are not
        joints, and every edge between floor and non-floor), doors not counted;
      obstacle_walls: frozenset of the sides of wall-like obstacles (boulder, crushing
        wall), which block as walls do but are not part of the map;
      doors: dict id -> Door, in id order;
      stairs: tuple of Stairs, in colour order;
      blocking: dict cell -> BlockInfo;
      joints: list of (piece_a, piece_b, edges), as in BoardBuild;
      origin, width, height: the bounding box of the floor (origin is its top-left cell;
        width and height count cells; all 0 for an empty board).
    """

    def __init__(
        self,
        owner: dict[Cell, str],
        walls: frozenset[Edge],
        doors: list[Door],
        stairs: list[Stairs],
        blocking: dict[Cell, BlockInfo],
        joints: list[tuple[str, str, tuple[Edge, Edge]]] | None = None,
    ):
        self._owner = dict(sorted(owner.items()))
        self.cells: tuple[Cell, ...] = tuple(self._owner)
        self._floor = frozenset(self.cells)
        self.walls = frozenset(walls)
        self.doors: dict[str, Door] = {d.id: d for d in sorted(doors, key=lambda d: d.id)}
        self.stairs: tuple[Stairs, ...] = tuple(sorted(stairs, key=lambda s: (s.colour, s.ends)))
        self.blocking: dict[Cell, BlockInfo] = dict(sorted(blocking.items()))
        self.joints = list(joints or [])
        self._doors_at: dict[Edge, list[str]] = {}
        for door in self.doors.values():
            for edge in door.edges:
                self._doors_at.setdefault(edge, []).append(door.id)
        floor_blocking = {c: b for c, b in self.blocking.items() if c in self._floor}
        self._no_entry = frozenset(c for c, b in floor_blocking.items() if b.blocks_movement or b.wall_like)
        self._opaque = frozenset(c for c, b in floor_blocking.items() if b.blocks_sight or b.fog or b.wall_like)
        self._fog = frozenset(c for c, b in floor_blocking.items() if b.fog)
        self._wall_like = frozenset(c for c, b in floor_blocking.items() if b.wall_like)
        self.pits = frozenset(c for c, b in floor_blocking.items() if b.pit)
        self.obstacle_walls = frozenset(side for c in self._wall_like for side in cell_sides(c))
        self._stairs_at: dict[Cell, list[Stairs]] = {}
        for st in self.stairs:
            for end in st.ends:
                self._stairs_at.setdefault(end, []).append(st)
        if self.cells:
            xs = [c[0] for c in self.cells]
            ys = [c[1] for c in self.cells]
            self.origin: Cell = (min(xs), min(ys))
            self.width = max(xs) - min(xs) + 1
            self.height = max(ys) - min(ys) + 1
        else:
            self.origin, self.width, self.height = (0, 0), 0, 0

    # -- plain queries -----------------------------------------------------------------
    def is_floor(self, cell: Cell) -> bool:
        """True when `cell` is a floor cell of some piece."""
        return cell in self._floor

    def piece_of(self, cell: Cell) -> str | None:
        """The id of the piece the cell belongs to (the first given, where pieces overlap)."""
        return self._owner.get(cell)

    def is_wall(self, edge: Edge) -> bool:
        """True when the unit edge (either point order) is a wall of the map."""
        return norm_edge(*edge) in self.walls

    @staticmethod
    def edge_between(a: Cell, b: Cell) -> Edge | None:
        """The unit edge shared by two orthogonal neighbours, else None."""
        return edge_between(a, b)

    @staticmethod
    def edge_cells(edge: Edge) -> tuple[Cell, Cell]:
        """The two cells on either side of a unit edge: (west, east) or (north, south)."""
        return edge_cells(norm_edge(*edge))

    def doors_on(self, edge: Edge) -> list[str]:
        """Ids of the doors covering the unit edge, sorted."""
        return list(self._doors_at.get(norm_edge(*edge), ()))

    def joints_between(self, a: str, b: str) -> list[tuple[Edge, Edge]]:
        """The joints (each as its two edges) between pieces a and b, in either order."""
        return [j[2] for j in self.joints if {j[0], j[1]} == {a, b}]

    def blocks_movement(self, cell: Cell) -> bool:
        """True when an obstacle keeps figures out of the cell (water, rubble, boulder...)."""
        return cell in self._no_entry

    def blocks_sight(self, cell: Cell) -> bool:
        """True when a line may not cross the cell's interior (rubble, fog, boulder...)."""
        return cell in self._opaque

    def is_fog(self, cell: Cell) -> bool:
        """True when the cell holds fog."""
        return cell in self._fog

    def is_pit(self, cell: Cell) -> bool:
        """True when the cell is a pit a figure leaves only for a cell that is no pit (BlockInfo.pit)."""
        return cell in self.pits

    def is_wall_like(self, cell: Cell) -> bool:
        """True when the cell holds a wall-like obstacle (boulder, crushing wall)."""
        return cell in self._wall_like

    def stairs_at(self, cell: Cell) -> list[Stairs]:
        """The staircases with an end on the cell."""
        return list(self._stairs_at.get(cell, ()))
