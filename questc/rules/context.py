"""The rules' view of a compiled quest: its model, board and analysis, the text for fixes, and a memo of
the facts several rules of a family share."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from questc.analysis.reveal import Analysis
    from questc.board.board import Board
    from questc.board.quest_board import QuestBoard
    from questc.catalog.owned import Box, Declared
    from questc.compiled import CompiledQuest
    from questc.diagnostics.edits import SourceText
    from questc.model.plan import Pricing
    from questc.model.quest import QuestModel

T = TypeVar("T")


class HeaderContext:
    """What a check of the header alone reads (Rule.header): the model, even one whose names did not
    all resolve, and the quest's text for fixes."""

    def __init__(self, model: QuestModel, source: str):
        self.model = model
        self.source = source

    @cached_property
    def text(self) -> SourceText:
        """The quest's text with line arithmetic, for fixes that insert or delete whole lines."""
        from questc.diagnostics.edits import SourceText

        return SourceText(self.source, self.model.path)


class CheckContext(HeaderContext):
    """A CompiledQuest in; what its rules read, each family's shared facts computed once (`shared`)."""

    def __init__(self, quest: CompiledQuest):
        super().__init__(quest.model, quest.source)
        self.quest = quest
        self._shared: dict[Callable[[CheckContext], Any], Any] = {}

    @property
    def quest_board(self) -> QuestBoard:
        return self.quest.quest_board

    @property
    def board(self) -> Board:
        return self.quest.board

    @property
    def analysis(self) -> Analysis:
        return self.quest.analysis

    @property
    def plan(self) -> Pricing | None:
        return self.quest.plan

    @property
    def sets(self) -> tuple[str, ...]:
        return self.quest.sets

    @property
    def owned_sets(self) -> tuple[str, ...] | None:
        return self.quest.owned_sets

    @property
    def owned_counts(self) -> Declared | None:
        return self.quest.owned_counts

    @property
    def box(self) -> Box:
        """What the component checks count against: the sets counted and the counts declared."""
        return self.quest.box

    def shared(self, make: Callable[[CheckContext], T]) -> T:
        """`make(self)`, computed once per quest: the facts several rules of a family read."""
        if make not in self._shared:
            self._shared[make] = make(self)
        value: T = self._shared[make]
        return value
