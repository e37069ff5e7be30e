"""What every check reads: the resolved quest, its board and its reveal analysis, each built once on demand."""
from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, TypeVar

if TYPE_CHECKING:
    from questc.analysis.reveal import Analysis
    from questc.catalog.owned import Box, Declared
    from questc.diagnostics.edits import SourceText
    from questc.board.quest_board import QuestBoard
    from questc.model.quest import QuestModel

T = TypeVar("T")


class CheckContext:
    """The quest model in; the board, the analysis and each family's shared facts built lazily, once."""

    def __init__(self, model: QuestModel, owned_sets: tuple[str, ...] | None = None, source: str | None = None,
                 owned_counts: Declared | None = None):
        self.model = model
        # The sets the user owns (`--expansions`, configuration); None: the quest's own list.
        self.owned_sets = owned_sets
        # The configuration's `[owned]` table: copies of sets, counts of components declared.
        self.owned_counts = owned_counts
        # The quest's text, for fixes that insert or delete whole lines; None: such fixes are not offered.
        self.source = source
        self._shared: dict[Callable[[CheckContext], Any], Any] = {}

    @cached_property
    def text(self) -> SourceText | None:
        """The quest's text with line arithmetic, for building fixes (None without the text)."""
        if self.source is None:
            return None
        from questc.diagnostics.edits import SourceText
        return SourceText(self.source, self.model.path)

    @cached_property
    def board(self) -> QuestBoard:
        from questc.board.quest_board import quest_board
        return quest_board(self.model)

    @cached_property
    def analysis(self) -> Analysis:
        from questc.analysis import analyse
        return analyse(self.model, self.board)

    @property
    def sets(self) -> tuple[str, ...]:
        """The sets counted against: those the user owns, else the quest's own `expansions`;
        of them, only the quest's edition's (a first edition box holds no second edition tokens)."""
        sets = tuple(self.owned_sets) if self.owned_sets else tuple(self.model.expansions)
        catalog = self.model.catalog
        return tuple(s for s in sets if catalog.edition_of(s) == self.model.edition)

    @cached_property
    def box(self) -> Box:
        """What the component checks count against: the sets counted and the counts declared."""
        from questc.catalog.owned import Box
        return Box(self.model.catalog, self.sets, self.owned_counts)

    def shared(self, make: Callable[[CheckContext], T]) -> T:
        """`make(self)`, computed once per quest: the facts several rules of a family read."""
        if make not in self._shared:
            self._shared[make] = make(self)
        value: T = self._shared[make]
        return value
