"""The board stage: placed pieces, doors, stairs and obstacles in (plain data); a `Board`
out, answering floor, wall, movement, reachability and exact line-of-sight queries for
both editions (LANGUAGE.md sections 4 and 9)."""

from .board import Board
from .build import BoardBuild, build_board
from .geometry import Cell, Edge, Point, norm_edge
from .layout import Layout
from .parts import BlockInfo, Door, PlacedPiece, Stairs
from .sight import CENTRE_LINE, CORNER_LINES, RULES

__all__ = [
    "Board",
    "BlockInfo",
    "BoardBuild",
    "CENTRE_LINE",
    "CORNER_LINES",
    "Cell",
    "Door",
    "Edge",
    "Layout",
    "PlacedPiece",
    "Point",
    "RULES",
    "Stairs",
    "build_board",
    "norm_edge",
]
