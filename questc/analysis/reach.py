"""A quest, its board and the reveal analysis in; what the heroes can get at out: the figures a
victory needs defeated, the tokens they pick up and carry, the spaces they leave the map from,
and how far each counter the quest declares can go.

"Next to" is one step for a figure (Board.steps_from: a wall or a closed door between two
spaces keeps them apart), as for the tokens a hero searches (Q310). Monsters walk the same
board as the heroes, so a group the heroes cannot come next to cannot come to them either.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from questc.diagnostics.core import Span
from questc.records import record
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from questc.analysis.reveal import Analysis
    from questc.board.board import Board
    from questc.model.quest import PlacedPieceModel, QuestModel, TokenModel

Cell = tuple[int, int]

# `defeated all`: every monster, lieutenant and named monster of the encounter.
ALL = "all"


def near(board: Board, cell: Cell, reached: AbstractSet[Cell]) -> bool:
    """Is a hero ever on the cell or one step from it?"""
    return cell in reached or any(c in reached for c in board.steps_from(cell))


def places(board: Board, cells: Iterable[Cell]) -> list[Cell]:
    """The cells a figure or token can be put on: floor no obstacle keeps figures out of."""
    return [c for c in cells if board.is_floor(c) and not board.blocks_movement(c)]


@record
class Foe:
    """Something a `defeated` condition names, and where: each of `figures` is the spaces one
    figure stands on, or, for a group the overlord places himself, every space he may choose."""

    name: str  # as the condition writes it
    what: str  # "group", "figures", "lieutenant", "named monster"
    figures: tuple[tuple[Cell, ...], ...]
    span: Span | None = None  # where the quest places it


def foes(model: QuestModel, name: str) -> list[Foe]:
    """What `defeated NAME` stands for: a group and the figures of its monster placed at points, a
    lieutenant, a named monster; for `all`, every one of them."""
    out: list[Foe] = []
    names = (
        [name]
        if name != ALL
        else sorted(
            {g.id for g in model.groups.values()}
            | {f.named or f.type.name for f in model.figures}
            | set(model.lieutenants())
        )
    )
    for each in names:
        group = model.groups.get(each)
        if group is not None:
            out.append(
                Foe(
                    each,
                    "lieutenant" if group.kind == "lieutenant" else "group",
                    (tuple(sorted(group.cells)),),
                    group.span,
                )
            )
        figures = [f for f in model.figures if (f.named or f.type.name) == each]
        if figures:
            out.append(
                Foe(
                    each,
                    "named monster" if figures[0].named else "figures",
                    tuple(tuple(sorted(f.cells)) for f in figures),
                    figures[0].span,
                )
            )
        tokens = [m for m in model.markers if m.kind == "lieutenant" and m.variant == each]
        if tokens:
            out.append(Foe(each, "lieutenant", tuple((m.at,) for m in tokens), tokens[0].span))
    return out


def foe_reachable(board: Board, foe: Foe, reached: AbstractSet[Cell]) -> bool:
    """Can a hero come next to every figure of the foe (for a group the overlord places, to one of the
    spaces he may choose: its monsters come out to fight)?"""
    return all(any(near(board, c, reached) for c in places(board, cells) or cells) for cells in foe.figures)


def unreachable_foes(model: QuestModel, board: Board, reached: AbstractSet[Cell], name: str) -> list[Foe]:
    """The foes of `defeated NAME` a hero cannot come next to."""
    return [f for f in foes(model, name) if not foe_reachable(board, f, reached)]


def token_reachable(board: Board, token: TokenModel, reached: AbstractSet[Cell]) -> bool:
    """Can a hero pick the token up (or meet it, or search it): carried from the start, yes; else
    one of the spaces it is or may be placed on is on or next to a reached space."""
    if token.placement == "carried":
        return True
    return any(near(board, c, reached) for c in places(board, token.cells))


def leave_cells(board: Board, piece: PlacedPieceModel) -> frozenset[Cell]:
    """The spaces a figure leaves the map from by an entrance or exit piece: the piece's edge spaces
    (an `entrance` or `exit` piece's, from the catalog), else, for a tile given the role, its spaces
    beside the map's outside (no floor beyond)."""
    if piece.shape.edge:
        return piece.shape.edge
    return frozenset(
        c
        for c in piece.shape.cells
        if board.is_floor(c)
        and any(not board.is_floor((c[0] + dx, c[1] + dy)) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    )


def role_cells(model: QuestModel, board: Board, role: str) -> frozenset[Cell]:
    """Every space a figure may leave the map from by the quest's entrances or exits (`role`)."""
    return frozenset(c for piece in model.role_pieces(role) for c in leave_cells(board, piece))


def destination_cells(model: QuestModel, board: Board, atom: n.EventCondition) -> frozenset[Cell]:
    """Where `carried T to D` is done: the area's or piece's spaces; `to edge`, the spaces the heroes
    leave the map from (the quest's exits and entrances)."""
    if atom.destination is None:
        return role_cells(model, board, "exit") | role_cells(model, board, "entrance")
    name = atom.destination.value
    area = model.areas.get(name)
    if area is not None:
        return area.cells
    piece = model.pieces.get(name)
    return piece.shape.cells if piece is not None else frozenset()


# ---- counters ------------------------------------------------------------------------


def runnable_effects(
    model: QuestModel, analysis: Analysis, board: Board | None = None
) -> Iterator[tuple[n.Effect, bool]]:
    """Every effect that can run given what the heroes reach, with whether it may run again and again
    (a recurring rule's: `at end of each round`): the reveal analysis' effects (encounters reached,
    areas revealed, doors opened, rounds, named monsters killed), the recurring rules', and those
    of `on defeated` when what it names can be defeated."""
    from questc.analysis.reveal import effects_of

    for effect in effects_of(model, analysis.reached, analysis.revealed, set(analysis.opened_doors)):
        yield effect, False
    for trigger in model.triggers:
        if trigger.event == "each":
            for effect in trigger.effects:
                yield effect, True
        elif trigger.event == "defeated" and trigger.target is not None:
            if board is None or not unreachable_foes(model, board, analysis.reached, trigger.target.value):
                for effect in trigger.effects:
                    yield effect, False


def counter_range(
    model: QuestModel, analysis: Analysis, counter: str, board: Board | None = None
) -> tuple[int | None, int | None]:
    """The lowest and highest value a declared counter can take (None: no bound): 0 at the start,
    moved by the effects that can run (a recurring rule's as often as it likes), or set."""
    low = high = 0
    low_open = high_open = False
    for effect, again in runnable_effects(model, analysis, board):
        if not isinstance(effect, n.CounterEffect) or effect.counter.value != counter:
            continue
        if not effect.relative:
            low, high = min(low, effect.amount), max(high, effect.amount)
        elif effect.amount > 0:
            high_open |= again
            high += effect.amount
        elif effect.amount < 0:
            low_open |= again
            low += effect.amount
    return (None if low_open else low, None if high_open else high)


def raised(model: QuestModel, analysis: Analysis, counter: str, board: Board | None = None) -> bool:
    """Can anything the heroes may see happen raise the counter above 0?"""
    high = counter_range(model, analysis, counter, board)[1]
    return high is None or high > 0
