"""Q505 player-count-out-of-range: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.logic.examples import HEAD, quest
from questc.syntax import nodes as n

Q505 = Descriptor(
    code="Q505",
    name="player-count-out-of-range",
    severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    summary="`players` outside 2..5, or a figure's `players` outside the quest's.",
    explanation="""
Descent is played by 2 to 5 players, the overlord included, so a quest's `players`
range lies within 2..5. A figure's `players a..b` keeps it only for those player
counts; a count the quest itself does not support can never happen, so the figure's
range must lie within the quest's.
""",
    example=Example(
        failing=quest(
            HEAD.replace("conquest 3", "players 2..4\n  conquest 3"), "  monster beastman at 2,2 players 4..5\n"
        ),
        fixed=quest(HEAD.replace("conquest 3", "players 2..4\n  conquest 3"), "  monster beastman at 2,2 players 4\n"),
    ),
    fields=("problem", "label"),
)


GAME_PLAYERS = (2, 5)  # Descent is played by 2 to 5 players, the overlord included


def find(context: CheckContext) -> list[Diagnostic]:
    """Q505: the quest's `players` outside 2..5, and figures' `players` outside the quest's range."""
    model = context.model
    found = []
    low, high = model.players
    game_low, game_high = GAME_PLAYERS
    field = model.header.get("players") if model.header is not None else None
    players = field.value if field is not None and isinstance(field.value, n.CountRange) else None
    quest_labels = [Label(players.span, f"the quest is for {_range(low, high)} players")] if players else []
    if players is not None and (low < game_low or high > game_high):
        fixed = (
            _range(max(low, game_low), min(high, game_high))
            if max(low, game_low) <= min(high, game_high)
            else _range(game_low, game_high)
        )
        found.append(
            Q505.at(
                players.span,
                problem=f"the quest is for {_range(low, high)} players, but Descent is played by "
                f"{game_low} to {game_high} (the overlord included)",
                label=f"outside {game_low}..{game_high}",
                help=f"write `players {fixed}`",
            )
        )
    for area in model.areas.values():
        for stmt in area.node.statements:
            if not isinstance(stmt, n.Monster) or stmt.players is None:
                continue
            f_low, f_high = stmt.players.low, stmt.players.high
            if low <= f_low and f_high <= high:
                continue
            inside = (max(f_low, low), min(f_high, high))
            what = f"{stmt.type.value}{' master' if stmt.master else ''}"
            if inside[0] > inside[1]:
                problem = (
                    f"this {what} is only for {_range(f_low, f_high)} players, a count the quest "
                    f"({_range(low, high)}) never has: it never appears"
                )
                help = f"give it player counts within {_range(low, high)}, or remove it"
            else:
                problem = f"this {what} is for {_range(f_low, f_high)} players, beyond the quest's {_range(low, high)}"
                help = f"write `players {_range(*inside)}`"
            found.append(
                Q505.at(
                    stmt.players.span,
                    problem=problem,
                    label="outside the quest's players",
                    labels=quest_labels,
                    help=help,
                )
            )
    return found


def _range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}..{high}"


_TWO_TO_FOUR = second_examples.HEAD.replace("edition second\n", "edition second\n  players 2..4\n")

RULE = Rule(
    Q505,
    find,
    examples=(
        Example(  # second edition: a monster for more players than play
            failing=second_examples.second("  monster zombie at 2,2 players 4..5\n", head=_TWO_TO_FOUR),
            fixed=second_examples.second("  monster zombie at 2,2 players 4\n", head=_TWO_TO_FOUR),
        ),
    ),
)
