"""What every check reads: the resolved quest, its board and its reveal analysis, each built once on demand."""
from __future__ import annotations

from functools import cached_property

from questc.model import QuestModel


class CheckContext:
    """The quest model in; the board and the analysis built lazily, shared by all checks."""

    def __init__(self, model: QuestModel, owned_sets: tuple[str, ...] | None = None):
        self.model = model
        # The sets the user owns (`--expansions`, configuration); None: the quest's own list.
        self.owned_sets = owned_sets

    @cached_property
    def board(self):
        from questc.board.quest_board import quest_board
        return quest_board(self.model)

    @cached_property
    def analysis(self):
        from questc.analysis import analyse
        return analyse(self.model, self.board)
